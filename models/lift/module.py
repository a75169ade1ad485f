"""Assemble lifted kernels into one LLVM module per target and compile it with opt-16/llc-16.

module_text(kernels, target)  -> .ll text (header, runtime, kernels, attributes)
compile_module(text, target)  -> gfx1100 assembly (.s) or PTX (optimize, then codegen)

A large gfx1100 module of several kernels is compiled in parts, one per worker (each kernel with
the internal functions it calls, so llc sees whole call trees and counts their registers), by
concurrent opt-16 | llc-16 pairs, and their assembly joined into one file (merge_assembly): the
same code, in the wall time of the largest part (Rodinia's myocyte: two kernels of 12,500 and
8,000 SASS instructions). The lifter cuts the module into parts before opt-16 (parts.py,
compile_parts); a module whose kernels share a global is optimised whole and split after opt-16
by llvm-split-16 (codegen_parts).
"""

from __future__ import annotations

import os
import re
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from cass.models.lift.parts import Part
from cass.models.lift.targets import (
    LARGE_KERNEL,
    LARGE_KERNEL_OPT_ARGS,
    OPT_FLAGS,
    RUNTIME_DIR,
    LlvmTarget,
)
from cass.runner.diagnostics import WorkError
from cass.runner.toolchain import DEFAULT_GFX_ARCH
from cass.runner.tools import run_tool

TOOL_TIMEOUT_S = 600


def module_text(kernel_texts: list[str], names: list[str], target: LlvmTarget) -> str:
    from cass.models.lift.targets import RUNTIME_DIR

    parts = [f'target datalayout = "{target.datalayout}"', f'target triple = "{target.triple}"', ""]
    parts.append((RUNTIME_DIR / "common.ll").read_text(encoding="utf-8"))
    parts.append(target.runtime())
    if target.private_as:
        parts.append(
            "declare void @llvm.memcpy.p5.p4.i64(ptr addrspace(5), ptr addrspace(4), i64, i1)"
        )
        parts.append('attributes #0 = { "amdgpu-flat-work-group-size"="1,1024" }')
    else:
        parts.append("declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)")
        parts.append("attributes #0 = { nounwind }")
        refs = ", ".join(f"!{i}" for i in range(len(names)))
        parts.append(f"!nvvm.annotations = !{{{refs}}}")
        parts += [f'!{i} = !{{ptr @"{n}", !"kernel", i32 1}}' for i, n in enumerate(names)]
    parts += kernel_texts
    text = "\n".join(parts) + "\n"
    if "@llvm.trap()" in text and "declare void @llvm.trap()" not in text:
        text += "declare void @llvm.trap() cold noreturn nounwind\n"
    return text


def _run(argv: list[str], stdin: str, what: str) -> str:
    """Run an LLVM tool named by its cass name (found by the toolchain's discovery) on `stdin`."""
    run = run_tool(argv, what, TOOL_TIMEOUT_S, stdin=stdin)
    if not run.ok:
        raise WorkError(
            f"{what} failed (a lifter defect, please report it):\n{run.stderr.strip()[:2000]}"
        )
    return run.stdout


def optimize(text: str, target: LlvmTarget) -> str:
    return _run(
        ["opt-16", *OPT_FLAGS, f"-mtriple={target.triple}", "-S", "-"],
        text,
        "optimizing the lifted IR",
    )


PRINTF_DECLS = """
declare i64 @__ockl_printf_begin(i64)
declare i64 @__ockl_printf_append_string_n(i64, ptr, i64, i32)
declare i64 @__ockl_printf_append_args(i64, i32, i64, i64, i64, i64, i64, i64, i64, i32)
"""


def link_device_libs(text: str, target: LlvmTarget) -> str:
    """printf (hostcall through ockl, as HIP's own printf): link ROCm's ockl bitcode when used."""
    if not target.private_as:
        return text + "declare i32 @vprintf(ptr, ptr)\n" if "@vprintf(" in text else text
    images = "@__ockl_image_" in text  # textures and surfaces (cass.models.lift.textures)
    if "@__ockl_printf_begin" not in text and not images:
        return text
    import tempfile

    from cass.runner.toolchain import hip_device_lib_dir

    libs = hip_device_lib_dir(DEFAULT_GFX_ARCH)
    with tempfile.TemporaryDirectory(prefix="cass-lift-") as work:
        main = Path(work) / "main.ll"
        if images:
            text += (RUNTIME_DIR / "images.ll").read_text(encoding="utf-8")
        main.write_text(text + PRINTF_DECLS, encoding="utf-8")
        argv = ["llvm-link-16", "-S", str(main), "--only-needed", str(libs / "ockl.bc"),
                str(libs / "oclc_abi_version_400.bc")]  # fmt: skip
        if images:  # the image functions read __oclc_ISA_version
            argv += ["--only-needed", str(libs / f"oclc_isa_version_{DEFAULT_GFX_ARCH[3:]}.bc")]
        linked = _run(argv, "", "linking ockl for printf and images")
        return _INLINE_IMAGE.sub(r"\1alwaysinline \2", linked)  # inlined, as in a HIP build


