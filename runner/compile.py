"""`cass compile` as a library: one source file through the NVIDIA or the AMD compiler stack.

    compile_file("vector_add.cu", ["sass"], arch="sm_80")     -> CompileResult
    compile_file("vector_add.hip", ["rdna3", "code-object"])  -> CompileResult
    compile_file("kernel.s", ["code-object"])                 -> CompileResult

The file's suffix picks the stack (`.cu` CUDA, `.hip` HIP, `.s` RDNA3 assembly). Every requested
artifact is written to `out_dir` (a fresh temporary folder when not given); text artifacts are
also returned in memory. Compiler errors raise `CompileError` (a `WorkError`) carrying located
diagnostics; bad input (missing, empty, binary, non-UTF-8 file, unknown arch or emit) raises a
`CassError` naming the file and the problem.

The pieces both stacks share (artifacts, results, running a step) are `compile_steps`.
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from cass.runner import compile_amd, compile_cuda, toolchain
from cass.runner.compile_steps import EMITS, CompileResult, KernelInfo, artifact_path
from cass.runner.diagnostics import CassError
from cass.runner.inputs import read_input
from cass.runner.outputs import check_output
from cass.runner.toolchain import DEFAULT_GFX_ARCH

# Which stack a suffix selects.
SOURCE_KINDS = {".cu": "cuda", ".hip": "hip", ".s": "rdna3"}
DEFAULT_EMIT = {"cuda": "sass", "hip": "rdna3", "rdna3": "code-object"}
# nvcc 13 targets sm_75 and newer.
CUDA_ARCHS = ("sm_75", "sm_80", "sm_86", "sm_87", "sm_89", "sm_90", "sm_100", "sm_120")


# ---------------------------------------------------------------- input checks


def source_kind(path: Path) -> str:
    kind = SOURCE_KINDS.get(path.suffix)
    if kind is None:
        known = ", ".join(SOURCE_KINDS)
        raise CassError(
            f"{path}: cannot tell which compiler to use (expected a file ending in {known})"
        )
    return kind


def read_source(path: Path) -> str:
    """The file's text, or a CassError naming the file and what is wrong with it."""
    data = read_input(path, directory_hint=", not a source file")
    if not data.strip():
        raise CassError(f"{path}: the file is empty; nothing to compile")
    if b"\0" in data[:8192]:
        raise CassError(f"{path}: looks like a binary file, not source text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise CassError(
            f"{path}:{line}: the file is not UTF-8 text (byte 0x{data[exc.start]:02x}); "
            "re-save it as UTF-8"
        ) from None


def resolve_arch(kind: str, arch: str | None) -> str:
    if kind == "cuda":
        if arch is None:  # the local GPU's arch where nvcc 13 can target it, else sm_80
            local = toolchain.default_cuda_arch()
            arch = local if local in CUDA_ARCHS else "sm_80"
        if arch not in CUDA_ARCHS:
            raise CassError(f"unknown CUDA arch '{arch}': use one of {', '.join(CUDA_ARCHS)}")
        return arch
    arch = arch or DEFAULT_GFX_ARCH
    toolchain.check_gfx_arch(arch)
    return arch


def check_emits(kind: str, emits: Sequence[str], path: Path) -> list[str]:
    emits = list(dict.fromkeys(emits)) or [DEFAULT_EMIT[kind]]
    allowed = EMITS[kind]
    for emit in emits:
        if emit not in allowed:
            raise CassError(
                f"{path}: cannot emit '{emit}' from a {kind} file "
                f"(choose from {', '.join(allowed)})"
            )
    return emits


# ---------------------------------------------------------------- the entry point


def compile_file(
    path: str | Path,
    emits: Sequence[str] = (),
    *,
    arch: str | None = None,
    out_dir: str | Path | None = None,
    kernels: bool = False,
    extra_flags: Sequence[str] = (),
    force: bool = False,
) -> CompileResult:
    """Compile one file; see the module docstring. `kernels=True` fills the per-kernel manifest;
    an artifact that already exists in `out_dir` is replaced only with `force`."""
    source = Path(path)
    read_source(source)
    kind = source_kind(source)
    arch = resolve_arch(kind, arch)
    wanted = check_emits(kind, emits, source)
    out = Path(out_dir) if out_dir is not None else Path(tempfile.mkdtemp(prefix="cass-out-"))
    prepare_out_dir(out)
    result = CompileResult(source, kind, arch, out, force=force)
    for emit in wanted:  # refuse before building anything
        check_output(artifact_path(result, emit), inputs=[source], force=force)
    stack = {
        "cuda": compile_cuda.build,
        "hip": compile_amd.build_hip,
        "rdna3": compile_amd.build_asm,
    }
    with tempfile.TemporaryDirectory(prefix="cass-") as work:
        stack[kind](result, wanted, Path(work), kernels=kernels, extra_flags=list(extra_flags))
    return result


def prepare_out_dir(out: Path) -> None:
    if out.exists() and not out.is_dir():
        raise CassError(f"{out}: the output folder is a file; pass a folder with -o/--output-dir")
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CassError(f"{out}: cannot create the output folder ({exc.strerror})") from None


# ---------------------------------------------------------------- both stacks side by side


@dataclass(frozen=True)
class KernelPair:
    """One kernel compiled by both stacks: its SASS and RDNA3 instructions, and both manifests."""

    name: str  # demangled
    sass: list[str]
    rdna3: list[str]
    cuda: KernelInfo
    hip: KernelInfo
    cuda_arch: str
    hip_arch: str


def side_by_side(
    cuda_source: str | Path,
    hip_source: str | Path,
    *,
    arch: str | None = None,
    offload_arch: str | None = None,
) -> list[KernelPair]:
    """Compile a CUDA file and its HIP port; pair kernels by demangled name (else by order)."""
    cuda = compile_file(cuda_source, ["sass"], arch=arch, kernels=True)
    hip = compile_file(hip_source, ["rdna3"], arch=offload_arch, kernels=True)
    for result in (cuda, hip):
        shutil.rmtree(result.out_dir, ignore_errors=True)
    by_name = {k.demangled: k for k in hip.kernels}
    pairs = []
    for i, k in enumerate(cuda.kernels):
        other = by_name.get(k.demangled) or (hip.kernels[i] if i < len(hip.kernels) else None)
        if other is not None:
            sass = compile_cuda.sass_instructions(k.asm)
            rdna3 = compile_amd.rdna3_instructions(other.asm)
            pairs.append(KernelPair(k.demangled, sass, rdna3, k, other, cuda.arch, hip.arch))
    return pairs
