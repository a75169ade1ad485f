"""A large gfx1100 module of several kernels, cut into one LLVM module per group of kernels
before opt-16, so that each group is optimised and compiled by its own opt-16 | llc-16 process
pair, the groups concurrently (module.compile_parts), and their assembly joined into one file
(module.merge_assembly).

Cutting the lifted text in Python costs nothing, where optimising the whole module and then
splitting its bitcode with llvm-split-16 costs a serial opt-16 over every kernel plus the split
(Rodinia's myocyte: 0.2 s of CPU for llvm-split-16 alone, and opt-16 on both kernels before either
llc-16 could start). A group is a set of kernels (each with the internal functions and constant
data its text defines: outlined subroutines, its literal pool); the module's globals (`__device__`
and `__constant__` variables, strings, texture references) go to the one group that names them,
unnamed ones to the first group. When a global or a kernel is named by two groups the module is
not cut here (None): module.codegen_parts splits it after opt-16 as before, with the globals one
part defines and the others reference.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_GLOBAL = re.compile(r'^(@"[^"]+"|@[-\w.$]+) = ')


@dataclass(frozen=True)
class Unit:
    """One kernel's lifted text (its function, outlined subroutines and own globals)."""

    name: str
    text: str
    instructions: int  # SASS instructions


@dataclass(frozen=True)
class Part:
    """One group's kernel texts and the module globals it defines."""

    names: tuple[str, ...]
    texts: tuple[str, ...]  # module globals first, then each kernel's text
    largest_kernel: int  # SASS instructions of its largest kernel (targets.LARGE_KERNEL)


def partition(globals_text: str, units: list[Unit], jobs: int) -> list[Part] | None:
    """`units` in `jobs` groups of about equal SASS instruction counts (largest first, each to the
    lightest group), or None when fewer than two groups would hold a kernel or the groups would
    share a global or name each other's kernels."""
    if jobs < 2 or len(units) < 2:
        return None
    groups: list[list[Unit]] = [[] for _ in range(min(jobs, len(units)))]
    for unit in sorted(units, key=lambda u: -u.instructions):
        min(groups, key=lambda g: sum(u.instructions for u in g)).append(unit)
    for k, group in enumerate(groups):
        others = [u for j, g in enumerate(groups) if j != k for u in g]
        if any(unit.name in other.text for unit in group for other in others):
            return None  # a kernel calls or reads another group's kernel
    owned: list[list[str]] = [[] for _ in groups]
    for line in globals_text.splitlines():
        if not line.strip():
            continue
        m = _GLOBAL.match(line)
        if m is None:
            return None  # not one global per line: leave the module whole
        users = [k for k, g in enumerate(groups) if any(_names(u.text, m.group(1)) for u in g)]
        if len(users) > 1:
            return None
        owned[users[0] if users else 0].append(line)
    return [
        Part(tuple(u.name for u in g), ("\n".join(globals_) + "\n", *(u.text for u in g)),
             max(u.instructions for u in g))
        for g, globals_ in zip(groups, owned, strict=True)
    ]  # fmt: skip


def _names(text: str, symbol: str) -> bool:
    """Whether `text` names `symbol` (`@"x"`, or `@x` not followed by more of a name)."""
    if symbol.endswith('"'):
        return symbol in text
    return re.search(re.escape(symbol) + r"(?![-\w.$])", text) is not None
