"""What the vector translators share: the modifiers left to the interpreter, op_sel-style flag
lists, a lane's result stored under EXEC, and the lane loop around a body."""

from __future__ import annotations

from cass.runner.emulator.jit.operands import SIXTEEN, Hoist, Untranslated, as_bits
from cass.runner.emulator.state import width_of


def require_plain(ins, op_sel: bool = True) -> None:
    """Output modifiers and (unless `op_sel` is False) op_sel are left to the interpreter."""
    for key in ("clamp", "mul", "div"):
        if key in ins.modifiers:
            raise Untranslated(key)
    raw = ins.modifiers.get("op_sel") if op_sel else None
    if raw and any(x.strip() not in ("0", "") for x in raw.strip("[]").split(",")):
        raise Untranslated("op_sel")


def modifier_flags(ins, key: str) -> list[int] | None:
    raw = ins.modifiers.get(key)
    return [int(x) for x in raw.strip("[]").split(",")] if raw else None


def store_lanes(dtyp: str, dst, result: str, name: str) -> tuple[str, list[str]]:
    """(declaration of the lane's result bits, its masked writes); a 16-bit result (type
    suffixed `_hi`: the high half) replaces one half of the destination."""
    hi = dtyp.endswith("_hi")
    dtyp = dtyp.removesuffix("_hi")
    if dtyp in SIXTEEN:
        i = dst.index
        bits = as_bits(result, dtyp)
        merged = (
            f"(VR({i})[l] & 0xFFFFu) | ({bits} << 16)"
            if hi
            else f"(VR({i})[l] & 0xFFFF0000u) | {bits}"
        )
        decl = f"const uint32_t {name} = {merged};"
        return decl, [f"VR({i})[l] = sel(s[126], l, {name}, VR({i})[l]);"]
    if width_of(dtyp) == 64:
        i = dst.index
        decl = f"const uint64_t {name} = {as_bits(result, dtyp)};"
        writes = [
            f"VR({i})[l] = sel(s[126], l, (uint32_t){name}, VR({i})[l]);",
            f"VR({i + 1})[l] = sel(s[126], l, (uint32_t)({name} >> 32), VR({i + 1})[l]);",
        ]
        return decl, writes
    decl = f"const uint32_t {name} = {as_bits(result, dtyp)};"
    return decl, [f"VR({dst.index})[l] = sel(s[126], l, {name}, VR({dst.index})[l]);"]


def lane_loop(hoist: Hoist, body: list[str]) -> list[str]:
    return ["{", *hoist.lines, "LANES {", *body, "}", "}"]
