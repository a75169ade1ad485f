"""The AMD stack: HIP `.hip` -> RDNA3 assembly, code object, host assembly, host object; and
RDNA3 assembly `.s` -> code object (llvm-mc + ld.lld).

Host and device are compiled apart (`--cuda-host-only` / `--cuda-device-only`), so host assembly
never contains device code. The per-kernel manifest reads the code object's metadata note
(`llvm-readelf --notes`): register counts, LDS bytes, spills.
"""

from __future__ import annotations

import re
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
# emit -> (clang mode flags, file suffix in the work folder)
HIP_MODES = {
    "rdna3": (["--cuda-device-only", "-S"], ".s"),
    "code-object": (["--cuda-device-only", "--no-gpu-bundle-output", "-c"], ".hsaco"),
    "host-asm": (["--cuda-host-only", "-S"], ".host.s"),
    "host-object": (["-c"], ".host.o"),
}


def _clang(result: CompileResult, emit: str, work: Path, extra: list[str]) -> Path:
    mode, suffix = HIP_MODES[emit]
    output = work / f"{result.source.stem}{suffix}"
    argv = [*toolchain.hip_clang_command(result.arch), OPT, *extra, *mode, "-o", str(output)]
    proc = run_step([*argv, str(result.source)], result.source, "clang")
    result.diagnostics += [
        d for d in step_warnings(proc, result.source, "clang") if d not in result.diagnostics
    ]
    return output


def build_hip(
    result: CompileResult, wanted: list[str], work: Path, *, kernels: bool, extra_flags: list[str]
) -> None:
    """Produce every emit in `wanted` from a HIP source (and the kernel manifest when asked)."""
    produced = {
        emit: _clang(result, emit, work, extra_flags) for emit in HIP_MODES if emit in wanted
    }
    if kernels:
        if "rdna3" not in produced:
            produced["rdna3"] = _clang(result, "rdna3", work, extra_flags)
        # The metadata note comes from assembling clang's own output: much cheaper than recompiling.
        code_object = produced.get("code-object") or _assemble(
            result, produced["rdna3"], work / "manifest"
        )
        asm = produced["rdna3"].read_text(errors="replace")
        result.kernels = kernel_manifest(code_object, asm, result.source)
    for emit in wanted:
        keep(result, emit, produced[emit])


def _assemble(result: CompileResult, asm: Path, work: Path, extra_flags: list[str] = []) -> Path:  # noqa: B006
    """llvm-mc + ld.lld: RDNA3 assembly -> code object. llvm-mc's errors name `file:line:col`."""
    work.mkdir(exist_ok=True)
    obj, hsaco = work / f"{asm.stem}.o", work / f"{asm.stem}.hsaco"
    mc = [
        str(toolchain.require_tool("llvm-mc-16")),
        "-triple=amdgcn-amd-amdhsa",
        f"-mcpu={result.arch}",
    ]
    proc = run_step(
        [*mc, *extra_flags, "-filetype=obj", "-o", str(obj), str(asm)], result.source, "llvm-mc"
    )
    result.diagnostics += step_warnings(proc, result.source, "llvm-mc")
    lld = str(toolchain.require_tool("ld.lld-16"))
    run_step([lld, "-shared", "-o", str(hsaco), str(obj)], result.source, "ld.lld")
    return hsaco


def build_asm(
    result: CompileResult, wanted: list[str], work: Path, *, kernels: bool, extra_flags: list[str]
) -> None:
    """RDNA3 assembly -> code object."""
    hsaco = _assemble(result, result.source, work, extra_flags)
    if kernels:
        result.kernels = kernel_manifest(
            hsaco, result.source.read_text(errors="replace"), result.source
        )
    keep(result, "code-object", hsaco)


# ---------------------------------------------------------------- kernel manifest


def parse_kernel_notes(readelf_notes: str) -> list[dict[str, str]]:
    """The `amdhsa.kernels` entries of `llvm-readelf --notes`: each kernel's top-level keys."""
    kernels: list[dict[str, str]] = []
    inside = False
    for line in readelf_notes.splitlines():
        if line.startswith("amdhsa.kernels:"):
            inside = True
            continue
        if inside and line and not line.startswith(" "):
            inside = False
        if not inside:
            continue
        if m := re.match(r"^  - (\.\w+):\s*(.*)$", line):
            kernels.append({})
        elif not (m := re.match(r"^    (\.\w+):\s*(.*)$", line)):
            continue
        kernels[-1][m.group(1)] = m.group(2).strip()
    return kernels


def kernel_asm(asm: str, name: str) -> str:
    """The lines of one kernel: from `.globl NAME` (or `NAME:`) to its descriptor's end."""
    lines = asm.splitlines()
    q = re.escape(name)
    starts = [i for i, text in enumerate(lines) if re.match(rf"^\s*\.globl\s+{q}\s*$|^{q}:", text)]
    if not starts:
        return ""
    ends = [i for i, text in enumerate(lines) if re.match(rf"^\s*\.size\s+{q},", text)]
    descriptor = [
        i for i, text in enumerate(lines) if re.match(rf"^\s*\.amdhsa_kernel\s+{q}\s*$", text)
    ]
    if descriptor:
        closing = [i for i in range(descriptor[0], len(lines)) if ".end_amdhsa_kernel" in lines[i]]
        ends += closing[:1]
    end = max(ends) if ends else len(lines) - 1
    return "\n".join(lines[starts[0] : end + 1]) + "\n"


def _int(entry: dict[str, str], key: str) -> int:
    value = entry.get(key, "0")
    return int(value) if value.isdigit() else 0


def kernel_manifest(code_object: Path, asm: str, source: Path) -> list[KernelInfo]:
    readelf = str(toolchain.require_tool("llvm-readelf-16"))
    notes = run_step([readelf, "--notes", str(code_object)], source, "llvm-readelf").stdout
    entries = parse_kernel_notes(notes)
    names = [e.get(".name", "") for e in entries]
    infos = []
    for entry, name, pretty in zip(entries, names, demangle(names), strict=True):
        infos.append(
            KernelInfo(
                name=name,
                demangled=pretty,
                asm=kernel_asm(asm, name),
                registers=_int(entry, ".vgpr_count"),
                shared_bytes=_int(entry, ".group_segment_fixed_size"),
                spills=_int(entry, ".vgpr_spill_count") + _int(entry, ".sgpr_spill_count"),
                scalar_registers=_int(entry, ".sgpr_count"),
            )
        )
    return infos


def rdna3_instructions(kernel_text: str) -> list[str]:
    """The instructions and branch labels of one kernel's assembly, without directives/comments."""
    insns = []
    for line in kernel_text.splitlines():
        code = line.split(";", 1)[0].rstrip()
        if re.match(r"^\.L\w+:$", code) or re.match(r"^\s+[a-z_][\w.]*", code):
            insns.append(code.strip() if code.endswith(":") else code.strip())
        if code.strip() == "s_endpgm":
            break
    return insns
