"""Device intrinsics CUDA has and HIP lacks, replaced by cass helpers (see shims.py)."""

from __future__ import annotations

from cass.models.rules.unit import Unit

# CUDA intrinsic -> (helper name, shim)
HELPERS = {"__dp4a": ("__cass_dp4a", "dp4a")}


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
            unit.report(
                "CASS020",
                tok.start,
                tok.end,
                f"`{tok.text}` -> `{helper}` (helper emitted: HIP has no such intrinsic)",
            )
