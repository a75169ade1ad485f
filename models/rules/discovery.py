"""Which files of a project use CUDA, and which headers they reach through the include path.

A project is a directory tree. Every `.cu`/`.cuh` file is CUDA; a C or C++ file of any other
suffix (`.c`, `.cpp`, `.h`, `.hpp`, ...) is CUDA when it names something CUDA: a kernel launch
`<<<`, a CUDA keyword (`__global__`, `threadIdx`, ...), a `cuda*`/`cu*` API name or any name the
mapping tables rename, or a CUDA header. Headers that a CUDA file includes (`#include "x"` from
its own folder, `#include <x>` or `"x"` from an include directory) are ported too, whatever
their name, so a helper header on the include path is never left behind (one that names
nothing CUDA is copied as it is).

Include directories come from `-I` options given to `cass port`, the project's
`compile_commands.json`, and `-I` flags written in its Makefiles (those without `$(...)`).
"""

from __future__ import annotations

import json
import re
import shlex
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from cass.models.rules.prelude import CUDA_MARKERS
from cass.models.rules.tables import header_entry, name_table

CUDA_SUFFIXES = frozenset((".cu", ".cuh"))
HOST_SUFFIXES = frozenset(
    (".c", ".cc", ".cpp", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".inl", ".inc", ".tpp")
)
SKIPPED_DIRS = frozenset((".git", ".hg", ".svn", "__pycache__"))
MAKEFILE_NAMES = frozenset(("makefile", "gnumakefile"))

