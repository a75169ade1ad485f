"""The translator: a decoded code object -> C++ functions that run a wave from its PC through
every instruction the translator handles. Passes, top to bottom:

  leaders      entries the scheduler may call into: kernel entries, branch targets, and the
               instruction after each barrier and each one left to the interpreter
  translate    each instruction to C++ statements (scalar, vector, memory, control), or an exit
               to the interpreter at its PC when the translator does not handle it
  partition    the code into parts (kernels, and long kernels between their loops), each its
               own function and translation unit, compiled in parallel
  render       per part: labels at the leaders, a switch from the wave's PC to them, and the
               exits; a main unit whose `run_wave` calls the part of a wave's PC

Every executed instruction is counted exactly as the interpreter counts it (one wave
instruction, the active lanes of EXEC before it runs as lane instructions)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from cass.runner.emulator.jit.memory import translate_memory
from cass.runner.emulator.jit.operands import Untranslated
from cass.runner.emulator.jit.scalar import translate_scalar
from cass.runner.emulator.jit.vector import translate_vector
from cass.runner.emulator.ops_control import NOOPS, _simm16

BRANCHES = {
    "s_branch": "true",
    "s_cbranch_scc0": "scc == 0",
    "s_cbranch_scc1": "scc != 0",
    "s_cbranch_vccz": "s[106] == 0",
    "s_cbranch_vccnz": "s[106] != 0",
    "s_cbranch_execz": "s[126] == 0",
    "s_cbranch_execnz": "s[126] != 0",
}
# left to the interpreter: they change which waves run (barriers, sleep), call host services,
# read clocks or modes, or jump to computed addresses
INTERPRETED = {"s_setreg_b32", "s_setreg_imm32_b32", "s_round_mode", "s_denorm_mode"}
# translated, but a wave leaves after them (a barrier): the next instruction is an entry
RESUME_AFTER = ("s_barrier",)


@dataclass
class Translation:
    """The C++ sources of a code object's waves (a translation unit per part, and the main one
    with the dispatcher) and what was left to the interpreter."""

    units: list[str]
    main: str
    entries: set[int]
    untranslated: Counter = field(default_factory=Counter)  # op -> static count
    instructions: int = 0
    interpreted: frozenset[int] = frozenset()  # PCs where a wave leaves to the interpreter


def _body(ins) -> list[str]:
    """C++ for one instruction (raises Untranslated when the interpreter must run it)."""
    op = ins.op
    if ins.mnemonic == "<unparsed>" or op in INTERPRETED:
        raise Untranslated(op)
    if op in NOOPS or (op == "s_sendmsg" and "INTERRUPT" not in ins.modifiers.get("raw", "")):
        return []
    if op == "s_endpgm":
        return [f"c->alive[w] = 0; pc = {ins.pc + ins.size}; goto out;"]
    if op == "s_barrier":  # the wave waits; cass_jit_run releases its workgroup (prelude)
        return [
            "if (c->race_shadow) ++c->race_barriers[w];",
            f"c->barrier[w] = 1; pc = {ins.pc + ins.size}; goto out;",
        ]
    if op == "s_getpc_b64":
        from cass.runner.emulator.jit.operands import swrite

        return [swrite(ins.operands[0].index, f"c->code_base + {ins.pc + ins.size}ull", True)]
    if op.startswith(("global_", "flat_", "scratch_", "ds_", "s_load", "s_buffer_load")):
        return translate_memory(ins)
    if op.startswith("v_"):
        return translate_vector(ins)
    if op.startswith("s_") and op not in BRANCHES:
        return translate_scalar(ins)
    raise Untranslated(op)


def _target(ins) -> int:
    return ins.pc + 4 + 4 * _simm16(ins)


def _branch(ins, labels: set[int]) -> list[str]:
    target = _target(ins)
    go = f"goto L_{target:x};" if target in labels else f"{{ pc = {target}; rc = 2; goto out; }}"
    budget = f"if (k.wave - start >= c->max_steps) {{ pc = {target}; goto out; }}"
    return [f"if ({BRANCHES[ins.op]}) {{ {budget} {go} }}"]


def leaders(instructions: dict, kernel_entries: list[int], translated: set[int]) -> set[int]:
    """PCs the scheduler may enter translated code at."""
    out = set(kernel_entries)
    pcs = sorted(instructions)
    for pc, nxt in zip(pcs, pcs[1:] + [None]):
        ins = instructions[pc]
        if ins.op in BRANCHES:
            out.add(_target(ins))
            if nxt is not None:
                out.add(nxt)
        if nxt is not None and (pc not in translated or ins.op.startswith(RESUME_AFTER)):
            out.add(nxt)  # where the interpreter, or a released barrier, resumes
    return out & translated


PART_INSTRUCTIONS = 150  # a part grows past this only until a point no branch crosses,
PART_LIMIT = 300  # or, past this, until any entry (a loop cut there crosses parts each turn)


def partition(instructions: dict, kernel_entries: list[int], entries: set[int]) -> list[list[int]]:
    """The PCs in parts, each compiled as its own function (and translation unit): a part
    starts at each kernel entry, and once a part has PART_INSTRUCTIONS, at the next entry no
    branch crosses (so no loop is cut; a wave crosses parts only between its loops), or once
    it has PART_LIMIT, at the next entry (the compiler's time grows faster than a function's
    size: a loop cut there costs a return to run_wave per turn)."""
    pcs = sorted(instructions)
    position = {pc: i for i, pc in enumerate(pcs)}
    crossing = [0] * (len(pcs) + 1)  # branches spanning the boundary before pcs[i]
    for pc, ins in instructions.items():
        if ins.op in BRANCHES and _target(ins) in position:
            lo, hi = sorted((position[pc], position[_target(ins)]))
            crossing[lo + 1] += 1
            crossing[hi + 1] -= 1
    parts: list[list[int]] = []
    spanning = 0
    for i, pc in enumerate(pcs):
        spanning += crossing[i]
        size = len(parts[-1]) if parts else 0
        full = pc in entries and (
            (size >= PART_INSTRUCTIONS and not spanning) or size >= PART_LIMIT
        )
        if not parts or pc in kernel_entries or full:
            parts.append([])
        parts[-1].append(pc)
    return parts


def translate(instructions: dict, kernel_entries: list[int]) -> Translation:
    bodies: dict[int, list[str]] = {}
    untranslated: Counter = Counter()
    for pc, ins in sorted(instructions.items()):
        if ins.op in BRANCHES:
            continue
        try:
            bodies[pc] = _body(ins)
        except (Untranslated, ValueError, IndexError, KeyError, AttributeError):
            untranslated[ins.op] += 1
    branches = {pc for pc, ins in instructions.items() if ins.op in BRANCHES}
    translated = set(bodies) | branches
    entries = leaders(instructions, kernel_entries, translated)
    parts = partition(instructions, kernel_entries, entries)
    entries |= {part[0] for part in parts} & translated  # a wave may cross into a part
    units = []
    for n, part in enumerate(parts):
        mine = set(part)
        targets = {_target(instructions[pc]) for pc in branches & mine}
        labels = (entries | targets) & translated & mine
        code = {pc: instructions[pc] for pc in part}
        lines = [_header(n, entries & mine, used_sgprs(code))]
        for pc in part:
            ins = instructions[pc]
            if pc in labels:
                lines.append(f"L_{pc:x}:")
            if pc in branches:
                lines += ["CNT();", *_branch(ins, labels)]
            elif pc in bodies:
                lines += ["{", f"// {ins.text}", "CNT();", *bodies[pc], "}"]
            else:
                lines.append(f"pc = {pc}; goto out;  // interpreted: {ins.text}")
        end = part[-1] + instructions[part[-1]].size
        lines += [f"pc = {end}; rc = 2; goto out;", _FOOTER]  # on into the next part
        units.append("\n".join(lines) + "\n")
    starts = [part[0] for part in parts]
    interpreted = frozenset(instructions) - translated
    return Translation(units, _main(starts), entries, untranslated, len(instructions), interpreted)


def _main(starts: list[int]) -> str:
    """The dispatcher: runs a wave's PC's part, and the next part while a wave crosses."""
    n = len(starts)
    declared = "".join(
        f"HIDDEN int cass_part_{i}(Ctx*, int64_t, Counts&, Fault&, int64_t);\n" for i in range(n)
    )
    listed = ", ".join(f"{pc}" for pc in starts) or "0"
    parts = ", ".join(f"cass_part_{i}" for i in range(n)) or "nullptr"
    return f"""{declared}
