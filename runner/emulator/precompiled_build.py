"""A single-source HIP program built in a third of the time: the HIP headers precompiled once per
set of flags, device and host code compiled at the same time, the code object linked in after.

clang++-16 spends most of a short program's build parsing the HIP headers (about 66,000 lines,
0.45 s for each of the device and the host side) and runs the two sides one after the other,
since the host side embeds the device code object. Here:

- the headers every such program starts with (clang's implicit HIP wrapper, the emulator's
  device-library overrides, `hip/hip_runtime.h`) are parsed once into a precompiled header per
  side, cached under `$CASS_CACHE_DIR/hip-pch-<hash of the flags and the compiler>`;
- the device side (`--cuda-device-only`, the bundled code object) and the host side
  (`--cuda-host-only`, which without an embedded binary refers to an external `__hip_fatbin`)
  compile concurrently; a one-line assembly file defines `__hip_fatbin` as the code object's
  bytes in `.hip_fatbin`, where clang itself would have put them, and the three are linked.

A program qualifies only where precompiling cannot change what it means: before it includes
`hip/hip_runtime.h` it has nothing but comments and standard C/C++ headers (so the headers see
the same macros either way), it is one source file (no emulated library source beside it) and its
extra flags are only optimisation, warning, include and macro options (the header is built with
the very same flags). Anything else, and any failure of this path, builds with the one plain
clang++ command; a failure that the plain command does not share is reported on one line and the
cached header removed (stale against updated system headers, say) so the next build makes it anew.
`benchmarks/bench_build.py` times both ways over the bench and checks that the device code objects
are identical byte for byte.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from cass.runner.cache import cache_dir
from cass.runner.diagnostics import CassError
from cass.runner.outputs import staged_dir, write_atomic
from cass.runner.process import ProcessOutcome, run_compiler

PREFIX = "#include <hip/hip_runtime.h>\n"
SIDES = ("host", "device")
_HIP_RUNTIME = re.compile(r'#\s*include\s*([<"])hip/hip_runtime\.h[>"]')
_STANDARD_INCLUDE = re.compile(r"#\s*include\s*<([\w/.]+)>")
STANDARD_HEADERS = frozenset(
    """algorithm array atomic bitset cassert cctype cerrno cfloat chrono cinttypes climits cmath
    complex cstddef cstdint cstdio cstdlib cstring ctime deque fstream functional iomanip iostream
    iterator limits list map memory mutex numeric optional queue random set sstream stack string
    thread tuple type_traits unordered_map unordered_set utility vector assert.h ctype.h errno.h
    float.h inttypes.h limits.h math.h stdbool.h stddef.h stdint.h stdio.h stdlib.h string.h
    time.h""".split()
)
# extra flags that the precompiled header is built with as they are and that change nothing else
_PLAIN_FLAG = re.compile(r"-(O[0-3sz]?|W[\w=-]*|w|g\w*|std=[\w+]+|[DUI].+)$")


def qualifies(source: Path, text: str, extra: tuple[str, ...]) -> bool:
    """Whether `source` (its text) builds the same with the HIP headers precompiled: see the
    module docstring for the rule."""
    if not all(_PLAIN_FLAG.match(arg) for arg in extra):
        return False
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.DOTALL)
    for raw in text.splitlines():
        line = raw.split("//", 1)[0].strip()
        if not line:
            continue
        runtime = _HIP_RUNTIME.fullmatch(line)
        if runtime:
            # a quoted include would find a file of that name beside the source first
            return runtime.group(1) == "<" or not (source.parent / "hip/hip_runtime.h").exists()
        standard = _STANDARD_INCLUDE.fullmatch(line)
        if not standard or standard.group(1) not in STANDARD_HEADERS:
            return False
    return False


def _header_folder(flags: list[str]) -> Path:
    stat = Path(flags[0]).resolve().stat()
    digest = hashlib.sha256("\0".join([*flags, PREFIX, str(stat.st_size)]).encode())
    digest.update(str(stat.st_mtime_ns).encode())
    if any(re.match(r"-I(?!/)|-isystem$", arg) for arg in flags):
        digest.update(os.getcwd().encode())  # relative folders mean another thing elsewhere
    return cache_dir() / f"hip-pch-{digest.hexdigest()[:16]}"


def _prefix_file() -> Path:
    """The header the precompiled ones are made from, at a path that stays (each records it)."""
    path = cache_dir() / "hip-pch.h"
    if not path.is_file():
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, PREFIX)
    return path


def _side_command(flags: list[str], side: str) -> list[str]:
    # the device side stops at LLVM bitcode: its precompiled header is not an object to link
    return [*flags, f"--cuda-{side}-only", *(["-emit-llvm"] if side == "device" else [])]


KEPT = 8  # sets of precompiled headers kept (about 19 MB each), the least recently used go


def _prune(cache: Path) -> None:
    made = sorted(cache.glob("hip-pch-*"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in made[KEPT:]:
        shutil.rmtree(old, ignore_errors=True)


def _precompile(flags: list[str], folder: Path, timeout_s: float) -> None:
    """Build the folder's `host.pch` and `device.pch` (both at once) unless present."""
    if all((folder / f"{side}.pch").is_file() for side in SIDES):
        os.utime(folder)  # used: kept longest
        return
    prefix = _prefix_file()
    with staged_dir(folder, replace=False) as out:
        runs = _concurrently(
            [
                [
                    *_side_command(flags, side),
                    "-Xclang",
                    "-emit-pch",
                    "-c",
                    str(prefix),
                    "-o",
                    str(out / f"{side}.pch"),
                ]  # fmt: skip
                for side in SIDES
            ],
            timeout_s,
        )
        if not all(run.exit_code == 0 and not run.timed_out for run in runs):
            raise _Unusable("precompiling the HIP headers failed")
    _prune(folder.parent)


