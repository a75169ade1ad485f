"""Calls and attributes whose HIP form differs in more than the name."""

from __future__ import annotations

import re

from cass.models.rules.tables import parse_version
from cass.models.rules.unit import Unit

SYMBOL = ("HIP_SYMBOL(", ")")
VOID_PP = ("(void**)(", ")")  # CUDA has T** templates for these, HIP only void**
KERNEL = ("reinterpret_cast<const void*>(", ")")  # HIP takes const void*, CUDA a template
# function -> [(argument index, prefix, suffix)]
ARGUMENT_WRAPS: dict[str, list[tuple[int, str, str]]] = {
    "cudaMemcpyToSymbol": [(0, *SYMBOL)],
    "cudaMemcpyToSymbolAsync": [(0, *SYMBOL)],
    "cudaMemcpyFromSymbol": [(1, *SYMBOL)],
    "cudaMemcpyFromSymbolAsync": [(1, *SYMBOL)],
    "cudaGetSymbolAddress": [(0, *VOID_PP), (1, *SYMBOL)],
    "cudaGetSymbolSize": [(1, *SYMBOL)],
    "cudaMallocPitch": [(0, *VOID_PP)],
    "cudaHostGetDevicePointer": [(0, *VOID_PP)],
    "cudaMallocAsync": [(0, *VOID_PP)],
    "cudaMallocFromPoolAsync": [(0, *VOID_PP)],
    "cudaFuncSetAttribute": [(0, *KERNEL)],
    "cudaFuncSetCacheConfig": [(0, *KERNEL)],
    "cudaFuncSetSharedMemConfig": [(0, *KERNEL)],
    "cudaFuncGetAttributes": [(1, *KERNEL)],
    "cudaLaunchKernel": [(0, *KERNEL)],
}
_ALREADY_CAST = ("HIP_SYMBOL", "(void", "reinterpret_cast", "static_cast", "(const void")
MODULE_LOADS = frozenset(("cuModuleLoad", "cudaModuleLoad", "hipModuleLoad", "cuModuleLoadDataEx"))
_NVIDIA_BINARY = re.compile(r"\.(ptx|cubin|fatbin)\"$")


def _calls(unit: Unit, names: frozenset[str] | dict):
    """Yield (index, args, close) for each call `name(...)` of a name in `names`."""
    for i in unit.positions(names):
        if unit.code[i].kind == "ident" and unit.next_text(i) == "(":
            parsed = unit.call_args(i + 1)
            if parsed is not None:
                yield i, parsed[0], parsed[1]


def rewrite_graph_instantiate(unit: Unit) -> None:
    """CUDA 12's `cudaGraphInstantiate(&exec, graph, flags)` is HIP's `...WithFlags`."""
    for i, args, _ in _calls(unit, frozenset(("cudaGraphInstantiate",))):
        if len(args) == 3:
            tok = unit.code[i]
            unit.replace(tok.start, tok.end, "hipGraphInstantiateWithFlags")
            unit.report(
                "CASS060",
                tok.start,
                tok.end,
                "3-argument (CUDA 12) cudaGraphInstantiate -> "
                "hipGraphInstantiateWithFlags (HIP's hipGraphInstantiate has the 5-argument form)",
            )


def rewrite_malloc_host(unit: Unit) -> None:
    """`cudaMallocHost(p, size)` -> `hipHostMalloc(p, size, hipHostMallocDefault)`."""
    for i, args, close in _calls(unit, frozenset(("cudaMallocHost",))):
        if len(args) == 2:
            unit.insert(unit.code[close].start, ", hipHostMallocDefault")
            tok = unit.code[i]
            unit.report(
                "CASS060",
                tok.start,
                tok.end,
                "cudaMallocHost -> hipHostMalloc with flags hipHostMallocDefault",
            )


