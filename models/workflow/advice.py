"""What to do about a finding: the one command that resolves it, runnable from the user's shell.

The hooks run inside pre-commit's own virtualenv, where `cass-port` exists but the user's shell
does not have it; there the advice is the `pre-commit run` form (pre-commit passes the environment
through, so `CASS_PORT_MODE=merge|force|adopt` picks what `--merge` / `--force` / `--adopt` would).
Elsewhere (`cass ci`, a hook run by hand, the editor) cass is installed and the console scripts
are on PATH. A test walks every finding kind and runs the command its message names.
"""

from __future__ import annotations

import os
import shlex
from collections.abc import Sequence

from cass.models.workflow.mirror import MirrorConfig, MirrorState

PORT_MODES = ("force", "merge", "adopt")
MODE_VARIABLE = "CASS_PORT_MODE"


def in_pre_commit() -> bool:
    """True when pre-commit runs this process (it sets PRE_COMMIT=1 for every hook)."""
    return os.environ.get("PRE_COMMIT") == "1"


def quoted(paths: Sequence[str]) -> str:
    return " ".join(shlex.quote(p) for p in paths)


def port_command(sources: Sequence[str], mode: str | None = None) -> str:
    """The command that (re)generates the mirrors of `sources` (`mode`: force, merge, adopt)."""
    if in_pre_commit():
        prefix = f"{MODE_VARIABLE}={mode} " if mode else ""
        return f"{prefix}pre-commit run cass-port --files {quoted(sources)}"
    flag = f"--{mode} " if mode else ""
    return f"cass-port {flag}{quoted(sources)}"


def exclude_hint(source: str, config: MirrorConfig) -> str:
    """The per-file escape hatch: leave `source` out of mirroring."""
    where = config.config_path.name if config.config_path else "pyproject.toml"
    table = "[mirror]" if where == "cass.toml" else "[tool.cass.mirror]"
    excluded = ", ".join(f'"{g}"' for g in (*config.exclude, source))
    return f"or leave it out of mirroring: `exclude = [{excluded}]` under {table} in {where}"


def for_state(state: MirrorState, source: str, config: MirrorConfig) -> str:
    """What to do about a mirror in `state` (the states that need something done)."""
    src = [source]
    if state is MirrorState.MISSING:
        return f"create it: `{port_command(src)}`"
    if state is MirrorState.STALE:
        return f"regenerate it: `{port_command(src)}`"
    if state is MirrorState.HAND_EDITED:
        return (
            f'keep the edit: `{port_command(src, "adopt")}` (sets "hand-edited: yes" in '
            f"its header), or regenerate it: `{port_command(src, 'force')}` (your version is "
            "backed up)"
        )
    if state is MirrorState.CONFLICT:
        return (
            f"carry your edits over: `{port_command(src, 'merge')}`, or regenerate: "
            f"`{port_command(src, 'force')}` (your version is backed up)"
        )
    if state is MirrorState.FOREIGN:
        return (
            f"keep it as your hand-written port: `{port_command(src, 'adopt')}` (adds the "
            f"header, marked hand-edited), or replace it: `{port_command(src, 'force')}` "
            f"(it is backed up), {exclude_hint(source, config)}"
        )
    return ""


def untranslated(source: str, mirror: str, config: MirrorConfig) -> str:
    """A source the engine cannot port (dynamic parallelism, texture references, ...)."""
    return (
        f"finish the port by hand in {mirror} (the constructs are listed at its top) and set "
        f'"hand-edited: yes" in its header, {exclude_hint(source, config)}'
    )


def wrong_port(source: str, mirror: str, config: MirrorConfig | None) -> str:
    """A generated port that builds or runs wrong."""
    hatch = (
        exclude_hint(source, config)
        if config
        else "or leave the source out of mirroring (`exclude` under [tool.cass.mirror])"
    )
    return (
        f'correct the port in {mirror} and set "hand-edited: yes" in its header (verification '
        f"then runs your version), {hatch}"
    )


def record_command(source: str) -> str:
    """How to record a fresh NVIDIA reference for `source` (relative to the repository root)."""
    src = shlex.quote(source)
    return (
        f"record a fresh reference on a machine with an NVIDIA GPU: `cass verify --record "
        f"{src}` (with no cass installed there: `python3 benchmarks/record_references.py "
        f"{src}` from a cass checkout), then commit {shlex.quote(source + '.recorded.toml')}"
    )
