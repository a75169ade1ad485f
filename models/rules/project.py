"""Files in, files out: reading sources strictly, project discovery, atomic writes.

A project is a directory tree, ported into an output tree of the same shape: every file that
uses CUDA (whatever its suffix, see `discovery`) and the headers those files include go through
the engine, build files (Makefiles, CMake) are ported by `buildfiles`, everything else is copied
byte for byte, so the output builds as it stands. File names are kept (a `.cu` file stays `.cu`:
`-x hip` compiles it), so includes, Makefiles and scripts still find every file. All files are
ported in one process, each header once. Every file is written atomically (temporary file, then
rename, `cass.runner.outputs`): an interrupted run never leaves a half-written port, and no
output goes through a symbolic link, onto a special file or over a project source.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from cass.models.engine import Target, Translation, TranslationRequest
from cass.models.registry import get_engine
from cass.models.rules import buildfiles
from cass.models.rules.codes import DIAGNOSTIC_CODES
from cass.models.rules.discovery import ProjectPlan, plan_project
from cass.runner import outputs
from cass.runner.diagnostics import CassError, Diagnostic, Severity
from cass.runner.inputs import DEFAULT_LIMIT, decode_utf8, read_input, read_stream

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


@dataclass(frozen=True)
class PortedFile:
    source: Path
    output: Path
    translation: Translation

    @property
    def changed(self) -> bool:
        return bool(self.translation.diagnostics) or self.translation.text != self.original

    original: str = ""


@dataclass
class ProjectPort:
    """What porting a project did: the files ported, the build files, the copies, and what is
    left to a person."""

    root: Path
    out: Path
    plan: ProjectPlan
    files: list[PortedFile] = field(default_factory=list)
    build: list[buildfiles.PortedBuildFile] = field(default_factory=list)
    elapsed_s: float = 0.0

    unread: list[Diagnostic] = field(default_factory=list)

    @property
    def diagnostics(self) -> list[Diagnostic]:
        found = [d for f in self.files for d in f.translation.diagnostics]
        return self.unread + found + [d for b in self.build for d in b.diagnostics]


def _message_place(message: str) -> tuple[int, int]:
    """(line, column) of a `path:line:col: ...` message, else (1, 1)."""
    where = message.split(": ", 1)[0].rsplit(":", 2)
    return (int(where[1]), int(where[2])) if len(where) == 3 and where[1].isdigit() else (1, 1)


def _unread(relative: str, message: str) -> Diagnostic:
    """CASS076 at the place `read_source` named (`path:line:col: ...`), else at line 1."""
    line, column = _message_place(message)
    return Diagnostic(
        relative,
        line,
        column,
        Severity.ERROR,
        "CASS076",
        f"not ported, copied as it was: {message.split(': ', 1)[-1]}",
    )


def _not_utf8(relative: str, message: str) -> Diagnostic:
    """CASS090 at the first byte that is not UTF-8 (`path:line:col: invalid UTF-8 ...`)."""
    line, column = _message_place(message)
    detail = message.split(": ", 1)[-1].split(";", 1)[0]
    return Diagnostic(relative, line, column, Severity.WARNING, "CASS090",
                      f"{detail}: ported byte for byte (those bytes kept as they were)")  # fmt: skip


def _samples_helper(root: Path, path: Path, name: str) -> Diagnostic:
    """CASS084 at the `#include` of a CUDA Samples helper header that no include folder holds."""
    text = path.read_text(encoding="utf-8", errors="replace")
    line = next(
        (n for n, ln in enumerate(text.splitlines(), 1) if "include" in ln and name in ln), 1
    )
    return Diagnostic(
        str(path.relative_to(root)),
        line,
        1,
        DIAGNOSTIC_CODES["CASS084"].severity,
        "CASS084",
        f"`{name}` is a helper header of NVIDIA's CUDA Samples (Common/), in no folder of this "
        "project or its include path: copy it into the project (it is then ported with it), or "
        "port the samples' Common/ folder with `cass port` and add it to the build's include path",
    )


def _check_out_dir(root: Path, out: Path, force: bool) -> None:
    if out == root or root.is_relative_to(out):
        raise CassError(f"{out}: the output tree must differ from the project; pass another -o")
    if out.exists() and not out.is_dir():
        raise CassError(f"{out}: is a file, not a folder; give -o a folder for the ported project")
    if out.exists() and any(out.iterdir()) and not force:
        raise CassError(f"{out}: exists and is not empty; pass --force to write into it")


def port_project(
    root: Path,
    out: Path,
    target: Target,
    engine: str = "rules",
    *,
    force: bool = False,
    include_dirs: list[Path] = (),
    progress=None,
) -> ProjectPort:
    """Port the tree at `root` into `out`. Refuses a non-empty `out` unless `force`."""
    started = time.perf_counter()
    root, out = root.resolve(), out.resolve()
    _check_out_dir(root, out, force)
    result = translate_project(
        root, out, target, engine, include_dirs=include_dirs, progress=progress
    )
    plan = result.plan
    for source in (*plan.port, *plan.build, *plan.copy):  # check every output before writing any
        outputs.check_output(out / source.relative_to(root), inputs=[source], force=True)
    for ported in result.files:
        write_atomic(ported.output, ported.translation.text)
    for ported in result.build:
        outputs.write_atomic(out / ported.relative, ported.text.encode("utf-8", "surrogateescape"))
    for source in plan.copy:
        data = source.read_bytes()
        executable = bool(source.stat().st_mode & 0o111)
        outputs.write_atomic(out / source.relative_to(root), data, executable=executable)
    result.elapsed_s = time.perf_counter() - started
    return result


def translate_project(
    root: Path,
    out: Path,
    target: Target,
    engine: str = "rules",
    *,
    include_dirs: list[Path] = (),
    progress=None,
) -> ProjectPort:
    """Plan and translate the tree at `root` (sources and build files), writing nothing; the
    ports' paths are under `out`."""
    started = time.perf_counter()
    root, out = root.resolve(), out.resolve()
    plan = plan_project(root, list(include_dirs), exclude=out if out != root else None)
    if not plan.port:
        raise CassError(f"{root}: no file uses CUDA (looked at every C, C++ and CUDA file)")
    result = ProjectPort(root, out, plan)
    result.unread += [_samples_helper(root, path, name) for path, name in plan.samples_helpers]
    for source in plan.port:  # translate everything first: nothing is written if one is unreadable
        relative = str(source.relative_to(root))
        try:
            data = read_input(source, limit=MAX_BYTES)
        except CassError as exc:  # too large, unreadable: reported, and copied as it is
            plan.copy.append(source)
            result.unread.append(_unread(relative, str(exc)))
            continue
        try:
            text = decode_source(data, str(source))
        except CassError as exc:  # bytes that are not UTF-8 travel through unchanged
            text = data.decode("utf-8", errors="surrogateescape")
            result.unread.append(_not_utf8(relative, str(exc)))
        translation = translate_text(text, relative, target, engine)
        result.files.append(PortedFile(source, out / relative, translation, original=text))
        if progress is not None:
            progress(relative)
    for source in plan.build:
        relative = source.relative_to(root)
        result.build.append(buildfiles.port_build_file(source, str(relative), target))
    result.elapsed_s = time.perf_counter() - started
    return result