static const int64_t PART_START[] = {{{listed}}};
static int (*const PARTS[])(Ctx*, int64_t, Counts&, Fault&, int64_t) = {{{parts}}};

HIDDEN int run_wave(Ctx* c, int64_t w, Counts& k, Fault& f) {{
    const int64_t start = k.wave;
    for (;;) {{
        const int64_t pc = c->PC[w];
        int lo = 0, hi = {n};  // the last part starting at or before pc
        while (lo < hi) {{
            const int mid = (lo + hi) / 2;
            if (PART_START[mid] <= pc) lo = mid + 1; else hi = mid;
        }}
        if (lo == 0) return 0;
        const int rc = PARTS[lo - 1](c, w, k, f, start);
        if (rc != 2) return rc;
    }}
}}
"""


def used_sgprs(instructions: dict) -> list[int]:
    """SGPRs the code names (and the register after each, read by 64-bit operands), with
    VCC, M0 and EXEC: only these are copied in and out of a wave's native run."""
    used = {106, 107, 124, 125, 126, 127}
    for ins in instructions.values():
        for part in (ins, ins.second) if ins.second else (ins,):
            for o in part.operands:
                if o.kind == "s":
                    used.update(range(o.index, min(o.index + max(o.count, 2), 128)))
    return sorted(used)


