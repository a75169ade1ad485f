"""Program-flow and system instructions (SOPP, calls through s_getpc/s_setpc/s_swappc, barriers,
s_sleep, traps, mode and clock registers)."""

from __future__ import annotations

import time

import numpy as np
from cass.runner.emulator.state import EXEC, U32, U64, Fault, res

NOOPS = {
    "s_nop",
    "s_waitcnt",
    "s_waitcnt_vscnt",
    "s_waitcnt_vmcnt",
    "s_waitcnt_expcnt",
    "s_waitcnt_lgkmcnt",
    "s_waitcnt_depctr",
    "s_delay_alu",
    "s_clause",
    "s_code_end",
    "s_set_inst_prefetch_distance",
    "s_setprio",
    "s_icache_inv",
    "s_wait_idle",
    "s_ttracedata",
    "s_inst_prefetch",
    "buffer_gl0_inv",
    "buffer_gl1_inv",
    "s_sethalt",
    "s_incperflevel",
    "s_decperflevel",
    "s_round_mode",
    "s_setreg_b32",
    "s_setreg_imm32_b32",
    "s_version",
    "s_dcache_inv",
    "s_gl1_inv",
}


def _simm16(ins) -> int:
    v = ins.words[0] & 0xFFFF
    return v - 0x10000 if v & 0x8000 else v


def _branch(ins):
    target = ins.pc + 4 + 4 * _simm16(ins)
    kind = ins.op[len("s_cbranch_") :] if ins.op.startswith("s_cbranch_") else "always"

    def cond(m, g):
        st = m.st
        if kind == "scc0":
            return st.SCC[g.idx] == 0
        if kind == "scc1":
            return st.SCC[g.idx] != 0
        if kind == "vccz":
            return st.S[106, g.idx] == 0
        if kind == "vccnz":
            return st.S[106, g.idx] != 0
        if kind == "execz":
            return st.S[EXEC, g.idx] == 0
        if kind == "execnz":
            return st.S[EXEC, g.idx] != 0
        raise Fault("unsupported", f"branch condition {kind} is not emulated")

    if kind == "always":

        def run(m, g):
            m.st.PC[g.idx] = target

        return run

    def run(m, g):
        taken = cond(m, g)
        m.st.PC[g.idx] = np.where(taken, target, m.st.PC[g.idx])

    return run


def _endpgm(m, g):
    m.st.alive[g.idx] = False
    if m.st.barrier.any():
        m._release_barriers()


def _barrier(m, g):
    if m.races is not None:  # the race shadow's count of barriers passed (emulator.races)
        m.races.passed_barrier(m.waves_of(g))
    m.st.barrier[g.idx] = True
    m._release_barriers()


NAP_STEPS = 64  # a wave that ran s_sleep (a spin-wait) yields to the others for this many steps


def _sleep(m, g):
    m.services.poll(m)
    m.napping[g.idx] = m.steps + NAP_STEPS


def _trap(ins):
    def run(m, g):
        raise Fault(
            "trap",
            f"the kernel executed {ins.text} (a device-side abort, e.g. "
            "assert() or __builtin_trap())",
        )

    return run


def _sendmsg(ins):
    def run(m, g):
        if "INTERRUPT" in ins.modifiers.get("raw", ""):
            m.services.poll(m)

    return run


def _getpc(ins):
    dst = ins.operands[0]

    def run(m, g):
        m.st.swrite(dst.index, g, np.full(g.k, m.program.base + ins.pc + ins.size, U64), True)

    return run


def _setpc(ins):
    src = ins.operands[0]

    def run(m, g):
        target = m.st.sread(src, g, "b64").astype(np.int64) - m.program.base
        m.st.PC[g.idx] = target

    return run


def _swappc(ins):
    dst, src = ins.operands

    def run(m, g):
        target = m.st.sread(src, g, "b64").astype(np.int64) - m.program.base
        m.st.swrite(dst.index, g, np.full(g.k, m.program.base + ins.pc + ins.size, U64), True)
        m.st.PC[g.idx] = target

    return run


def _call(ins):
    dst = ins.operands[0]
    target = ins.pc + 4 + 4 * _simm16(ins)

    def run(m, g):
        m.st.swrite(dst.index, g, np.full(g.k, m.program.base + ins.pc + ins.size, U64), True)
        m.st.PC[g.idx] = target

    return run


def _getreg(ins):
    dst = ins.operands[0]

    def run(m, g):
        text = ins.text
        value = 0
        if "HW_REG_SHADER_CYCLES" in text or "SHADER_CYCLES" in text:
            value = m.wave_instructions & 0xFFFFF
        m.st.swrite(dst.index, g, np.full(g.k, value, U32))

    return run


def _clock(ins):
    if not ins.operands:  # s_sendmsg_rtn_b64 s[0:1], sendmsg(...): decoded as raw text
        from cass.runner.emulator.decode import parse_operand

        ins.operands = [parse_operand(ins.modifiers.get("raw", "").split(",")[0].strip())]
    dst = ins.operands[0]

    def run(m, g):
        now = time.monotonic_ns() // 10  # 100 MHz "REALTIME"
        m.st.swrite(dst.index, g, np.full(g.k, now, U64), dst.count == 2)

    return run


def _denorm_mode(ins):
    mode = int(ins.operands[0].value) if ins.operands else 0xF

    def run(m, g):
        m.set_denorm_mode(mode)  # lock-step waves run the same mode switch together

    return run


def compile_control(ins):
    op = ins.op
    if op in NOOPS or op.startswith("s_waitcnt"):
        return lambda m, g: None
    if op == "s_branch" or op.startswith("s_cbranch_"):
        return _branch(ins)
    if op == "s_denorm_mode":
        return _denorm_mode(ins)
    table = {
        "s_endpgm": lambda: _endpgm,
        "s_barrier": lambda: _barrier,
        "s_sleep": lambda: _sleep,
        "s_trap": lambda: _trap(ins),
        "s_sendmsg": lambda: _sendmsg(ins),
        "s_getpc_b64": lambda: _getpc(ins),
        "s_setpc_b64": lambda: _setpc(ins),
        "s_swappc_b64": lambda: _swappc(ins),
        "s_call_b64": lambda: _call(ins),
        "s_getreg_b32": lambda: _getreg(ins),
        "s_memtime": lambda: _clock(ins),
        "s_memrealtime": lambda: _clock(ins),
        "s_sendmsg_rtn_b64": lambda: _clock(ins),
        "s_sendmsg_rtn_b32": lambda: _clock(ins),
    }
    make = table.get(op)
    return make() if make else None


__all__ = ["compile_control", "res"]