# an ockl image function's definition (or one of ockl's unnamed helpers), up to its attributes
_INLINE_IMAGE = re.compile(r"^(define (?:linkonce_odr [^\n]*@__ockl_image_\w+|internal fastcc [^\n]*@\d+)"
                           r"\([^\n]*\)[^\n#]*)(#\d+ \{)$", re.MULTILINE)  # fmt: skip


def compile_module(
    text: str,
    target: LlvmTarget,
    largest_kernel: int = 0,
    kernels: int = 1,
    instructions: int = 0,
    parts: list[Part] | None = None,
) -> str:
    """Lifted IR -> target assembly text (gfx1100 `.s` or PTX); `largest_kernel` (SASS
    instructions) picks llc's options (targets.LARGE_KERNEL); a module of `kernels` kernels and
    `instructions` SASS instructions in all is compiled in parts concurrently (SPLIT_MIN): the
    `parts` the lifter cut it into (parts.partition), else split after opt-16.
    For gfx1100, opt-16 hands llc-16 bitcode (a file), which it reads faster than text."""
    import tempfile

    if parts and len(parts) > 1 and target.private_as:
        return compile_parts(parts, target)
    linked = link_device_libs(text, target)
    if not target.private_as:
        return codegen(optimize(linked, target), target, largest_kernel)
    jobs = split_jobs(linked, target, kernels, instructions)
    with tempfile.TemporaryDirectory(prefix="cass-lift-") as name:
        module = optimize_to_bitcode(linked, target, Path(name) / "module.bc", largest_kernel)
        return codegen_parts(module, target, largest_kernel, jobs)


SPLIT_MIN = 2000  # SASS instructions in all: below, one llc-16 costs less than splitting


def split_jobs(linked: str, target: LlvmTarget, kernels: int, instructions: int) -> int:
    """How many llc-16 processes compile the module: one per kernel up to the CPUs this process
    may use; 1 for NVPTX, small modules, and modules linked with ockl (printf and image calls
    carry module-wide metadata)."""
    if not target.private_as or kernels < 2 or instructions < SPLIT_MIN or "@__ockl_" in linked:
        return 1
    return max(1, min(kernels, cpu_count()))


def compile_parts(parts: list[Part], target: LlvmTarget) -> str:
    """gfx1100 assembly of a module cut into `parts` (parts.partition): each part optimised and
    compiled by its own opt-16 and llc-16, with the options its largest kernel calls for, the
    parts concurrently, their assembly joined (merge_assembly)."""
    compiler = PartCompiler(target, len(parts))
    for k, part in enumerate(parts):
        compiler.submit(k, part)
    return compiler.assembly()


class PartCompiler:
    """Parts compiled concurrently as they are submitted (each by opt-16 then llc-16 in a thread
    of its own), so that the lifter can start a part while it still lifts the next kernels
    (pipeline.lift_sass), and joined in part order once all are in."""

    def __init__(self, target: LlvmTarget, parts: int) -> None:
        import tempfile

        self.target = target
        self.work = tempfile.TemporaryDirectory(prefix="cass-lift-")
        self.pool = ThreadPoolExecutor(max(parts, 1))
        self.futures: dict[int, Future[str]] = {}

    def submit(self, k: int, part: Part) -> None:
        (text,) = part_modules([part], self.target)
        bitcode = Path(self.work.name) / f"part{k}.bc"

        def one() -> str:
            optimize_to_bitcode(text, self.target, bitcode, part.largest_kernel)
            return part_assembly(bitcode, self.target, part.largest_kernel)

        self.futures[k] = self.pool.submit(one)

    def assembly(self) -> str:
        """The parts' assembly joined (a part's WorkError raised here), the work folder removed."""
        try:
            asms = [self.futures[k].result() for k in sorted(self.futures)]
        finally:
            self.close()
        return signed_smem_offsets(merge_assembly(asms))

    def close(self) -> None:
        """Wait for the parts still compiling (their results dropped), remove the work folder."""
        self.pool.shutdown(wait=True)
        self.work.cleanup()


def part_modules(parts: list[Part], target: LlvmTarget) -> list[str]:
    """Each part's module text (header, runtime, its globals and kernels)."""
    return [module_text(list(p.texts), list(p.names), target) for p in parts]


def part_assembly(bitcode: Path, target: LlvmTarget, largest_kernel: int) -> str:
    """llc-16's assembly for one optimised part (bitcode), not yet joined."""
    llc = [a for a in target.llc_argv(largest_kernel) if a not in ("-o", "-")]
    return _run([*llc, "-o", "-", str(bitcode)], "", f"llc-16 for {target.name}")


