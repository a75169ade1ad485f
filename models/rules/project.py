"""Files in, files out: reading sources strictly, project discovery, atomic writes.

A project is a directory: its `.cu` and `.cuh` files plus the local headers they include
(`#include "..."`, followed recursively), mirrored into an output tree (`.cu` -> `.hip`; other
names kept so includes still resolve). Every file is written atomically (temporary file, then
rename, `cass.runner.outputs`): an interrupted run never leaves a half-written port, and no
output goes through a symbolic link, onto a special file or over a project source.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from cass.models.engine import Target, Translation, TranslationRequest
from cass.models.registry import get_engine
from cass.runner import outputs
from cass.runner.diagnostics import CassError
from cass.runner.inputs import DEFAULT_LIMIT, decode_utf8, read_input, read_stream

SOURCE_SUFFIXES = (".cu", ".cuh")
_LOCAL_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\r\n]+)"', re.MULTILINE)
MAX_BYTES = DEFAULT_LIMIT


def decode_source(data: bytes, path: str) -> str:
    """UTF-8 text of `data`; CassError naming the line and column of the first invalid byte."""
    return decode_utf8(data, path, "save the file as UTF-8 and run cass port again")


def read_source(path: Path) -> str:
    """A CUDA source's text: a regular file of at most MAX_BYTES (counted as read), UTF-8."""
    data = read_input(path, limit=MAX_BYTES, directory_hint=" (give -o DIR to port a project)")
    return decode_source(data, str(path))


def read_stdin_source(stream) -> str:
    """CUDA source from a pipe, capped at MAX_BYTES like a file."""
    return decode_source(read_stream(stream, "<stdin>", limit=MAX_BYTES), "<stdin>")


def write_atomic(path: Path, text: str) -> None:
    """Write `text` (line endings untouched) atomically under cass's output policy."""
    outputs.write_atomic(path, text)


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
    if out.exists() and not out.is_dir():
        raise CassError(f"{out}: is a file, not a folder; give -o a folder for the ported project")
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
    for ported in translations:  # check every output before writing any
        outputs.check_output(ported.output, inputs=files, force=True)
    for ported in translations:
        write_atomic(ported.output, ported.translation.text)
    return translations