_IDENTIFIER = re.compile(r"[A-Za-z_]\w*")
_CUDA_PREFIX = re.compile(
    r"(cuda[A-Z_]|cu[A-Z]|CU[A-Z_]|cublas|curand|cufft|cusparse|cusolver|nccl|nvrtc)\w*"
)
_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*([<"])([^">\r\n]+)[">]', re.MULTILINE)
_MAKE_INCLUDE_FLAG = re.compile(r"(?:^|\s)-(?:I|isystem)[ \t]*([^\s$()]+)")


@lru_cache(maxsize=1)
def cuda_words() -> frozenset[str]:
    """Identifiers that alone make a file CUDA: the keywords, and every name the tables rename."""
    renamed = (name for name, entry in name_table().items() if entry.hip != name)
    return frozenset((*CUDA_MARKERS, *renamed)) - {"<<<"}


def includes(text: str) -> list[tuple[bool, str]]:
    """(angle-bracketed?, name) of every `#include` line in `text`."""
    return [(m.group(1) == "<", m.group(2).strip()) for m in _INCLUDE.finditer(text)]


def uses_cuda(text: str) -> bool:
    """Whether C/C++ `text` names something CUDA (comments count: a false hit costs one port that
    changes nothing, and such a file is then copied as it was)."""
    if "<<<" in text:
        return True
    if any(header_entry(name) is not None for _, name in includes(text)):
        return True
    words = set(_IDENTIFIER.findall(text))
    if not words.isdisjoint(cuda_words()):
        return True
    return any(_CUDA_PREFIX.fullmatch(word) for word in words)


# ---------------------------------------------------------------- include directories


def _flags_dirs(args: list[str], base: Path) -> list[Path]:
    found, i = [], 0
    while i < len(args):
        arg = args[i]
        for flag in ("-I", "-isystem", "--include-path"):
            if arg == flag and i + 1 < len(args):
                found.append(base / args[i + 1])
                i += 1
            elif arg.startswith(flag) and len(arg) > len(flag) and flag != "--include-path":
                found.append(base / arg[len(flag) :].lstrip("="))
        i += 1
    return found


def compile_commands_dirs(root: Path) -> list[Path]:
    """Include directories of a `compile_commands.json` at the root or in `build/`."""
    for candidate in (root / "compile_commands.json", root / "build" / "compile_commands.json"):
        if candidate.is_file():
            try:
                entries = json.loads(candidate.read_text(encoding="utf-8", errors="replace"))
            except ValueError:
                return []
            dirs: list[Path] = []
            for entry in entries if isinstance(entries, list) else []:
                args = entry.get("arguments") or shlex.split(entry.get("command", ""))
                dirs += _flags_dirs(args, Path(entry.get("directory", str(root))))
            return dirs
    return []


def makefile_dirs(makefile: Path, text: str) -> list[Path]:
    """`-I dir` flags written literally in a Makefile, relative to its folder."""
    return [makefile.parent / m.group(1) for m in _MAKE_INCLUDE_FLAG.finditer(text)]


def is_makefile(path: Path) -> bool:
    name = path.name.lower()
    return name in MAKEFILE_NAMES or name.startswith("makefile") or path.suffix == ".mk"


# ---------------------------------------------------------------- the plan


@dataclass
class ProjectPlan:
    root: Path
    include_dirs: list[Path]
    port: list[Path] = field(default_factory=list)  # C/C++ files that go through the engine
    build: list[Path] = field(default_factory=list)  # Makefiles and CMake files
    copy: list[Path] = field(default_factory=list)  # everything else, byte for byte
    links: list[Path] = field(default_factory=list)  # symbolic links: not followed, not copied
    outside: list[str] = field(default_factory=list)  # included CUDA headers outside the root
    # (file, header name) for CUDA Samples helper headers included but found nowhere
    samples_helpers: list[tuple[Path, str]] = field(default_factory=list)


# The helper headers of NVIDIA's CUDA Samples (`Common/`, once `C/common/inc` and `shared/inc`):
# projects include them from a samples checkout that is not part of the project.
CUDA_SAMPLES_HELPERS = frozenset(
    "helper_cuda.h helper_cuda_drvapi.h helper_cusolver.h helper_functions.h helper_gl.h "
    "helper_image.h helper_math.h helper_multiprocess.h helper_nvJPEG.hxx helper_string.h "
    "helper_timer.h exception.h cutil.h cutil_inline.h cutil_inline_runtime.h cutil_math.h "
    "shrUtils.h shrQATest.h".split()
)


def _walk(root: Path, exclude: Path | None) -> tuple[list[Path], list[Path]]:
    files, links, todo = [], [], [root]
    while todo:
        folder = todo.pop()
        for entry in sorted(folder.iterdir()):
            if entry.is_symlink():
                links.append(entry)
            elif entry.is_dir():
                if entry.name not in SKIPPED_DIRS and (exclude is None or entry != exclude):
                    todo.append(entry)
            elif entry.is_file():
                files.append(entry)
    return sorted(files), sorted(links)


def _is_build_file(path: Path) -> bool:
    return is_makefile(path) or path.name == "CMakeLists.txt" or path.suffix == ".cmake"


def _resolve(including: Path, angle: bool, name: str, dirs: list[Path]) -> Path | None:
    bases = ([] if angle else [including.parent]) + dirs
    for base in bases:
        candidate = base / name
        if candidate.is_file():
            return candidate.resolve()
    return None


def plan_project(
    root: Path, extra_dirs: list[Path] = (), exclude: Path | None = None
) -> ProjectPlan:
    """Classify every file under `root`: ported, build file, or copied."""
    root = root.resolve()
    files, links = _walk(root, exclude)
    texts: dict[Path, str] = {}
    dirs = [d.resolve() for d in extra_dirs] + compile_commands_dirs(root)
    for path in files:  # a Makefile's -I outside the tree is the CUDA toolkit's or the system's
        if is_makefile(path):
            text = path.read_text(encoding="utf-8", errors="replace")
            dirs += [d for d in makefile_dirs(path, text) if d.resolve().is_relative_to(root)]
    include_dirs = list(dict.fromkeys(d.resolve() for d in dirs if d.is_dir()))
    plan = ProjectPlan(root, include_dirs, links=links)
    todo = []
    for path in files:
        if path.suffix in CUDA_SUFFIXES:
            todo.append(path)
        elif path.suffix in HOST_SUFFIXES:
            texts[path] = path.read_text(encoding="utf-8", errors="replace")
            if uses_cuda(texts[path]):
                todo.append(path)
    ported: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in ported:
            continue
        ported.add(path)
        text = texts.get(path) or path.read_text(encoding="utf-8", errors="replace")
        for angle, name in includes(text):
            if header_entry(name) is not None:
                continue  # CUDA's own header: the engine maps the include
            found = _resolve(path, angle, name, include_dirs)
            if found is None and name.rsplit("/", 1)[-1] in CUDA_SAMPLES_HELPERS:
                plan.samples_helpers.append((path, name))
            if found is None or found in ported:
                continue
            found_text = texts.get(found) or found.read_text(encoding="utf-8", errors="replace")
            if found.suffix not in CUDA_SUFFIXES and not uses_cuda(found_text):
                continue  # a plain C/C++ header: copied as it is
            if found.is_relative_to(root):
                todo.append(found)
            else:
                plan.outside.append(f"{path.relative_to(root)}: {name} ({found})")
    plan.port = sorted(ported)
    plan.build = [p for p in files if p not in ported and _is_build_file(p)]
    plan.copy = [p for p in files if p not in ported and not _is_build_file(p)]
    return plan
