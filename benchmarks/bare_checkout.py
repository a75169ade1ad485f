"""`cass.runner` from a bare checkout, for the scripts that run on a GPU machine where cass is
not installed (its comparator, recorder and spec reader need only the standard library).

    from bare_checkout import import_runner   # the scripts put benchmarks/ on sys.path first
    import_runner()
"""

from __future__ import annotations

import atexit
import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def import_runner() -> None:
    """Make `cass.runner` importable: the installed one, else a temporary `cass` namespace whose
    `runner` links to this checkout's runner/."""
    try:
        import cass.runner  # noqa: F401
    except ImportError:
        ns = Path(tempfile.mkdtemp(prefix="cass-ns-")) / "cass"
        ns.mkdir()
        (ns / "runner").symlink_to(ROOT / "runner")
        atexit.register(shutil.rmtree, ns.parent, True)
        sys.path.insert(0, str(ns.parent))
