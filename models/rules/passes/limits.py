"""Device limits and pointer memory types that HIP 5.x spells differently or sizes otherwise.

HIP 5.2 has no `hipDeviceSetLimit` (HIP 6 has it, with `hipLimitStackSize`) and no
`hipMemoryTypeManaged` (HIP 6 again). Where HIP 5.2 needs no call at all the call becomes
`hipSuccess` with a warning saying why; where it has a nearby name the port uses it and says how
it differs. Anything else is left to the table renames, which report it.
"""

from __future__ import annotations

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
