"""Content fingerprints: what a recorded reference or a cached verdict was computed from.

    local_includes(Path("main.cu"))     # every `#include "..."` found beside its includer, recursively
    includes_digest(Path("main.cu"))    # None when the program includes no local header
    code_digest(Path(runner.__file__).parent, ...)   # the sources of the code that decides a verdict

A record or a cache entry is fresh only while every one of these still hashes the same: a header
edited beside a program makes its record stale exactly as an edit of the program itself does.
Standard library only (`python -m cass.runner.record` runs where cass's dependencies are absent).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from pathlib import Path

QUOTED_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.MULTILINE)
CODE_SUFFIXES = frozenset({".py", ".cpp", ".cc", ".h", ".hpp", ".ll", ".tsv", ".tmpl", ".txt"})
MAX_INCLUDES = 4096  # a bound on the walk, far above any real program's local headers


def normalised(data: bytes) -> bytes:
    """Line endings normalised: a CRLF checkout is the same program."""
    return data.replace(b"\r\n", b"\n")


def local_includes(source: Path) -> list[Path]:
    """The local headers `source` includes (`#include "x.h"` that resolve beside the including
    file), recursively, each once, sorted. Headers found nowhere locally are system headers."""
    source = source.resolve()
    seen: set[Path] = set()
    todo = [source]
    while todo and len(seen) < MAX_INCLUDES:
        current = todo.pop()
        try:
            text = current.read_bytes()
        except OSError:
            continue
        for match in QUOTED_INCLUDE.finditer(text):
            name = match.group(1).decode("utf-8", errors="replace")
            header = (current.parent / name).resolve()
            if header != source and header not in seen and header.is_file():
                seen.add(header)
                todo.append(header)
    return sorted(seen)


def _file_digest(path: Path) -> str:
    try:
        return hashlib.sha256(normalised(path.read_bytes())).hexdigest()
    except OSError:
        return "missing"


def includes_digest(source: Path) -> str | None:
    """sha256 over (path relative to the source's folder, content) of every local header it
    includes; None when it includes none (records made before headers were hashed stay valid)."""
    headers = local_includes(source)
    if not headers:
        return None
    base = source.resolve().parent
    digest = hashlib.sha256()
    for header in headers:
        try:
            name = header.relative_to(base).as_posix()
        except ValueError:
            name = header.as_posix()
        digest.update(f"{name}\0{_file_digest(header)}\n".encode())
    return digest.hexdigest()


def code_files(roots: Iterable[Path], exclude: Iterable[Path] = ()) -> list[Path]:
    """The source files (Python, C++, LLVM IR, tables) under `roots`, sorted, without `exclude`d
    folders, caches or build output."""
    skipped = tuple(p.resolve() for p in exclude)
    files = []
    for root in roots:
        for path in root.resolve().rglob("*"):
            if (
                path.suffix not in CODE_SUFFIXES
                or "__pycache__" in path.parts
                or not path.is_file()
            ):
                continue
            if any(path.is_relative_to(s) for s in skipped):
                continue
            files.append(path)
    return sorted(files)


def code_digest(roots: Iterable[Path], exclude: Iterable[Path] = ()) -> str:
    """sha256 over the relative path and content of every code file under `roots`."""
    roots = [r.resolve() for r in roots]
    digest = hashlib.sha256()
    for path in code_files(roots, exclude):
        root = next(r for r in roots if path.is_relative_to(r))
        digest.update(
            f"{root.name}/{path.relative_to(root).as_posix()}\0{_file_digest(path)}\n".encode()
        )
    return digest.hexdigest()


__all__ = ["code_digest", "code_files", "includes_digest", "local_includes", "normalised"]