class _Unusable(Exception):
    """The precompiled path failed where the plain command may not."""


def _concurrently(commands: list[list[str]], timeout_s: float) -> list[ProcessOutcome]:
    cwd = Path.cwd()  # the plain command's: relative paths in the flags mean the same
    with ThreadPoolExecutor(max_workers=len(commands)) as pool:
        jobs = [pool.submit(run_compiler, cmd, cwd=cwd, timeout_s=timeout_s) for cmd in commands]
        return [job.result() for job in jobs]


def _fatbin_assembly(fatbin: Path) -> str:
    quoted = str(fatbin).replace("\\", "\\\\").replace('"', '\\"')
    return (
        '\t.section .note.GNU-stack,"",@progbits\n'
        '\t.section .hip_fatbin,"a",@progbits\n'
        "\t.p2align 12\n\t.globl __hip_fatbin\n\t.type __hip_fatbin,@object\n"
        f'__hip_fatbin:\n\t.incbin "{quoted}"\n'
    )


def build(
    flags: list[str], source: Path, output: Path, link_args: list[str], timeout_s: float
) -> bool:
    """Build `source` into `output` the precompiled way (`flags`: the plain command without the
    source and the output). False where that failed; the caller builds it the plain way. A
    compile past `timeout_s` is a CassError, as the plain command's would be."""
    folder = _header_folder(flags)
    try:
        _precompile(flags, folder, timeout_s)
    except (_Unusable, OSError):
        return False
    with tempfile.TemporaryDirectory(prefix="cass-build-") as tmp:
        work = Path(tmp)
        fatbin, host = work / "device.hipfb", work / "host.o"
        device_cmd = [*flags, "--cuda-device-only", "-c", str(source), "-o", str(fatbin)]
        host_cmd = [*flags, "--cuda-host-only", "-c", str(source), "-o", str(host)]
        for cmd, side in ((device_cmd, "device"), (host_cmd, "host")):
            cmd[len(flags) : len(flags)] = ["-Xclang", "-include-pch", "-Xclang",
                                            str(folder / f"{side}.pch")]  # fmt: skip
        runs = _concurrently([device_cmd, host_cmd], timeout_s)
        if any(run.timed_out for run in runs):  # the plain command would take as long again
            raise CassError(f"{source}: clang took longer than {timeout_s:.0f} s")
        if not all(run.exit_code == 0 for run in runs):
            return False
        (work / "fatbin.s").write_text(_fatbin_assembly(fatbin))
        linked = run_compiler(
            [flags[0], str(host), str(work / "fatbin.s"), "-o", str(output), *link_args],
            cwd=Path.cwd(),
            timeout_s=timeout_s,
        )
        return linked.exit_code == 0 and not linked.timed_out


def forget(flags: list[str], source: Path) -> None:
    """The precompiled path failed where the plain command succeeded: say so on one line and
    remove the cached header, so the next build makes it anew."""
    print(
        f"cass: {source}: the precompiled HIP headers did not build it (the plain build did); "
        "they are made anew on the next build",
        file=sys.stderr,
    )
    shutil.rmtree(_header_folder(flags), ignore_errors=True)


def enabled() -> bool:
    """`CASS_PRECOMPILED_HEADERS=0` builds every program the plain way."""
    return os.environ.get("CASS_PRECOMPILED_HEADERS", "1") != "0"