# ---------------------------------------------------------------- the summary


def summary(result: ProjectPort) -> str:
    """A plain-text table: files ported / unchanged / copied, diagnostics by code, and what
    needs a person (errors by file, headers outside the tree, links not copied)."""
    changed = sum(1 for f in result.files if f.changed)
    build_changed = sum(1 for b in result.build if b.changed)
    lines = [
        f"ported {result.root} -> {result.out} in {result.elapsed_s:.2f} s",
        f"  {'C/C++/CUDA files ported':<34}{changed:>6}",
        f"  {'  of them unchanged (copied)':<34}{len(result.files) - changed:>6}",
        f"  {'build files ported':<34}{build_changed:>6}",
        f"  {'other files copied':<34}{len(result.plan.copy) + len(result.build) - build_changed:>6}",
    ]
    counts = Counter((d.code, d.severity) for d in result.diagnostics)
    if counts:
        lines.append("  diagnostics by code:")
        for (code, severity), count in sorted(counts.items()):
            title = DIAGNOSTIC_CODES[code].title if code in DIAGNOSTIC_CODES else ""
            lines.append(f"    {code}  {severity.value:<8}{count:>5}  {title}")
    lines += _needs_a_person(result)
    return "\n".join(lines) + "\n"


def _needs_a_person(result: ProjectPort) -> list[str]:
    errors = Counter(d.path for d in result.diagnostics if d.severity is Severity.ERROR)
    notes = [f"    {path}: {n} error(s)" for path, n in sorted(errors.items())]
    notes += [
        f"    included from outside the project, not ported: {o}" for o in result.plan.outside
    ]
    notes += [
        f"    {link.relative_to(result.root)}: a symbolic link, not copied"
        for link in result.plan.links
    ]
    if not notes:
        return ["  needs a person: nothing"]
    return ["  needs a person:", *notes]
