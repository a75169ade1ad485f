"""Read what a user gives the lifter: SASS text, or a cubin / fatbin / object / executable.

Binaries are disassembled with the PyPI cuobjdump (`cuobjdump -sass`); a cubin's `.nv.info`
carries the exact parameter layout, which the text path otherwise has to reconstruct.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from cass.runner.diagnostics import CassError

ELF_MAGIC = b"\x7fELF"
FATBIN_MAGIC = b"\x50\xed\x55\xba"
TIMEOUT_S = 120


def read_sass_input(path: Path, arch: str | None = None) -> str:
    """SASS text for `path`: the file itself when it is text, its disassembly when it is a binary."""
    if not path.is_file():
        raise CassError(f"{path}: no such file")
    head = path.read_bytes()[:4]
    if head in (ELF_MAGIC, FATBIN_MAGIC):
        return disassemble(path, arch)
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise CassError(f"{path}: neither SASS text nor an ELF/fatbin binary") from None


def disassemble(path: Path, arch: str | None) -> str:
    from cass.runner.toolchain import require_tool

    argv = [str(require_tool("cuobjdump")), "-sass"]
    if arch:
        argv.append(f"-arch={arch}")
    argv.append(str(path))
    try:
        proc = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT_S)
    except subprocess.TimeoutExpired:
        raise CassError(f"{path}: cuobjdump took longer than {TIMEOUT_S} s") from None
    if proc.returncode != 0 or "Function :" not in proc.stdout:
        detail = proc.stderr.strip() or "no SASS in it (does it contain device code for this arch?)"
        raise CassError(f"{path}: cuobjdump -sass failed: {detail[:300]}")
    return proc.stdout
