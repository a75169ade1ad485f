"""Porting where the sources are: `cass port PATH --in-place` and `cass port PATH --dry-run`.

In place, every file the port changes (sources, headers, Makefiles, CMake files) is replaced
atomically by its port after its original has been copied into a backup folder beside the
project (`PROJECT.cass-orig-YYYYmmdd-HHMMSS/`, the same relative paths; beside a single file,
`FILE.cass-orig`): a backup is never overwritten, and nothing is replaced unless every original
was backed up first. A dry run writes nothing and shows the changes as one unified diff
(`difflib`), the file names as `a/PATH` and `b/PATH`, as `git apply` and `patch -p1` read it.
"""

from __future__ import annotations

import difflib
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

from cass.models.engine import Target
from cass.models.rules.project import ProjectPort, read_source, translate_project, translate_text
from cass.runner import outputs
from cass.runner.diagnostics import CassError, Diagnostic


@dataclass(frozen=True)
class Change:
    """One file the port changes: its path relative to the project (or its own name)."""

    path: Path
    relative: str
    before: str
    after: str


def file_changes(
    source: Path, target: Target, engine: str
) -> tuple[list[Change], list[Diagnostic]]:
    text = read_source(source)
    translation = translate_text(text, str(source), target, engine)
    changes = (
        [Change(source, source.name, text, translation.text)] if translation.text != text else []
    )
    return changes, list(translation.diagnostics)


def project_changes(
    root: Path, target: Target, engine: str, include_dirs: list[Path], progress=None
) -> tuple[list[Change], ProjectPort]:
    result = translate_project(
        root, root, target, engine, include_dirs=include_dirs, progress=progress
    )
    changes = [
        Change(f.source, str(f.source.relative_to(result.root)), f.original, f.translation.text)
        for f in result.files
        if f.translation.text != f.original
    ]
    changes += [
        Change(result.root / b.relative, b.relative, b.original, b.text)
        for b in result.build
        if b.changed
    ]
    return sorted(changes, key=lambda c: c.relative), result


def unified_diff(changes: list[Change]) -> str:
    parts: list[str] = []
    for change in changes:
        parts += difflib.unified_diff(
            change.before.splitlines(keepends=True),
            change.after.splitlines(keepends=True),
            f"a/{change.relative}",
            f"b/{change.relative}",
        )
        if parts and not parts[-1].endswith("\n"):
            parts[-1] += "\n\\ No newline at end of file\n"
    return "".join(parts)


def backup_folder(path: Path) -> Path:
    """Where the originals go: beside the project (or file), a name no file has yet."""
    path = path.resolve()
    if path.is_file():
        candidate = path.with_name(path.name + ".cass-orig")
    else:
        candidate = path.with_name(f"{path.name}.cass-orig-{time.strftime('%Y%m%d-%H%M%S')}")
    if candidate.exists() or candidate.is_symlink():
        raise CassError(
            f"{candidate}: a backup of an earlier --in-place port is there; move it away first"
        )
    return candidate


def apply_in_place(changes: list[Change], backup: Path, single_file: bool) -> None:
    """Back up every original, then replace each file by its port (atomically, mode kept)."""
    for change in changes:
        destination = backup if single_file else backup / change.relative
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(change.path, destination)  # the bytes as they were, times and mode too
    for change in changes:
        executable = bool(change.path.stat().st_mode & 0o111)
        data = change.after.encode("utf-8", "surrogateescape")
        outputs.write_atomic(change.path, data, executable=executable)
