"""What both compiler stacks share: the artifacts each can emit, the result of a compilation,
running one compiler step, demangling, and moving artifacts into the output folder.

`cass.runner.compile` is the entry point (`compile_file`); `compile_cuda` and `compile_amd` are
the two stacks, built on this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from cass.runner import toolchain
from cass.runner.compiler_output import error_summary, parse_compiler_output
from cass.runner.diagnostics import CassError, Diagnostic, WorkError
from cass.runner.outputs import install_file
from cass.runner.tools import ToolRun, run_tool

COMPILE_TIMEOUT_S = 300


class CompileError(WorkError):
    """A compiler rejected the code; `diagnostics` locate its errors."""


# What each stack can emit, and the file suffix of each artifact.
EMITS: dict[str, dict[str, str]] = {
    "cuda": {
        "ptx": ".ptx",
        "cubin": ".cubin",
        "sass": ".sass",
        "host-asm": ".host.s",
        "exe": ".out",
    },
    "hip": {
        "rdna3": ".s",
        "code-object": ".hsaco",
        "host-asm": ".host.s",
        "host-object": ".host.o",
    },
    "rdna3": {"code-object": ".hsaco"},
}
TEXT_EMITS = frozenset({"ptx", "sass", "host-asm", "rdna3"})


@dataclass(frozen=True)
class KernelInfo:
    """One kernel of a compiled file: names, its assembly alone, and its resource use."""

    name: str  # mangled
    demangled: str
    asm: str  # SASS or RDNA3 text of this kernel only
    registers: int  # NVIDIA: registers per thread; AMD: VGPRs
    shared_bytes: int  # NVIDIA shared memory / AMD LDS (static)
    spills: int  # bytes spilled (NVIDIA stores) or spilled registers (AMD VGPR + SGPR)
    scalar_registers: int | None = None  # AMD only: SGPRs

    def to_dict(self) -> dict:
        return dict(self.__dict__)


@dataclass
class CompileResult:
    source: Path
    kind: str  # cuda | hip | rdna3
    arch: str
    out_dir: Path
    artifacts: dict[str, Path] = field(default_factory=dict)
    texts: dict[str, str] = field(default_factory=dict)
    kernels: list[KernelInfo] = field(default_factory=list)
    diagnostics: list[Diagnostic] = field(default_factory=list)  # warnings of successful steps
    force: bool = False  # replace artifacts that already exist in out_dir

    def manifest(self) -> dict:
        return {
            "source": str(self.source),
            "kind": self.kind,
            "arch": self.arch,
            "artifacts": {emit: str(path) for emit, path in self.artifacts.items()},
            "kernels": [k.to_dict() for k in self.kernels],
            "diagnostics": [d.to_dict() for d in self.diagnostics],
        }


def run_step(
    argv: Sequence[str | Path], source: Path, tool: str, *, cwd: Path | None = None
) -> ToolRun:
    """Run one compiler step with a time limit; a CompileError with diagnostics on failure."""
    run = run_tool(argv, f"{source}: {tool}", COMPILE_TIMEOUT_S, cwd=cwd)
    if not run.ok:
        output = run.stderr + run.stdout
        diags = parse_compiler_output(output, tool, str(source))
        reason = error_summary(diags, output)
        raise CompileError(f"{source}: {tool} failed: {reason}", diagnostics=tuple(diags))
    return run


def step_warnings(run: ToolRun, source: Path, tool: str) -> list[Diagnostic]:
    return parse_compiler_output(run.stderr, tool, str(source))


def demangle(names: Sequence[str]) -> list[str]:
    """C++ names demangled with llvm-cxxfilt-16 (names unchanged where it is missing)."""
    if not names or not toolchain.has_tool("llvm-cxxfilt-16"):
        return list(names)
    run = run_tool(["llvm-cxxfilt-16"], "demangling kernel names", 30, stdin="\n".join(names))
    out = run.stdout.splitlines()
    return out if run.ok and len(out) == len(names) else list(names)


def artifact_path(result: CompileResult, emit: str) -> Path:
    """Where `emit` goes: `<out_dir>/<stem>.<arch><suffix>`; never the source file itself."""
    target = result.out_dir / f"{result.source.stem}.{result.arch}{EMITS[result.kind][emit]}"
    if target.resolve() == result.source.resolve():
        raise CassError(f"{result.source}: refusing to overwrite the source with its {emit} output")
    return target


def keep(result: CompileResult, emit: str, produced: Path) -> None:
    """Move a produced artifact into the output folder and remember it (and its text)."""
    target = artifact_path(result, emit)
    install_file(produced, target, inputs=[result.source], force=result.force)
    result.artifacts[emit] = target
    if emit in TEXT_EMITS:
        result.texts[emit] = target.read_text(errors="replace")
