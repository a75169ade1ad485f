"""Device intrinsics CUDA has and HIP lacks, replaced by cass helpers (see shims.py)."""

from __future__ import annotations

from cass.models.rules.tables import parse_version
from cass.models.rules.unit import Unit

# CUDA intrinsic -> (helper name, shim)
HELPERS = {"__dp4a": ("__cass_dp4a", "dp4a")}
# Round-to-nearest arithmetic CUDA never contracts into an FMA; HIP 5.2's are plain operators,
# which clang contracts (HIP's default -ffp-contract=fast-honor-pragmas): helpers with
# `#pragma clang fp contract(off)` keep each operation rounded on its own.
NO_CONTRACT = ("__fadd_rn", "__fsub_rn", "__fmul_rn", "__dadd_rn", "__dsub_rn", "__dmul_rn")
HELPERS.update({name: ("__cass" + name[1:], "rounding") for name in NO_CONTRACT})


_SIGNED_64 = ("long long", "int64_t", "long long int")


def add_signed_64bit_atomics(unit: Unit) -> None:
    """`atomicMin/atomicMax` on `long long`: HIP 5.x lacks the overloads, so the port defines them."""
    if parse_version(unit.target.hip_version) >= (6, 0):
        return
    for i in unit.positions(("atomicMin", "atomicMax")):
        parsed = unit.call_args(i + 1) if unit.next_text(i) == "(" else None
        if parsed and parsed[0] and any(t in unit.arg_text(parsed[0][0]) for t in _SIGNED_64):
            unit.shims.add("atomic64")
            tok = unit.code[i]
            unit.report(
                "CASS020",
                tok.start,
                tok.end,
                f"signed 64-bit `{tok.text}`: overload emitted "
                f"(HIP {unit.target.hip_version} has only the unsigned one)",
            )


def rewrite_missing_intrinsics(unit: Unit) -> None:
    for i in unit.positions(HELPERS):
        tok = unit.code[i]
        if tok.kind != "ident" or unit.next_text(i) != "(":
            continue
        if unit.prev_text(i) in (".", "->", "::") or unit.is_edited(tok):
            continue
        helper, shim = HELPERS[tok.text]
        if unit.replace(tok.start, tok.end, helper):
            unit.shims.add(shim)
            why = (
                "HIP 5.2 defines it as a plain operator, which clang contracts into a fused "
                "multiply-add; CUDA never does"
                if tok.text in NO_CONTRACT
                else "HIP has no such intrinsic"
            )
            unit.report(
                "CASS020", tok.start, tok.end, f"`{tok.text}` -> `{helper}` (helper emitted: {why})"
            )