def wrap_arguments(unit: Unit) -> None:
    """Symbol arguments in HIP_SYMBOL(...), T** in (void**)(...), kernels as const void*."""
    for i, args, _ in _calls(unit, ARGUMENT_WRAPS):
        name = unit.code[i].text
        for position, prefix, suffix in ARGUMENT_WRAPS[name]:
            if position >= len(args) or args[position][0] > args[position][1]:
                continue
            first, last = unit.code[args[position][0]], unit.code[args[position][1]]
            if prefix == SYMBOL[0] and first.kind == "string" and first.end == last.end:
                unit.report("CASS012", first.start, last.end,
                            f"{name} names the symbol by a string: CUDA 5.0 removed that form "
                            "and HIP has none (the call fails with an invalid-symbol error in "
                            "both): pass the variable itself")  # fmt: skip
            if unit.arg_text(args[position]).replace(" ", "").startswith(_ALREADY_CAST):
                continue
            if unit.is_edited(first) or not unit.insert(first.start, prefix):
                continue
            unit.insert(last.end, suffix)
            unit.report(
                "CASS060",
                first.start,
                last.end,
                f"argument {position + 1} of {name} wrapped in "
                f"`{prefix}...{suffix}` for HIP's signature",
            )


# SIMDs (HIP's "execution units") behind one CUDA multiprocessor: a CDNA CU and an RDNA WGP
# (the unit HIP reports as a multiprocessor in the default WGP mode) each have 4.
EUS_PER_MULTIPROCESSOR = 4
# Most waves one SIMD holds: 16 on RDNA (gfx10/11), 8 on CDNA (gfx9).
MAX_WAVES_PER_EU = {32: 16, 64: 8}