def _header(n: int, entries: set[int], sgprs: list[int]) -> str:
    cases = " ".join(f"case {pc}: goto L_{pc:x};" for pc in sorted(entries))
    listed = ", ".join(map(str, sgprs))
    return f"""
static const int SGPRS_{n}[] = {{{listed}}};

// 0: stopped (PC where the interpreter or the scheduler goes on), 1: fault, 2: on at PC in
// another part (run_wave calls it)
HIDDEN int cass_part_{n}(Ctx* c, int64_t w, Counts& k, Fault& f, const int64_t start) {{
    const int* const SGPRS = SGPRS_{n};
    const int NSGPRS = {len(sgprs)};
    const int64_t W = c->W;
    uint32_t s[128];
    for (int j = 0; j < NSGPRS; ++j) s[SGPRS[j]] = c->S[SGPRS[j] * W + w];
    uint32_t scc = c->SCC[w];
    int64_t pc = c->PC[w];
    uint32_t* const V0 = c->V + w * 32;
    const int64_t VS = W * 32;
    const int64_t SPARE = c->vgprs - 1;  // the spare row, v[-1], DPP's permuted source
    int64_t hint = -1;
    int rc = 0;
#define VR(r) (V0 + (int64_t)(r) * VS)
#define CNT() (k.wave += 1, k.lane += __builtin_popcount(s[126]))
#define UNCOUNT() (k.wave -= 1, k.lane -= __builtin_popcount(s[126]))
    switch (pc) {{ {cases} default: goto out; }}
"""


_FOOTER = """faulted:
    rc = 1;
    pc = f.pc;
out:
    for (int j = 0; j < NSGPRS; ++j) c->S[SGPRS[j] * W + w] = s[SGPRS[j]];
    c->SCC[w] = scc;
    c->PC[w] = pc;
    return rc;
#undef VR
#undef CNT
#undef UNCOUNT
}
"""