def cpu_count() -> int:
    """The CPUs this process may run on."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def optimize_to_bitcode(
    linked: str, target: LlvmTarget, out: Path, largest_kernel: int = 0
) -> Path:
    """opt-16 over the linked module (text on stdin), written as bitcode to `out`; a module
    whose largest kernel has LARGE_KERNEL SASS instructions or more gets LARGE_KERNEL_OPT_ARGS."""
    extra = LARGE_KERNEL_OPT_ARGS if largest_kernel >= LARGE_KERNEL else ()
    _run(["opt-16", *OPT_FLAGS, *extra, f"-mtriple={target.triple}", "-o", str(out), "-"],
         linked, "optimizing the lifted IR")  # fmt: skip
    return out


def codegen_parts(module: Path, target: LlvmTarget, largest_kernel: int, jobs: int = 1) -> str:
    """gfx1100 assembly of an optimised bitcode module: one llc-16, or with `jobs` > 1 the
    module split by llvm-split-16 (kernels with the internal functions and data they use stay
    together) and its parts compiled concurrently, their assembly joined (merge_assembly)."""
    from concurrent.futures import ThreadPoolExecutor

    llc = [a for a in target.llc_argv(largest_kernel) if a not in ("-o", "-")]
    if jobs < 2:
        return signed_smem_offsets(_run([*llc, "-o", "-", str(module)], "", f"llc-16 for {target.name}"))  # fmt: skip
    prefix = module.with_name(module.stem + ".part")
    _run(["llvm-split-16", f"-j={jobs}", "--preserve-locals", "-o", str(prefix), str(module)],
         "", "splitting the lifted module")  # fmt: skip
    parts = [prefix.with_name(f"{prefix.name}{k}") for k in range(jobs)]
    with ThreadPoolExecutor(jobs) as pool:
        asms = list(pool.map(lambda part: _run([*llc, "-o", "-", str(part)], "",
                                               f"llc-16 for {target.name}"), parts))  # fmt: skip
    return signed_smem_offsets(merge_assembly(asms))


_LOCAL_LABEL = re.compile(r"(?<![\w.$])\.L(?=[A-Za-z_$])")
_CODE_END = re.compile(
    r"^\t\.p2alignl \d+, 3214868480\n\t\.fill \d+, 4, 3214868480\n", re.MULTILINE
)
_DATA_TEXT = re.compile(r"^\s*\.(?:ascii|asciz|string)\b")


def merge_assembly(parts: list[str]) -> str:
    """One gfx1100 assembly file from llc-16's outputs for the parts of one module: each part's
    local labels (.LBB0_1, .Lfunc_end0: numbered from 0 in every part) renamed apart, the
    target directive kept once, the kernels of every part's metadata in one amdhsa.kernels list.
    Parts without a kernel (llvm-split may leave one empty) are dropped."""
    bodies: list[str] = []
    kernel_lists: list[str] = []
    rest: tuple[str, str] | None = None
    for k, asm in enumerate(parts):
        body, sep, meta = asm.partition("\t.amdgpu_metadata\n")
        head, kernels_sep, tail = meta.partition("amdhsa.kernels:\n")
        if not sep or not kernels_sep:
            continue  # no kernel in this part
        entries, target_sep, after = tail.partition("amdhsa.target:")
        if rest is None:
            rest = (head, target_sep + after)
        elif rest != (head, target_sep + after):
            raise WorkError("the split module's parts disagree on their code object metadata "
                            "(a lifter defect, please report it)")  # fmt: skip
        if k and bodies:
            body = body.replace('\t.amdgcn_target "', '\t; .amdgcn_target "', 1)
            body = "".join(line if _DATA_TEXT.match(line) else _LOCAL_LABEL.sub(f".Lp{k}_", line)
                           for line in body.splitlines(keepends=True))  # fmt: skip
        bodies.append(body)
        kernel_lists.append(entries)
    if rest is None:
        raise WorkError("llc-16 produced no kernel (a lifter defect, please report it)")
    # the s_code_end padding llc puts after a module's code (instruction prefetch), once, at the end
    bodies[:-1] = [_CODE_END.sub("", body) for body in bodies[:-1]]
    head, tail = rest
    meta = head + "amdhsa.kernels:\n" + "".join(kernel_lists) + tail
    return "".join(bodies) + "\t.amdgpu_metadata\n" + meta


def codegen(optimized: str, target: LlvmTarget, largest_kernel: int = 0) -> str:
    asm = _run(target.llc_argv(largest_kernel), optimized, f"llc-16 for {target.name}")
    return signed_smem_offsets(asm) if target.private_as else asm


_SMEM_OFFSET = re.compile(
    r"^(\s*s_(?:buffer_)?load_\w+\s[^\n]*?,\s*)0x([89a-f][0-9a-f]{7})$", re.MULTILINE
)


def signed_smem_offsets(asm: str) -> str:
    """llc-16 prints a negative scalar-load offset (a uniform `[R2.64+-0x8]` load) as 32-bit
    unsigned hex, which llvm-mc-16 rejects for gfx11's signed 21-bit field: print it signed."""
    return _SMEM_OFFSET.sub(lambda m: f"{m.group(1)}{int(m.group(2), 16) - (1 << 32)}", asm)