def waves_per_eu(max_threads: int, min_blocks: int, wave_size: int) -> int:
    """CUDA's `min_blocks` resident blocks of `max_threads` per SM as HIP's minimum waves per EU:
    the waves those blocks need, shared by the multiprocessor's SIMDs, rounded up."""
    waves = min_blocks * -(-max_threads // wave_size)
    return max(1, min(MAX_WAVES_PER_EU[wave_size], -(-waves // EUS_PER_MULTIPROCESSOR)))


def _waves_per_eu_text(max_threads: str, min_blocks: str, wave_size: int) -> str:
    """The same as a constant expression, for bounds spelled with macros or template arguments."""
    if max_threads.isdigit() and min_blocks.isdigit():
        return str(waves_per_eu(int(max_threads), int(min_blocks), wave_size))
    waves = f"({min_blocks}) * ((({max_threads}) + {wave_size - 1}) / {wave_size})"
    return f"(({waves}) + {EUS_PER_MULTIPROCESSOR - 1}) / {EUS_PER_MULTIPROCESSOR}"


def rewrite_launch_bounds(unit: Unit) -> None:
    """`__launch_bounds__(T, minBlocksPerSM[, cluster])` ->
    `__launch_bounds__(T) __attribute__((amdgpu_waves_per_eu(minWavesPerEU)))`.

    HIP would pass a second argument straight to `amdgpu_waves_per_eu`, so it is converted and
    spelled as that attribute (porting the output again leaves it alone); a third (cluster)
    argument has no HIP counterpart and does not compile with HIP 5.2's macro: it is dropped."""
    wave = unit.target.wave_size
    for _, args, close in _calls(unit, frozenset(("__launch_bounds__",))):
        if len(args) < 2:
            continue
        max_threads, min_blocks = unit.arg_text(args[0]), unit.arg_text(args[1])
        tail_start, tail_end = unit.code[args[0][1]].end, unit.code[close].end
        converted = "" if min_blocks == "0" else _waves_per_eu_text(max_threads, min_blocks, wave)
        attribute = f" __attribute__((amdgpu_waves_per_eu({converted})))" if converted else ""
        if not unit.replace(tail_start, tail_end, ")" + attribute):
            continue
        if len(args) > 2:
            cluster = unit.text[unit.code[args[1][1]].end : unit.code[close].start]
            unit.report(
                "CASS066",
                unit.code[args[2][0]].start,
                unit.code[args[-1][1]].end,
                f"`__launch_bounds__` cluster argument `{cluster.lstrip(', ').strip()}` dropped: "
                "HIP has no thread-block clusters",
            )
        if converted:
            first, last = unit.code[args[1][0]], unit.code[args[1][1]]
            unit.report(
                "CASS061",
                first.start,
                last.end,
                f"`__launch_bounds__` minimum {min_blocks} blocks of {max_threads} threads per SM -> "
                f"amdgpu_waves_per_eu({converted}), HIP's meaning of that argument: the blocks' "
                f"wave{wave} waves spread over the {EUS_PER_MULTIPROCESSOR} SIMDs of a "
                f"{'WGP' if wave == 32 else 'CU'}",
            )


def report_capability_checks(unit: Unit) -> None:
    """`prop.major >= 7`, `cudaDevAttrComputeCapabilityMajor`: compute capability means nothing on AMD."""
    if "cudaDeviceProp" not in unit.text and "ComputeCapability" not in unit.text:
        return
    code = unit.code
    attrs = [name for name in unit.index if name.startswith("cudaDevAttrComputeCapability")]
    for i in unit.positions(("major", "minor", *attrs)):
        tok = code[i]
        capability_attr = tok.text.startswith("cudaDevAttrComputeCapability")
        member = tok.text in ("major", "minor") and unit.prev_text(i) in (".", "->")
        compared = unit.next_text(i) in (">=", ">", "<", "<=", "==", "!=") or unit.prev_text(
            i, 2
        ) in (">=", ">", "<", "<=", "==", "!=")
        if capability_attr or (member and compared):
            unit.report(
                "CASS062",
                tok.start,
                tok.end,
                f"`{tok.text}`: AMD devices report gfx-derived major/minor numbers, not CUDA compute "
                "capability; test the feature itself (e.g. hipDeviceAttribute*) instead",
            )


def report_binary_module_loads(unit: Unit) -> None:
    for i, args, _ in _calls(unit, MODULE_LOADS):
        for first, last in args:
            tok = unit.code[last]
            if first == last and tok.kind == "string" and _NVIDIA_BINARY.search(tok.text):
                unit.report(
                    "CASS063",
                    tok.start,
                    tok.end,
                    f"{unit.code[i].text} loads {tok.text}: AMD GPUs "
                    "cannot load PTX/cubin; build a HIP code object (.hsaco) and load that",
                )


def rewrite_pointer_attributes(unit: Unit) -> None:
    """HIP 5.x: `cudaPointerAttributes a; a.type` -> `hipPointerAttribute_t a; a.memoryType`."""
    if parse_version(unit.target.hip_version) >= (6, 0):
        return
    code, names = unit.code, set()
    for i in unit.positions(("cudaPointerAttributes",)):
        tok = code[i]
        names.update(_declared_names(unit, i))
        if unit.replace(tok.start, tok.end, "hipPointerAttribute_t"):
            unit.report(
                "CASS060",
                tok.start,
                tok.end,
                "cudaPointerAttributes -> hipPointerAttribute_t "
                f"(HIP {unit.target.hip_version} names the memory-type member `memoryType`)",
            )
    for j in unit.positions(names):
        while unit.next_text(j) == "[":  # an element of an array of attributes
            j = unit.matching(j + 1) or len(code)
        if unit.next_text(j) in (".", "->") and unit.next_text(j, 2) == "type":
            member = code[j + 2]
            unit.replace(member.start, member.end, "memoryType")


_QUALIFIERS = frozenset(("const", "volatile", "__restrict__", "restrict"))


def _declared_names(unit: Unit, type_index: int) -> set[str]:
    """The variables a declaration starting with the type at `type_index` declares:
    `T a, *b = x, c[2];` -> {a, b, c}; a parameter `T a` -> {a}."""
    code, names, expect = unit.code, set(), True
    j = type_index + 1
    while j < len(code) and code[j].text not in (";", ")", "}", ">"):
        tok = code[j]
        if tok.text == "{" and code[j - 1].text != "=":
            break  # a function body
        if tok.text in ("(", "[", "{"):
            j = unit.matching(j) or j
        elif tok.text == ",":
            expect = True
        elif tok.text == "=":
            expect = False
        elif tok.kind == "ident" and expect and tok.text not in _QUALIFIERS:
            names.add(tok.text)
            expect = False
        j += 1
    return names
