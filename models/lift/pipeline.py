"""SASS text in, target assembly out: parse, lift every kernel, assemble the module, compile."""

from __future__ import annotations

from dataclasses import dataclass

from cass.models.lift.aliases import hip_aliases
from cass.models.lift.constants import module_globals
from cass.models.lift.elfinfo import CubinInfo
from cass.models.lift.emit import LiftError
from cass.models.lift.lifter import LiftedKernel, lift_function
from cass.models.lift.module import compile_module, module_text
from cass.models.lift.parse import check_arch, parse_listing
from cass.models.lift.targets import TARGETS
from cass.models.lift.textures import handle_params
from cass.runner.diagnostics import CassError, Diagnostic, Severity
from cass.runner.toolchain import DEFAULT_GFX_ARCH


@dataclass(frozen=True)
class LiftResult:
    assembly: str
    llvm_ir: str
    diagnostics: tuple[Diagnostic, ...]
    kernels: tuple[LiftedKernel, ...]
    arch: str | None

    @property
    def ok(self) -> bool:
        return not any(d.severity is Severity.ERROR for d in self.diagnostics)


def lift_sass(text: str, *, path: str = "<input>", arch: str | None = None, target: str = DEFAULT_GFX_ARCH,
              compile: bool = True, cubin: CubinInfo | None = None) -> LiftResult:  # fmt: skip
    """Lift every kernel of a SASS listing; `cubin` (from `read_cubin`) gives exact parameter
    layouts, shared sizes and constant-bank contents."""
    llvm_target = TARGETS.get(target)
    if llvm_target is None:
        raise CassError(f"unknown lift target '{target}' (known: {', '.join(sorted(TARGETS))})")
    listing = parse_listing(text, path)
    if not listing.functions:
        raise CassError(
            f"{path}: no SASS instructions found (expected cuobjdump -sass or nvdisasm output)"
        )
    arch = arch or listing.arch
    check_arch(arch, path)
    kernels = tuple(lift_function(fn, arch, llvm_target, cubin) for fn in listing.functions)
    diagnostics = tuple(d for k in kernels for d in kernel_diagnostics(k, path))
    handles = {
        k.name: handle_params(fn, k.layout)
        for fn, k in zip(listing.functions, kernels, strict=True)
    }
    aliases = hip_aliases([k.name for k in kernels], handles) if llvm_target.private_as else {}
    texts = [module_globals(cubin), *(k.text for k in kernels)]
    texts += [k.text.replace(k.name, aliases[k.name]) for k in kernels if k.name in aliases]
    ir = llvm_target.fences(module_text(texts, [k.name for k in kernels], llvm_target))
    ok = not any(d.severity is Severity.ERROR for d in diagnostics)
    sizes = [k.instructions for k in kernels]
    assembly = (
        compile_module(ir, llvm_target, max(sizes, default=0), len(sizes), sum(sizes))
        if ok and compile
        else ""
    )
    return LiftResult(assembly, ir, diagnostics, kernels, arch)


def kernel_diagnostics(k: LiftedKernel, path: str) -> list[Diagnostic]:
    out = [error_diagnostic(err, path, k.name) for err in k.errors]
    first_line = k.errors[0].ins.line if k.errors and k.errors[0].ins else 0
    for note in k.layout.guesses:
        out.append(
            Diagnostic(
                path,
                max(first_line, 1),
                1,
                Severity.WARNING,
                "lift-param-guess",
                f"{k.name}: {note}",
            )
        )
    return out


def error_diagnostic(err: LiftError, path: str, kernel: str) -> Diagnostic:
    ins = err.ins
    line = ins.line if ins is not None and ins.line else 1
    where = f" at /*{ins.address:04x}*/ '{ins.text}'" if ins is not None else ""
    return Diagnostic(
        path, line, 1, Severity.ERROR, "lift-unsupported", f"{kernel}{where}: {err.message}"
    )
