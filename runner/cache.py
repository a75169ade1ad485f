"""Where cass keeps what it builds or installs once per machine (device libraries, the HIP
runtime, rocPRIM/hipCUB/rocThrust, launchers)."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """`$CASS_CACHE_DIR`, else `~/.cache/cass`."""
    env = os.environ.get("CASS_CACHE_DIR")
    return Path(env) if env else Path.home() / ".cache" / "cass"
