"""The NVIDIA stack: CUDA `.cu` -> PTX, cubin, SASS (cuobjdump), host assembly, executable.

Each emit is one nvcc (or cuobjdump) call; the per-kernel manifest combines the SASS text split
at `Function :` headers with ptxas's own resource report (`-Xptxas -v`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from cass.runner import toolchain
from cass.runner.compile_steps import (
    CompileResult,
    KernelInfo,
    demangle,
    keep,
    run_step,
    step_warnings,
)

OPT = "-O3"


def _nvcc(result: CompileResult, mode: list[str], output: Path, extra: list[str]):
    argv = [*toolchain.nvcc_command(), f"-arch={result.arch}", OPT, *extra, *mode]
    proc = run_step([*argv, "-o", str(output), str(result.source)], result.source, "nvcc")
    result.diagnostics += [
        d for d in step_warnings(proc, result.source, "nvcc") if d not in result.diagnostics
    ]
    return proc


def build(
    result: CompileResult, wanted: list[str], work: Path, *, kernels: bool, extra_flags: list[str]
) -> None:
    """Produce every emit in `wanted` (and the kernel manifest when asked)."""
    stem = result.source.stem
    if "ptx" in wanted:
        _nvcc(result, ["-ptx"], work / f"{stem}.ptx", extra_flags)
        keep(result, "ptx", work / f"{stem}.ptx")
    if {"cubin", "sass"} & set(wanted) or kernels:
        _cubin_and_sass(result, wanted, work, kernels, extra_flags)
    if "host-asm" in wanted:
        host = work / f"{stem}.host.s"
        _nvcc(result, ["-c", "-Xcompiler", "-S"], host, extra_flags)
        host.write_text(strip_device_blob(host.read_text(errors="replace")))
        keep(result, "host-asm", host)
    if "exe" in wanted:
        _nvcc(result, [], work / f"{stem}.out", extra_flags)
        keep(result, "exe", work / f"{stem}.out")


def _cubin_and_sass(
    result: CompileResult, wanted: list[str], work: Path, kernels: bool, extra: list[str]
) -> None:
    cubin = work / f"{result.source.stem}.cubin"
    proc = _nvcc(result, ["-cubin", "-Xptxas", "-v"], cubin, extra)
    cuobjdump = str(toolchain.require_tool("cuobjdump"))
    sass = run_step([cuobjdump, "-sass", str(cubin)], result.source, "cuobjdump").stdout
    if kernels:
        result.kernels = kernel_manifest(sass, parse_ptxas_report(proc.stderr))
    if "sass" in wanted:
        sass_file = work / f"{result.source.stem}.sass"
        sass_file.write_text(sass)
        keep(result, "sass", sass_file)
    if "cubin" in wanted:
        keep(result, "cubin", cubin)


# ---------------------------------------------------------------- host assembly

_BLOB_LINE = re.compile(r"^\s*(\.section\s+\.nv_fatbin\b.*|\.align\s+\d+|fatbinData:|\.quad\s.*)$")


def strip_device_blob(host_asm: str) -> str:
    """Host assembly without the fatbin (device code) nvcc embeds as `.quad` data.

    The CASS pipeline separates host from device code this way: the blob is device code in
    disguise and would swamp the host instructions.
    """
    lines = host_asm.splitlines(keepends=True)
    out: list[str] = []
    i = 0
    while i < len(lines):
        if re.match(r"^\s*\.section\s+\.nv_fatbin\b", lines[i]):
            start = i
            while i < len(lines) and _BLOB_LINE.match(lines[i].rstrip("\n")):
                i += 1
            quads = sum(line.count(",") + 1 for line in lines[start:i] if ".quad" in line)
            out.append(f"# cass: NVIDIA device fatbin ({quads * 8} bytes) removed\n")
            continue
        out.append(lines[i])
        i += 1
    return "".join(out)


# ---------------------------------------------------------------- kernel manifest


@dataclass
class PtxasStats:
    registers: int = 0
    shared_bytes: int = 0
    spill_bytes: int = 0


def parse_ptxas_report(stderr: str) -> dict[str, PtxasStats]:
    """`ptxas -v` lines -> per-function registers, static shared memory and spill-store bytes."""
    stats: dict[str, PtxasStats] = {}
    current: PtxasStats | None = None
    for line in stderr.splitlines():
        if m := re.search(
            r"(?:Compiling entry function|Function properties for) '?([\w$.]+)'?", line
        ):
            current = stats.setdefault(m.group(1), PtxasStats())
        if current is None:
            continue
        if m := re.search(r"(\d+) bytes spill stores", line):
            current.spill_bytes = int(m.group(1))
        if m := re.search(r"Used (\d+) registers", line):
            current.registers = int(m.group(1))
        if m := re.search(r"(\d+) bytes smem", line):
            current.shared_bytes = int(m.group(1))
    return stats


def split_sass(sass: str) -> dict[str, str]:
    """cuobjdump SASS text split into one block per `Function : NAME` header."""
    blocks: dict[str, str] = {}
    parts = re.split(r"^\s*Function : (\S+)\s*$", sass, flags=re.M)
    for name, body in zip(parts[1::2], parts[2::2], strict=True):
        text = body.split("\n\t\t..........", 1)[0].rstrip()
        blocks[name] = f"\t\tFunction : {name}{text}\n"
    return blocks


def kernel_manifest(sass: str, stats: dict[str, PtxasStats]) -> list[KernelInfo]:
    blocks = split_sass(sass)
    names = list(blocks)
    infos = []
    for name, pretty in zip(names, demangle(names), strict=True):
        s = stats.get(name, PtxasStats())
        infos.append(
            KernelInfo(name, pretty, blocks[name], s.registers, s.shared_bytes, s.spill_bytes)
        )
    return infos


_SASS_INSN = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;?\s*/\*\s*0x[0-9a-f]+\s*\*/\s*$")


def sass_instructions(sass: str) -> list[str]:
    """The instructions of a SASS listing, without addresses, encodings or the trailing padding
    (the NOPs and the branch-to-self after the last EXIT)."""
    insns = [m.group(1).rstrip(" ;") for line in sass.splitlines() if (m := _SASS_INSN.match(line))]
    while insns and (insns[-1] == "NOP" or insns[-1].startswith("BRA")) and "EXIT" in insns:
        insns.pop()
    return insns
