"""The last pass: make sure the port includes HIP, with any needed macros before it and helpers after.

nvcc includes `cuda_runtime.h` implicitly; HIP-Clang does not, so a file that uses CUDA
constructs without including a CUDA header gets `#include <hip/hip_runtime.h>` (after a leading
`#pragma once`). Re-running on a port finds the include and the helpers and adds nothing.
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
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _runtime_include(unit: Unit) -> tuple[int, int] | None:
    """(line start, line end) of the first directive including hip_runtime.h (before or after mapping)."""
    headers = header_table()
    for first, last in unit.lexed.directives:
        code = unit.code
        if last - first < 2 or code[first + 1].text != "include":
            continue
        name = code[first + 2].text[1:-1]
        entry = headers.get(name)
        if name == HIP_RUNTIME or (entry is not None and entry.hip == HIP_RUNTIME):
            return _line_start(unit.text, code[first].start), _line_end(unit.text, code[last].end)
    return None


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
    if found is None:
        if not _uses_cuda(unit):
            return
        at = _insertion_point(unit)
        unit.insert(at, f"{defines}#include <{HIP_RUNTIME}>{newline}{shims}")
        return
    line_start, line_end = found
    if defines:
        unit.insert(line_start, defines)
    if shims:
        missing_newline = "" if unit.text[line_end - 1 : line_end] in ("\n", "\r") else newline
        unit.insert(line_end, missing_newline + shims)
