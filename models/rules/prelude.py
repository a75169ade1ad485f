"""The last pass: make sure the port includes HIP, with any needed macros before it and helpers after.

nvcc includes `cuda_runtime.h` implicitly; HIP-Clang does not, so a file that uses CUDA
constructs without including a CUDA header gets `#include <hip/hip_runtime.h>` (after a leading
`#pragma once`). An include of it inside an `extern "C" {` block (nvcc's implicit include came
before the block; hip_runtime.h pulls in C++ templates) gets one before the block, at the top.
HIP 5.2 headers that do not compile unless `hip/hip_runtime.h` came first
(`NEEDS_RUNTIME_FIRST`) get it included right before them. Re-running on a port finds the include
and the helpers and adds nothing.
"""

from __future__ import annotations

import re

from cass.models.rules.shims import MARKER, render_shims
from cass.models.rules.tables import header_table
from cass.models.rules.unit import Unit

HIP_RUNTIME = "hip/hip_runtime.h"
CUDA_MARKERS = frozenset(
    (
        "__global__",
        "__device__",
        "__shared__",
        "__constant__",
        "__managed__",
        "threadIdx",
        "blockIdx",
        "blockDim",
        "gridDim",
        "<<<",
        "warpSize",
        "__syncthreads",
    )
)
# HIP 5.2 headers that fail to compile alone with clang-16 -x hip --offload-arch=gfx1100 and
# compile after hip/hip_runtime.h (found by compiling every /usr/include/hip*/ header alone;
# tests/rules/test_include_order.py compiles each both ways).
NEEDS_RUNTIME_FIRST = frozenset(
    (
        "hip/hip_cooperative_groups.h",
        "hip/channel_descriptor.h",
        "hip/driver_types.h",
        "hip/texture_types.h",
        "hip/surface_types.h",
        "hip/hip_texture_types.h",
        "hiprand/hiprand_mtgp32_host.h",
    )
)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _hip_includes(unit: Unit):
    """(HIP header name after mapping, directive's line start, line end) per `#include`."""
    headers = header_table()
    for first, last in unit.lexed.directives:
        code = unit.code
        if last - first < 2 or code[first + 1].text != "include":
            continue
        name = code[first + 2].text[1:-1]
        entry = headers.get(name)
        hip = entry.hip if entry is not None and entry.status == "supported" else name
        yield hip, _line_start(unit.text, code[first].start), _line_end(unit.text, code[last].end)


def _runtime_include(unit: Unit) -> tuple[int, int] | None:
    """(line start, line end) of the first directive including hip_runtime.h (before or after
    mapping), or of the first header that needs it first when that comes before it."""
    for hip, start, end in _hip_includes(unit):
        if hip == HIP_RUNTIME:
            return start, end
        if hip in NEEDS_RUNTIME_FIRST:
            return None
    return None


def _needs_runtime_first(unit: Unit) -> int | None:
    """Line start of the first include of a NEEDS_RUNTIME_FIRST header, when no hip_runtime.h
    include comes before it."""
    for hip, start, _ in _hip_includes(unit):
        if hip == HIP_RUNTIME:
            return None
        if hip in NEEDS_RUNTIME_FIRST:
            return start
    return None


def _inside_extern_c(unit: Unit, offset: int) -> bool:
    """Whether `offset` lies inside an `extern "C" {` block (or a block nested in one)."""
    code, stack = unit.code, []
    for i, tok in enumerate(code):
        if tok.start >= offset:
            break
        if tok.text == "{":
            linkage = i >= 2 and code[i - 2].text == "extern" and code[i - 1].text == '"C"'
            stack.append(linkage or (bool(stack) and stack[-1]))
        elif tok.text == "}" and stack:
            stack.pop()
    return bool(stack) and stack[-1]


def _line_start(text: str, offset: int) -> int:
    return max(text.rfind("\n", 0, offset), text.rfind("\r", 0, offset)) + 1


def _line_end(text: str, offset: int) -> int:
    match = _LINE_BREAK.search(text, offset)
    return match.end() if match else len(text)


def _newline(text: str) -> str:
    match = _LINE_BREAK.search(text)
    return match.group() if match else "\n"


def _insertion_point(unit: Unit) -> int:
    """Start of the first line with code, after a leading `#pragma once`."""
    code = unit.code
    if not code:
        return 0
    if code[0].text == "#" and unit.next_text(0) == "pragma" and unit.next_text(0, 2) == "once":
        return _line_end(unit.text, code[2].end)
    return _line_start(unit.text, code[0].start)


def _uses_cuda(unit: Unit) -> bool:
    return unit.changed or not CUDA_MARKERS.isdisjoint(unit.index)


def add_prelude(unit: Unit) -> None:
    newline = _newline(unit.text)
    shims = render_shims(unit.shims, newline) if unit.shims and MARKER not in unit.text else ""
    defines = "".join(f"#define {name}{newline}" for name in unit.defines)
    found = _runtime_include(unit)
    if found is not None and _inside_extern_c(unit, found[0]):
        # the include inside the block stays (its guard makes it empty): this one comes first
        unit.insert(_insertion_point(unit), f"{defines}#include <{HIP_RUNTIME}>{newline}{shims}")
        return
    if found is None:
        before = _needs_runtime_first(unit)
        if before is None and not _uses_cuda(unit):
            return
        at = _insertion_point(unit) if before is None or _inside_extern_c(unit, before) else before
        unit.insert(at, f"{defines}#include <{HIP_RUNTIME}>{newline}{shims}")
        return
    line_start, line_end = found
    if defines:
        unit.insert(line_start, defines)
    if shims:
        missing_newline = "" if unit.text[line_end - 1 : line_end] in ("\n", "\r") else newline
        unit.insert(line_end, missing_newline + shims)
