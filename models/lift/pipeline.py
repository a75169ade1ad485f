"""SASS text in, target assembly out: parse, lift every kernel, assemble the module, compile."""

from __future__ import annotations

from dataclasses import dataclass

from cass.models.lift.aliases import hip_alias_names
from cass.models.lift.constants import module_globals
from cass.models.lift.elfinfo import CubinInfo
from cass.models.lift.emit import LiftError
from cass.models.lift.lifter import LiftedKernel, lift_function
from cass.models.lift.module import PartCompiler, compile_module, module_text, split_jobs
from cass.models.lift.parse import check_arch, parse_listing
from cass.models.lift.parts import Part, Unit, partition
from cass.models.lift.targets import TARGETS, LlvmTarget
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
    parts: tuple[Part, ...] = ()  # the module cut for concurrent compilation (parts.partition)

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
    globals_text = module_globals(cubin)
    early = EarlyParts.plan(listing.functions, llvm_target, globals_text) if compile else None
    kernels = lift_kernels(listing.functions, arch, llvm_target, cubin, early)
    diagnostics = tuple(d for k in kernels for d in kernel_diagnostics(k, path))
    handles = {
        k.name: handle_params(fn, k.layout)
        for fn, k in zip(listing.functions, kernels, strict=True)
    }
    aliases = hip_alias_names([k.name for k in kernels], handles) if llvm_target.private_as else {}
    units = [Unit(k.name, k.text, k.instructions) for k in kernels]
    units += [Unit(hip, k.text.replace(k.name, hip), k.instructions)
              for k in kernels for hip in aliases.get(k.name, ())]  # fmt: skip
    texts = [globals_text, *(u.text for u in units)]
    ir = llvm_target.fences(module_text(texts, [k.name for k in kernels], llvm_target))
    ok = not any(d.severity is Severity.ERROR for d in diagnostics)
    sizes = [k.instructions for k in kernels]
    jobs = split_jobs(ir, llvm_target, len(units), sum(u.instructions for u in units))
    parts = tuple(partition(globals_text, units, jobs) or ())
    if early is not None and ok and early.matches(parts):
        assembly = early.compiler.assembly()  # every part started while the lift went on
    else:
        if early is not None:
            early.compiler.close()
        assembly = (
            compile_module(
                ir, llvm_target, max(sizes, default=0), len(sizes), sum(sizes), list(parts)
            )
            if ok and compile
            else ""
        )
    return LiftResult(assembly, ir, diagnostics, kernels, arch, parts)


class EarlyParts:
    """The parts of a module that parts.partition will cut, planned from the listing's kernel
    sizes before any kernel is lifted: each part starts compiling (module.PartCompiler) as soon as
    its last kernel is lifted, while the lifter goes on with the next, so that Python's lift and
    the tools overlap (Rodinia's myocyte: the larger kernel's opt-16 and llc-16 start when it is
    lifted, not after the smaller one). Used only when the final cut is the planned one (no
    global to place, no HIP alias, the same groups); otherwise the early parts are dropped and
    the module compiled as lift_sass would without them."""

    def __init__(self, groups: list[Part], target: LlvmTarget) -> None:
        self.groups = groups
        self.pending = [set(g.names) for g in groups]
        self.texts: dict[str, str] = {}
        self.compiler = PartCompiler(target, len(groups))
        self.failed = False

    @classmethod
    def plan(cls, functions: list, target: LlvmTarget, globals_text: str) -> EarlyParts | None:
        sizes = [fn.count() for fn in functions]  # counted, not read yet
        jobs = split_jobs("", target, len(sizes), sum(sizes))
        if globals_text.strip() or jobs < 2:
            return None
        units = [Unit(fn.name, "", n) for fn, n in zip(functions, sizes, strict=True)]
        groups = partition("", units, jobs)
        return cls(groups, target) if groups else None

    def lifted(self, kernel: LiftedKernel) -> None:
        """Note one lifted kernel; start its part if it was the part's last."""
        self.failed |= bool(kernel.errors) or "@__ockl_" in kernel.text
        self.texts[kernel.name] = kernel.text
        for k, group in enumerate(self.groups):
            if kernel.name in self.pending[k]:
                self.pending[k].discard(kernel.name)
                if not self.pending[k] and not self.failed:
                    texts = tuple(self.texts[n] for n in group.names)
                    self.compiler.submit(k, Part(group.names, ("\n", *texts), group.largest_kernel))

    def matches(self, parts: tuple[Part, ...]) -> bool:
        """Whether the early parts are `parts`, all of them started."""
        return (
            not self.failed
            and len(self.compiler.futures) == len(self.groups)
            and [p.names for p in parts] == [g.names for g in self.groups]
            and all(p.texts[1:] == tuple(self.texts[n] for n in p.names) for p in parts)
        )


def lift_kernels(functions: list, arch: str | None, target: LlvmTarget, cubin: CubinInfo | None,
                 early: EarlyParts | None) -> tuple[LiftedKernel, ...]:  # fmt: skip
    """Every function lifted (in listing order, or with `early` the largest first, each handed to
    it as it is done: the longest opt-16 | llc-16 starts first), returned in listing order."""
    order = list(range(len(functions)))
    if early is not None:
        order.sort(key=lambda k: -functions[k].count())
    kernels: dict[int, LiftedKernel] = {}
    try:
        for k in order:
            kernels[k] = lift_function(functions[k], arch, target, cubin)
            if early is not None:
                early.lifted(kernels[k])
    except BaseException:
        if early is not None:
            early.compiler.close()
        raise
    return tuple(kernels[k] for k in range(len(functions)))


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
