"""Files in, files out: reading sources strictly, project discovery, atomic writes.

A project is a directory: its `.cu` and `.cuh` files plus the local headers they include
(`#include "..."`, followed recursively), mirrored into an output tree (`.cu` -> `.hip`; other
names kept so includes still resolve). Every file is written atomically (temporary file, then
rename): an interrupted run never leaves a half-written port.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from cass.models.engine import Target, Translation, TranslationRequest
from cass.models.registry import get_engine
from cass.runner.diagnostics import CassError

SOURCE_SUFFIXES = (".cu", ".cuh")
_LOCAL_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\r\n]+)"', re.MULTILINE)
MAX_BYTES = 64 * 1024 * 1024


def decode_source(data: bytes, path: str) -> str:
    """UTF-8 text of `data`; CassError naming the line and column of the first invalid byte."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        before = data[: exc.start]
        line = before.count(b"\n") + 1
        column = exc.start - (before.rfind(b"\n") + 1) + 1
        raise CassError(
            f"{path}:{line}:{column}: invalid UTF-8 (byte 0x{data[exc.start]:02x}); "
            "save the file as UTF-8 and run cass port again",
            exit_code=1,
        ) from None


def read_source(path: Path) -> str:
    try:
        if path.stat().st_size > MAX_BYTES:
            raise CassError(
                f"{path}: larger than {MAX_BYTES // 2**20} MiB; split it before porting",
                exit_code=1,
            )
        data = path.read_bytes()
    except FileNotFoundError:
        raise CassError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise CassError(f"{path}: is a directory (give -o DIR to port a project)") from None
    except PermissionError:
        raise CassError(f"{path}: permission denied") from None
    return decode_source(data, str(path))


def write_atomic(path: Path, text: str) -> None:
    """Write `text` (line endings untouched) via a temporary file renamed into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as handle:
            handle.write(text)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def translate_text(text: str, path: str, target: Target, engine: str = "rules") -> Translation:
    request = TranslationRequest(level="source", text=text, path=path, target=target)
    return get_engine(engine).translate(request)


# ---------------------------------------------------------------- projects


def _local_includes(path: Path, root: Path) -> Iterator[Path]:
    for match in _LOCAL_INCLUDE.finditer(path.read_bytes()):
        name = match.group(1).decode("utf-8", errors="replace")
        for base in (path.parent, root):
            candidate = (base / name).resolve()
            if candidate.is_file() and candidate.is_relative_to(root):
                yield candidate
                break


def discover(root: Path, exclude: Path | None = None) -> list[Path]:
    """`.cu`/`.cuh` files under `root` plus the local headers they include, sorted."""
    root = root.resolve()
    todo = [p.resolve() for p in root.rglob("*") if p.suffix in SOURCE_SUFFIXES and p.is_file()]
    if exclude is not None:
        todo = [p for p in todo if not p.is_relative_to(exclude)]
    found: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in found:
            continue
        found.add(path)
        todo.extend(p for p in _local_includes(path, root) if p not in found)
    return sorted(found)


def mirror_path(source: Path, root: Path, out: Path) -> Path:
    relative = source.resolve().relative_to(root.resolve())
    return out / (relative.with_suffix(".hip") if relative.suffix == ".cu" else relative)


@dataclass(frozen=True)
class PortedFile:
    source: Path
    output: Path
    translation: Translation


def port_project(
    root: Path,
    out: Path,
    target: Target,
    engine: str = "rules",
    *,
    force: bool = False,
    progress=None,
) -> list[PortedFile]:
    """Port every project file into `out`. Refuses a non-empty `out` unless `force`."""
    root, out = root.resolve(), out.resolve()
    if out == root:
        raise CassError(f"{out}: the output tree must differ from the project; pass another -o")
    if out.exists() and any(out.iterdir()) and not force:
        raise CassError(f"{out}: exists and is not empty; pass --force to write into it")
    files = discover(root, exclude=out)
    if not files:
        raise CassError(f"{root}: no .cu or .cuh files found")
    translations = []
    for source in files:  # translate everything first: nothing is written if a file cannot be read
        relative = str(source.relative_to(root))
        translations.append(
            PortedFile(
                source,
                mirror_path(source, root, out),
                translate_text(read_source(source), relative, target, engine),
            )
        )
        if progress is not None:
            progress(relative)
    for ported in translations:
        write_atomic(ported.output, ported.translation.text)
    return translations
