"""Device limits and pointer memory types that HIP 5.x spells differently or sizes otherwise.

HIP 5.2 has no `hipDeviceSetLimit` (HIP 6 has it, with `hipLimitStackSize`) and no
`hipMemoryTypeManaged` (HIP 6 again). Where HIP 5.2 needs no call at all the call becomes
`hipSuccess` with a warning saying why; where it has a nearby name the port uses it and says how
it differs. Anything else is left to the table renames, which report it.
"""

from __future__ import annotations

import re

from cass.models.rules.tables import parse_version
from cass.models.rules.unit import Unit

# CUDA limit -> why HIP 5.2 needs no call to set it
LIMITS_SIZED_BY_HIP_52 = {
    "cudaLimitStackSize": (
        "HIP 5.2 sizes a kernel's stack when it compiles it: clang adds "
        "16 KiB per thread for recursion (`-mllvm -amdgpu-assume-external-call-stack-size=BYTES` "
        "changes that amount)"
    ),
    "cudaLimitPrintfFifoSize": (
        "device printf on AMD goes through the HIP runtime's hostcall buffer, which has no "
        "FIFO to size"
    ),
}
_HIP_6 = (6, 0)


def _hip_older_than_6(unit: Unit) -> bool:
    return parse_version(unit.target.hip_version) < _HIP_6


def rewrite_device_limits(unit: Unit) -> None:
    """HIP 5.2: `cudaDeviceSetLimit(cudaLimitStackSize, n)` -> `((void)(n), hipSuccess)`."""
    if not _hip_older_than_6(unit):
        return
    code = unit.code
    for i in unit.positions(("cudaDeviceSetLimit",)):
        if unit.next_text(i) != "(" or unit.prev_text(i) in (".", "->", "::"):
            continue
        parsed = unit.call_args(i + 1)
        if parsed is None or len(parsed[0]) != 2:
            continue
        (limit, value), close = parsed
        why = LIMITS_SIZED_BY_HIP_52.get(unit.arg_text(limit))
        if why is None:
            continue  # the renames report the call (it needs HIP 6)
        replacement = f"((void)({unit.arg_text(value)}), hipSuccess)"
        if unit.replace(code[i].start, code[close].end, replacement):
            unit.report(
                "CASS064",
                code[i].start,
                code[close].end,
                f"`cudaDeviceSetLimit({unit.arg_text(limit)}, ...)` -> `hipSuccess`: {why}; "
                "HIP 6 has hipDeviceSetLimit (port with --hip-version 6.0 to keep the call)",
            )


def rewrite_managed_memory_type(unit: Unit) -> None:
    """HIP 5.x: `cudaMemoryTypeManaged` -> `hipMemoryTypeUnified`, which HIP 5.x never reports."""
    if not _hip_older_than_6(unit):
        return
    for i in unit.positions(("cudaMemoryTypeManaged",)):
        tok = unit.code[i]
        if unit.prev_text(i) in (".", "->") or not unit.replace(
            tok.start, tok.end, "hipMemoryTypeUnified"
        ):
            continue
        unit.report(
            "CASS065",
            tok.start,
            tok.end,
            f"`cudaMemoryTypeManaged` -> `hipMemoryTypeUnified`: HIP {unit.target.hip_version} has "
            "no managed memory type; hipPointerGetAttributes reports managed memory as "
            "hipMemoryTypeDevice with `isManaged` set and never returns hipMemoryTypeUnified, so "
            "this case or comparison never matches; test `isManaged` to find managed memory",
        )


# Local data share (shared memory) one workgroup may use, by target: 64 KiB on RDNA3 and CDNA2/3,
# 160 KiB on gfx950.
LDS_BYTES = {"gfx950": 160 * 1024}
DEFAULT_LDS_BYTES = 64 * 1024
_CONSTANT_ARITHMETIC = re.compile(r"[\d\s()*+]+")


def _constant(text: str) -> int | None:
    """The value of an integer literal or a product/sum of literals (`100 * 1024`), else None."""
    text = re.sub(r"(?<=\d)[uUlL]+\b", "", text)
    if not _CONSTANT_ARITHMETIC.fullmatch(text) or not re.search(r"\d", text):
        return None
    try:
        return int(eval(text, {"__builtins__": {}}))  # digits, + * ( ) only
    except (SyntaxError, ValueError):
        return None


def report_dynamic_shared_memory_limit(unit: Unit) -> None:
    """`cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, n)` with `n` above
    the target's LDS per workgroup: maps 1:1, but the launch would fail at run time."""
    limit = LDS_BYTES.get(unit.target.gfx_arch, DEFAULT_LDS_BYTES)
    for i in unit.positions(("cudaFuncSetAttribute",)):
        if unit.next_text(i) != "(":
            continue
        parsed = unit.call_args(i + 1)
        if parsed is None or len(parsed[0]) != 3:
            continue
        (_, attribute, size), _ = parsed
        if unit.arg_text(attribute) != "cudaFuncAttributeMaxDynamicSharedMemorySize":
            continue
        value = _constant(unit.arg_text(size))
        if value is not None and value > limit:
            first, last = unit.code[size[0]], unit.code[size[1]]
            unit.report(
                "CASS067",
                first.start,
                last.end,
                f"{value} bytes of dynamic shared memory: {unit.target.gfx_arch} gives a workgroup "
                f"at most {limit} bytes of LDS, so the kernel would fail to launch; tile the data "
                "or use global memory",
            )
