"""Warp-level semantics (one NVIDIA warp = one wave32) and special registers.

SHFL/VOTE/MATCH/REDUX act on the lanes executing the instruction, as on NVIDIA for code that
keeps the `*_sync` contract; divergence guards (`BRA.DIV`/`BRA.CONV`) take the converged fast path.
"""

from __future__ import annotations

from cass.models.lift.emit import Emitter
from cass.models.lift.ir import Instruction, Reg
from cass.models.lift.sem_int import Handler, is_pred
from cass.models.lift.sem_mem import shared_window

SHFL_MODES = {"IDX": 0, "UP": 1, "DOWN": 2, "BFLY": 3}
REDUX_OPS = {"SUM": 0, "MIN": 3, "MAX": 4, "AND": 5, "OR": 6, "XOR": 7}
SPECIAL_CALLS = {"SR_TID.X": "tid.x", "SR_TID.Y": "tid.y", "SR_TID.Z": "tid.z", "SR_CTAID.X": "ctaid.x",
                 "SR_CTAID.Y": "ctaid.y", "SR_CTAID.Z": "ctaid.z", "SR_LANEID": "laneid",
                 "SR_NTID.X": "ntid.x", "SR_NTID.Y": "ntid.y", "SR_NTID.Z": "ntid.z"}  # fmt: skip
LANE_MASKS = {"SR_EQMASK": 0, "SR_LTMASK": 1, "SR_LEMASK": 2, "SR_GTMASK": 3, "SR_GEMASK": 4}
ZERO_SPECIALS = frozenset({"SR_CgaCtaId", "SR_VIRTUALSMID", "SR_SMID", "SR_VIRTID", "SRZ"})


def special(e: Emitter, name: str) -> str:
    if name in SPECIAL_CALLS:
        return e.op(f"call i32 @sass.{SPECIAL_CALLS[name]}()")
    if name in LANE_MASKS:
        return e.op(f"call i32 @sass.lanemask(i32 {LANE_MASKS[name]})")
    if name in ZERO_SPECIALS:
        return "0"
    if name == "SR_SWINHI":  # high word of the generic shared window (cvta.shared on sm_90)
        return e.split(shared_window(e))[1]
    if name in ("SR_CLOCKLO", "SR_CLOCKHI", "SR_GLOBALTIMERLO", "SR_GLOBALTIMERHI"):
        fn = "clock" if "CLOCK" in name else "globaltimer"
        lo, hi = e.split(e.op(f"call i64 @sass.{fn}()"))
        return lo if name.endswith("LO") else hi
    raise e.fail(f"special register {name} is not supported")


def s2r(e: Emitter, ins: Instruction) -> None:
    d, sr = ins.operands[:2]
    assert isinstance(sr, Reg)
    e.write(d, special(e, sr.name))


def cs2r(e: Emitter, ins: Instruction) -> None:
    d, sr = ins.operands[:2]
    assert isinstance(sr, Reg) and isinstance(d, Reg)
    if ins.has("32"):
        e.write(d, special(e, sr.name))
        return
    if sr.name == "SRZ":
        e.write_pair(d, "0")
        return
    fn = "clock" if "CLOCK" in sr.name else "globaltimer"
    e.write_pair(d, e.op(f"call i64 @sass.{fn}()"))


def shfl(e: Emitter, ins: Instruction) -> None:
    pout, d, a, b, c = ins.operands[:5]
    mode = next(SHFL_MODES[m] for m in ins.mods if m in SHFL_MODES)
    r = e.op(
        f"call {{ i32, i1 }} @sass.shfl(i32 {mode}, i32 {e.i32(a)}, i32 {e.i32(b)}, i32 {e.i32(c)})"
    )
    e.write(d, e.op(f"extractvalue {{ i32, i1 }} {r}, 0"))
    e.set_pred(pout, e.op(f"extractvalue {{ i32, i1 }} {r}, 1"))


def vote(e: Emitter, ins: Instruction) -> None:
    ops = ins.operands
    d, pout, p = (None, *ops[:2]) if is_pred(ops[0]) else ops[:3]
    ballot = e.op(f"call i32 @sass.ballot(i1 {e.pred(p)})")
    active = e.op("call i32 @sass.activemask()")
    if isinstance(d, Reg) and not d.is_pred:
        e.write(d, ballot)
    if ins.has("ANY"):
        flag = e.op(f"icmp ne i32 {ballot}, 0")
    elif ins.has("ALL"):
        flag = e.op(f"icmp eq i32 {ballot}, {active}")
    else:  # EQ
        none = e.op(f"icmp eq i32 {ballot}, 0")
        flag = e.op(f"or i1 {none}, {e.op(f'icmp eq i32 {ballot}, {active}')}")
    e.set_pred(pout, flag)


def match(e: Emitter, ins: Instruction) -> None:
    ops = [o for o in ins.operands if not is_pred(o)]
    d, a = ops[:2]
    if ins.has("U64", "64"):
        raise e.fail("MATCH on 64-bit values is not supported")
    mask = e.op(f"call i32 @sass.match.any(i32 {e.i32(a)})")
    if ins.has("ALL"):
        active = e.op("call i32 @sass.activemask()")
        same = e.op(f"icmp eq i32 {mask}, {active}")
        e.write(d, e.op(f"select i1 {same}, i32 {mask}, i32 0"))
        pout = next((o for o in ins.operands if is_pred(o)), None)
        if pout is not None:
            e.set_pred(pout, same)
        return
    e.write(d, mask)


def redux(e: Emitter, ins: Instruction) -> None:
    d, a = ins.operands[:2]
    op = next((REDUX_OPS[m] for m in ins.mods if m in REDUX_OPS), 5)
    if op in (3, 4) and ins.has("S32"):
        op -= 2
    e.write(d, e.op(f"call i32 @sass.redux(i32 {e.i32(a)}, i32 {op})"))


HANDLERS: dict[str, Handler] = {
    "S2R": s2r, "S2UR": s2r, "CS2R": cs2r, "SHFL": shfl, "VOTE": vote, "VOTEU": vote, "MATCH": match,
    "REDUX": redux,
}  # fmt: skip
