"""From the file names a hook is given to (source, mirror) pairs.

pre-commit passes the staged files matching a hook's `files:` regex; `cass ci` passes the files
changed since the base. Any of three kinds of file may arrive: a CUDA source (selected by the
include / exclude globs), a mirror (mapped back to its source through its header), or a source's
recorded NVIDIA reference (`k.cu.recorded.toml`: a pull request that only re-records it is
checked too). Symlinked sources are
skipped with a note (their target is mirrored under its own name), and a mirror whose source is
gone is reported as an orphan.
"""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from pathlib import Path

from cass.models.workflow.mirror import (
    MirrorConfig,
    is_mirrored,
    mirror_path,
    parse_mirror,
    relative_posix,
    sha256_bytes,
)
from cass.runner.diagnostics import CassError, Diagnostic, Severity, WorkError


@dataclass(frozen=True, order=True)
class Pair:
    source: str  # POSIX paths relative to the repository root
    mirror: str


@dataclass(frozen=True)
class Selection:
    pairs: tuple[Pair, ...]
    diagnostics: tuple[Diagnostic, ...]


def finding(path: str, severity: Severity, code: str, message: str, line: int = 1) -> Diagnostic:
    return Diagnostic(path=path, line=line, column=1, severity=severity, code=code, message=message)


def read_source(root: Path, rel: str) -> tuple[str, str]:
    """(text, sha256) of a source; CassError for a file that is not UTF-8."""
    data = (root / rel).read_bytes()
    try:
        return data.decode("utf-8"), sha256_bytes(data)
    except UnicodeDecodeError as exc:
        raise WorkError(f"{rel}: byte {exc.start} is not UTF-8; save the file as UTF-8") from None


def read_mirror(root: Path, rel: str) -> str | None:
    path = root / rel
    if not path.exists():
        return None
    return path.read_text(encoding="utf-8", errors="surrogateescape")


def select_pairs(root: Path, names: list[str], config: MirrorConfig) -> Selection:
    """Pairs for the given file names (relative to the current folder or absolute)."""
    pairs: set[Pair] = set()
    notes: list[Diagnostic] = []
    for name in names:
        try:
            rel = relative_posix(Path(os.path.abspath(name)), root)
            pair, note = _pair_for(root, rel, config)
        except CassError as exc:
            pair, note = None, finding(name, Severity.ERROR, "cass-path", exc.message)
        if pair is not None:
            pairs.add(pair)
        if note is not None:
            notes.append(note)
    return Selection(tuple(sorted(pairs)), tuple(notes))


RECORD_SUFFIX = ".recorded.toml"  # a source's NVIDIA reference (cass.runner.recorded)


def _pair_for(root: Path, rel: str, config: MirrorConfig) -> tuple[Pair | None, Diagnostic | None]:
    path = root / rel
    if rel.endswith(RECORD_SUFFIX):  # a re-recorded reference: its pair is checked again
        source = rel[: -len(RECORD_SUFFIX)]
        if (root / source).is_file() and is_mirrored(root / source, root, config):
            return _source_pair(root, source, config)
        return None, None
    if is_mirrored(path, root, config):
        return _source_pair(root, rel, config)
    if path.is_file() and _could_be_mirror(rel, config):
        return _mirror_pair(root, rel, config)
    return None, None


def _source_pair(
    root: Path, rel: str, config: MirrorConfig
) -> tuple[Pair | None, Diagnostic | None]:
    path = root / rel
    if path.is_symlink():
        target = os.readlink(path)
        return None, finding(
            rel,
            Severity.WARNING,
            "source-symlink",
            f"skipped: a symlink to {target}; its target is mirrored under its "
            "own name (list the target in the include globs)",
        )
    mirror = relative_posix(mirror_path(path, root, config), root)
    if not path.is_file():  # deleted: a mirror left behind is an orphan
        return None, _orphan(root, mirror, rel)
    return Pair(rel, mirror), None


def _orphan(root: Path, mirror: str, source: str) -> Diagnostic | None:
    path = root / mirror
    try:
        if not path.is_file() or parse_mirror(path.read_text("utf-8", errors="replace")) is None:
            return None
    except CassError:
        pass  # a damaged header is still ours
    return finding(
        mirror,
        Severity.ERROR,
        "mirror-orphan",
        f"its source {source} no longer exists; delete the mirror "
        f"(`git rm {_quote(mirror)}`) or restore the source",
    )


def _could_be_mirror(rel: str, config: MirrorConfig) -> bool:
    if config.layout == "tree" and not rel.startswith(config.tree.strip("/") + "/"):
        return False
    return any(rel.endswith(suffix) for _, suffix in config.suffixes) or rel.endswith(".hip")


def _mirror_pair(
    root: Path, rel: str, config: MirrorConfig
) -> tuple[Pair | None, Diagnostic | None]:
    try:
        parsed = parse_mirror((root / rel).read_text(encoding="utf-8", errors="replace"))
    except CassError as exc:
        return None, finding(
            rel,
            Severity.ERROR,
            "mirror-damaged",
            f"{exc.message}; restore "
            f"the committed version: `git restore --source=HEAD --staged "
            f"--worktree {_quote(rel)}`",
        )
    if parsed is None:
        return None, None  # a HIP file of the project's own, not a mirror
    source = parsed[0].source
    source_path = root / source
    if not source_path.exists() and not source_path.is_symlink():
        return None, _orphan(root, rel, source)
    if not is_mirrored(source_path, root, config):
        return None, None
    return _source_pair(root, source, config)


def _quote(path: str) -> str:
    return shlex.quote(path)
