"""Read what a user gives the lifter: SASS text, or a cubin / fatbin / object / executable.

Binaries are disassembled with the PyPI cuobjdump (`cuobjdump -sass`); a cubin's `.nv.info`
carries the exact parameter layout, which the text path otherwise has to reconstruct.
"""

from __future__ import annotations

from pathlib import Path

from cass.runner.diagnostics import CassError
from cass.runner.inputs import read_input
from cass.runner.tools import run_tool

ELF_MAGIC = b"\x7fELF"
FATBIN_MAGIC = b"\x50\xed\x55\xba"
TIMEOUT_S = 120


def read_sass_input(path: Path, arch: str | None = None) -> str:
    """SASS text for `path`: the file itself when it is text, its disassembly when it is a binary."""
    data = read_input(path, directory_hint="; give one SASS listing, cubin or binary")
    if data[:4] in (ELF_MAGIC, FATBIN_MAGIC):
        return disassemble(path, arch)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise CassError(f"{path}: neither SASS text nor an ELF/fatbin binary") from None


def disassemble(path: Path, arch: str | None) -> str:
    argv = ["cuobjdump", "-sass"]
    if arch:
        argv.append(f"-arch={arch}")
    argv.append(str(path))
    run = run_tool(argv, f"{path}: cuobjdump -sass", TIMEOUT_S)
    if not run.ok or "Function :" not in run.stdout:
        detail = run.stderr.strip() or "no SASS in it (does it contain device code for this arch?)"
        raise CassError(f"{path}: cuobjdump -sass failed: {detail[:300]}")
    return run.stdout


def cubin_info_for(path: Path, arch: str | None):
    """Cubin metadata for a lift input: the cubin itself, or (for a CUDA source, as in the
    benchmark) a cubin nvcc builds from it, cached by content. None when neither applies."""
    from cass.models.lift.elfinfo import read_cubin

    if not path.is_file():
        return None
    data = path.read_bytes()
    if data[:4] == ELF_MAGIC and data[18] == 190:  # EM_CUDA
        return read_cubin(data, str(path))
    if path.suffix not in (".cu", ".cuh") or not arch:
        return None
    cubin = _cached_cubin(path, data, arch)
    return read_cubin(cubin.read_bytes(), str(cubin)) if cubin else None


def _cached_cubin(source: Path, data: bytes, arch: str) -> Path | None:
    import hashlib
    import os
    import tempfile

    from cass.runner.outputs import write_atomic
    from cass.runner.toolchain import nvcc_command

    key = hashlib.sha256(data + arch.encode()).hexdigest()[:20]
    root = Path(os.environ.get("CASS_CACHE_DIR") or Path.home() / ".cache" / "cass") / "lift-cubins"
    target = root / f"{key}.{arch}.cubin"
    if target.is_file():
        return target
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=root) as work:
        out = Path(work) / "k.cubin"
        try:
            nvcc = nvcc_command()
        except CassError:
            return None
        argv = [*nvcc, "-cubin", "-O3", f"-arch={arch}", "-o", str(out), str(source)]
        try:
            run = run_tool(argv, f"{source}: nvcc -cubin", TIMEOUT_S, cwd=source.parent)
        except CassError:  # stuck or not runnable: the lift goes on without the cubin's layout
            return None
        if not run.ok or not out.is_file():
            return None
        write_atomic(target, out.read_bytes())
    return target
