"""Inline PTX: the common idioms become HIP builtins; anything else is an error at the `asm` line.

An `asm("..." : outputs : inputs)` statement is parsed into its template and operand
expressions; each PTX instruction of the template is translated by the table below into one C++
statement. The whole statement is replaced by a block of those statements, or left untouched
and reported when any instruction has no translation.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from cass.models.rules.unit import Unit

ASM_KEYWORDS = frozenset(("asm", "__asm__", "__asm"))
ASM_QUALIFIERS = frozenset(("volatile", "__volatile__", "inline", "goto"))

SPECIAL_REGISTERS = {
    "%laneid": "__lane_id()",
    "%smid": "__smid()",
    "%clock": "(unsigned int)clock64()",
    "%clock64": "clock64()",
    "%lanemask_lt": "__lanemask_lt()",
    "%lanemask_le": "(__lanemask_lt() | __lanemask_eq())",
    "%lanemask_eq": "__lanemask_eq()",
    "%lanemask_gt": "__lanemask_gt()",
    "%lanemask_ge": "(__lanemask_gt() | __lanemask_eq())",
}
C_TYPES = {
    "f32": "float",
    "f64": "double",
    "u32": "unsigned int",
    "s32": "int",
    "b32": "unsigned int",
    "u64": "unsigned long long",
    "s64": "long long",
    "b64": "unsigned long long",
    "u16": "unsigned short",
    "s16": "short",
    "u8": "unsigned char",
    "s8": "signed char",
}
COMPARE = {
    "eq": "==",
    "ne": "!=",
    "lt": "<",
    "le": "<=",
    "gt": ">",
    "ge": ">=",
    "lo": "<",
    "ls": "<=",
    "hi": ">",
    "hs": ">=",
}
BINARY = {
    "add": "+",
    "sub": "-",
    "and": "&",
    "or": "|",
    "xor": "^",
    "shl": "<<",
    "shr": ">>",
    "mul.lo": "*",
}
UNARY_CALLS = {
    "popc.b32": "__popc",
    "popc.b64": "__popcll",
    "brev.b32": "__brev",
    "brev.b64": "__brevll",
    "clz.b32": "__clz",
    "clz.b64": "__clzll",
    "not.b32": "~",
    "not.b64": "~",
}
FENCES = {
    "membar.gl": "__threadfence();",
    "membar.cta": "__threadfence_block();",
    "membar.sys": "__threadfence_system();",
    "fence.sc.gpu": "__threadfence();",
    "fence.acq_rel.gpu": "__threadfence();",
    "fence.sc.cta": "__threadfence_block();",
}


class Untranslatable(Exception):
    """An instruction with no HIP translation; the message names it."""


@dataclass
class AsmBlock:
    first: int  # index of the asm keyword
    close: int  # index of the closing parenthesis
    template: str
    operands: list[str]  # C expressions, outputs first
    has_operands: bool
    statements: list[str] = field(default_factory=list)
    preds: dict[str, str] = field(default_factory=dict)
    carry: set[str] = field(default_factory=set)  # 'cc32' / 'cc64' once set by add.cc/sub.cc
    registers: dict[str, str] = field(default_factory=dict)  # `.reg` name -> C variable


def _decode(literal: str) -> str:
    body = literal[literal.index('"') + 1 : -1]
    return re.sub(r"\\(.)", lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), body)


def _sections(unit: Unit, open_index: int, close: int) -> list[tuple[int, int]]:
    """Split the asm parentheses at top-level `:` into index ranges."""
    sections, start, i = [], open_index + 1, open_index + 1
    while i < close:
        text = unit.code[i].text
        if text in ("(", "[", "{"):
            i = unit.matching(i) or i
        elif text == ":":
            sections.append((start, i - 1))
            start = i + 1
        elif text == "::":  # `asm("..." :: "r"(x))`: an empty output list
            sections += [(start, i - 1), (i + 1, i)]
            start = i + 1
        i += 1
    sections.append((start, close - 1))
    return sections


def _operands(unit: Unit, lo: int, hi: int) -> list[str]:
    """`"=r"(x), "r"(a + 1)` -> ['x', '(a + 1)']."""
    found, i = [], lo
    while i <= hi:
        if unit.code[i].kind == "string" and unit.next_text(i) == "(":
            close = unit.matching(i + 1)
            if close is None:
                return found
            found.append(
                unit.text[unit.code[i + 2].start : unit.code[close - 1].end]
                if close > i + 2
                else ""
            )
            i = close
        i += 1
    return found


def parse_asm(unit: Unit, i: int) -> AsmBlock | None:
    j = i + 1
    while j < len(unit.code) and unit.code[j].text in ASM_QUALIFIERS:
        j += 1
    if unit.code[j].text != "(" if j < len(unit.code) else True:
        return None
    close = unit.matching(j)
    if close is None:
        return None
    sections = _sections(unit, j, close)
    lo, hi = sections[0]
    strings = [unit.code[k] for k in range(lo, hi + 1)]
    if not strings or any(t.kind != "string" for t in strings):
        return None
    template = "".join(_decode(t.text) for t in strings)
    operands = []
    for lo, hi in sections[1:3]:
        operands += _operands(unit, lo, hi)
    return AsmBlock(i, close, template, operands, len(sections) > 1)


# ---------------------------------------------------------------- instructions


def _value(block: AsmBlock, text: str) -> str:
    text = text.strip()
    if text in SPECIAL_REGISTERS:
        return SPECIAL_REGISTERS[text]
    match = re.fullmatch(r"%(\d+)", text)
    if match:
        index = int(match.group(1))
        if index >= len(block.operands):
            raise Untranslatable(f"operand {text} has no expression")
        return block.operands[index]
    if text in block.preds:
        return block.preds[text]
    if text in block.registers:
        return block.registers[text]
    if re.fullmatch(r"-?(0[xX][0-9a-fA-F]+|\d+)[uU]?", text):
        return text
    if text.startswith("%"):
        raise Untranslatable(f"special register {text}")
    raise Untranslatable(f"operand {text}")


def _dest(block: AsmBlock, text: str) -> str:
    if text.strip() in block.registers:
        return block.registers[text.strip()]
    match = re.fullmatch(r"%(\d+)", text.strip())
    if not match or int(match.group(1)) >= len(block.operands):
        raise Untranslatable(f"destination {text}")
    return block.operands[int(match.group(1))]


def _carry(block: AsmBlock, opcode: str, ops: list[str]) -> str:
    wide = opcode.endswith("64")
    var, builtin = ("__cass_cc64", "ll") if wide else ("__cass_cc", "")
    kind = "add" if opcode.startswith("add") else "sub"
    sets, uses = ".cc" in opcode, opcode.startswith(("addc", "subc"))
    if uses and var not in block.carry:
        raise Untranslatable(f"{opcode} reads a carry set outside this asm statement")
    d, a, b = _dest(block, ops[0]), _value(block, ops[1]), _value(block, ops[2])
    carry_in = var if uses else "0"
    block.carry.add(var)
    if sets:
        return f"{d} = __builtin_{kind}c{builtin}({a}, {b}, {carry_in}, &{var});"
    sign = "+" if kind == "add" else "-"
    return f"{d} = {a} {sign} {b} {sign} {carry_in};"


def _split_operands(text: str) -> list[str]:
    """`{%0, %1}, [%2]` -> ['{%0, %1}', '[%2]']: commas inside braces/brackets do not split."""
    ops, depth, current = [], 0, ""
    for ch in text:
        depth += ch in "{[" and 1 or ch in "}]" and -1 or 0
        if ch == "," and depth == 0:
            ops.append(current.strip())
            current = ""
        else:
            current += ch
    return ops + [current.strip()] if current.strip() else ops


def _translate(block: AsmBlock, instruction: str) -> str | None:
    parts = instruction.split(None, 1)
    opcode, ops = parts[0], _split_operands(parts[1]) if len(parts) > 1 else []
    base = opcode.split(".")
    if opcode == ".reg":
        return _declare_registers(block, ops, instruction)
    if opcode in FENCES:
        return FENCES[opcode]
    if re.fullmatch(r"(bar|barrier)(\.sync)?", opcode) and ops in (["0"], []):
        return "__syncthreads();"
    if opcode == "bar.warp.sync":
        return "__builtin_amdgcn_wave_barrier();"
    if base[0] == "mov" and len(ops) == 2:
        return f"{_dest(block, ops[0])} = {_value(block, ops[1])};"
    if re.fullmatch(r"(add|sub)c?(\.cc)?\.[us](32|64)", opcode) and (
        "c" in base[0][3:] or ".cc" in opcode
    ):
        return _carry(block, opcode, ops)
    return _translate_value_op(block, opcode, base, ops)


_MEMORY = re.compile(
    r"(ld|st)\.global((?:\.(?:nc|cs|cg|ca|lu|cv|wb|wt|L1::no_allocate|L2::\w+))*)"
    r"(?:\.v([24]))?\.(f32|f64|[usb](?:32|64))"
)


def _address(block: AsmBlock, text: str, opcode: str, ctype: str) -> str:
    text = text.strip()
    if not (text.startswith("[") and text.endswith("]")):
        raise Untranslatable(f"{opcode} address {text}")
    return f"({ctype}*)({_value(block, text[1:-1])})"


def _registers(text: str) -> list[str]:
    text = text.strip()
    return [r.strip() for r in text[1:-1].split(",")] if text.startswith("{") else [text]


def _memory(block: AsmBlock, match: re.Match, ops: list[str], opcode: str) -> str:
    """ld.global / st.global (cache hints, .v2/.v4): element-wise loads and stores."""
    kind, hints, ctype = match.group(1), match.group(2), C_TYPES[match.group(4)]
    count = int(match.group(3) or 1)
    if kind == "ld":
        regs, pointer = _registers(ops[0]), _address(block, ops[1], opcode, f"const {ctype}")
    else:
        regs, pointer = _registers(ops[1]), _address(block, ops[0], opcode, ctype)
    if len(regs) != count:
        raise Untranslatable(f"{opcode} with {len(regs)} registers")
    streaming = ".cs" in hints or ".lu" in hints
    out = []
    for k, reg in enumerate(regs):
        at = f"{pointer} + {k}" if count > 1 else pointer
        if kind == "st":
            value = _value(block, reg)
            out.append(
                f"__builtin_nontemporal_store({value}, {at});"
                if streaming
                else f"*({at}) = {value};"
            )
        elif ".nc" in hints:
            out.append(f"{_dest(block, reg)} = __ldg({at});")
        else:
            load = f"__builtin_nontemporal_load({at})" if streaming else f"*({at})"
            out.append(f"{_dest(block, reg)} = {load};")
    return " ".join(out)


def _declare_registers(block: AsmBlock, ops: list[str], instruction: str) -> str | None:
    """`.reg .u32 t, u;` -> `unsigned int __cass_r_t, __cass_r_u;` (`.pred` registers become bools later)."""
    parts = instruction.split()
    if len(parts) < 3 or not parts[1].startswith("."):
        raise Untranslatable(instruction)
    kind = parts[1][1:]
    names = [n.strip() for n in " ".join(parts[2:]).split(",") if n.strip()]
    if kind == "pred":
        return None
    if kind not in C_TYPES or not all(re.fullmatch(r"[A-Za-z_]\w*", n) for n in names):
        raise Untranslatable(instruction)
    for name in names:
        block.registers[name] = f"__cass_r_{name}"
    return f"{C_TYPES[kind]} {', '.join(block.registers[n] for n in names)};"


def _translate_value_op(block: AsmBlock, opcode: str, base: list[str], ops: list[str]) -> str:
    memory = _MEMORY.fullmatch(opcode)
    if memory and len(ops) == 2:
        return _memory(block, memory, ops, opcode)
    funnel = re.fullmatch(r"shf\.(l|r)\.(wrap|clamp)\.b32", opcode)
    if funnel and len(ops) == 4:
        call = f"__funnelshift_{funnel.group(1)}{'c' if funnel.group(2) == 'clamp' else ''}"
        return f"{_dest(block, ops[0])} = {call}({', '.join(_value(block, o) for o in ops[1:])});"
    if opcode in ("bfe.u32", "bfe.u64") and len(ops) == 4:
        call = "__bitextract_u32" if opcode.endswith("32") else "__bitextract_u64"
        return f"{_dest(block, ops[0])} = {call}({', '.join(_value(block, o) for o in ops[1:])});"
    if opcode in ("bfi.b32", "bfi.b64") and len(ops) == 5:
        call = "__bitinsert_u32" if opcode.endswith("32") else "__bitinsert_u64"
        f, b, c, d = (_value(block, o) for o in ops[1:])
        return f"{_dest(block, ops[0])} = {call}({b}, {f}, {c}, {d});"
    if opcode == "prmt.b32" and len(ops) == 4:
        return (
            f"{_dest(block, ops[0])} = __byte_perm({', '.join(_value(block, o) for o in ops[1:])});"
        )
    match = re.fullmatch(r"shfl(\.sync)?\.(idx|up|down|bfly)\.b32", opcode)
    if match and len(ops) >= 4 and "|" not in ops[0]:
        call = {"idx": "__shfl", "up": "__shfl_up", "down": "__shfl_down", "bfly": "__shfl_xor"}[
            match.group(2)
        ]
        return f"{_dest(block, ops[0])} = {call}({_value(block, ops[1])}, {_value(block, ops[2])});"
    match = re.fullmatch(r"vote(\.sync)?\.(ballot|any|all)(\.sync)?\.(b32|pred)", opcode)
    if match and len(ops) >= 2:
        call = {"ballot": "__ballot", "any": "__any", "all": "__all"}[match.group(2)]
        value = f"{call}({_value(block, ops[1])})"
        return _assign_or_pred(block, ops[0], value)
    match = re.fullmatch(r"setp\.(\w+)\.[usfb](16|32|64)", opcode)
    if match and match.group(1) in COMPARE and len(ops) == 3:
        cond = f"({_value(block, ops[1])} {COMPARE[match.group(1)]} {_value(block, ops[2])})"
        return _assign_or_pred(block, ops[0], cond)
    if base[0] == "selp" and len(ops) == 4:
        return f"{_dest(block, ops[0])} = {_value(block, ops[3])} ? {_value(block, ops[1])} : {_value(block, ops[2])};"
    return _translate_arithmetic(block, opcode, ops)


def _assign_or_pred(block: AsmBlock, target: str, value: str) -> str | None:
    if re.fullmatch(r"%\d+", target):
        return f"{_dest(block, target)} = {value};"
    name = "__cass_p_" + re.sub(r"\W", "_", target)
    block.preds[target] = name
    return f"bool {name} = {value};"


def _translate_arithmetic(block: AsmBlock, opcode: str, ops: list[str]) -> str:
    stem = opcode.rsplit(".", 1)[0]
    if stem in BINARY and len(ops) == 3:
        a, b = _value(block, ops[1]), _value(block, ops[2])
        return f"{_dest(block, ops[0])} = {a} {BINARY[stem]} {b};"
    minmax = re.fullmatch(r"(min|max)\.([us](?:16|32|64)|f32|f64)", opcode)
    if minmax and len(ops) == 3:
        a, b = _value(block, ops[1]), _value(block, ops[2])
        op = "<" if minmax.group(1) == "min" else ">"
        return f"{_dest(block, ops[0])} = ({a}) {op} ({b}) ? ({a}) : ({b});"
    if opcode in UNARY_CALLS and len(ops) == 2:
        call = UNARY_CALLS[opcode]
        return f"{_dest(block, ops[0])} = {call}({_value(block, ops[1])});"
    if opcode in ("mul.hi.u32", "mul.hi.s32") and len(ops) == 3:
        call = "__umulhi" if opcode.endswith("u32") else "__mulhi"
        return f"{_dest(block, ops[0])} = {call}({_value(block, ops[1])}, {_value(block, ops[2])});"
    if opcode in ("mul.wide.u32", "mul.wide.s32") and len(ops) == 3:
        wide = "unsigned long long" if ".u32" in opcode else "long long"
        return (
            f"{_dest(block, ops[0])} = ({wide}){_value(block, ops[1])} * {_value(block, ops[2])};"
        )
    if opcode in ("mad.wide.u32", "mad.wide.s32") and len(ops) == 4:
        wide = "unsigned long long" if ".u32" in opcode else "long long"
        a, b, c = (_value(block, o) for o in ops[1:])
        return f"{_dest(block, ops[0])} = ({wide}){a} * {b} + {c};"
    if opcode in ("mad.lo.u32", "mad.lo.s32") and len(ops) == 4:
        a, b, c = (_value(block, o) for o in ops[1:])
        return f"{_dest(block, ops[0])} = {a} * {b} + {c};"
    raise Untranslatable(opcode)


def _instructions(block: AsmBlock) -> list[str]:
    """Instructions of the template; scope braces `{ ... }` (not vector operands) are dropped."""
    text = block.template if not block.has_operands else block.template.replace("%%", "%")
    pieces = [p.strip() for p in re.split(r"[;\n]", text)]
    cleaned = []
    for piece in pieces:
        piece = piece.strip()
        while piece.startswith(("{", "}")):
            piece = piece[1:].strip()
        if piece == "}" or not piece or piece.startswith("//"):
            continue
        cleaned.append(piece.rstrip("}").strip() if piece.count("}") > piece.count("{") else piece)
    return cleaned


def translate_block(block: AsmBlock) -> str:
    """The C++ block replacing the asm statement; raises Untranslatable."""
    statements = [s for s in (_translate(block, ins) for ins in _instructions(block)) if s]
    if not statements:
        raise Untranslatable("an empty asm statement")
    declarations = [
        f"unsigned {'long long ' if v.endswith('64') else 'int '}{v} = 0;"
        for v in sorted(block.carry)
    ]
    return "{ " + " ".join(declarations + statements) + " }"


def translate_inline_ptx(unit: Unit) -> None:
    code = unit.code
    for i in unit.positions(ASM_KEYWORDS):
        tok = code[i]
        if tok.kind != "ident" or tok.pp != -1:
            continue
        block = parse_asm(unit, i)
        if block is None:
            continue
        end = code[block.close].end
        try:
            replacement = translate_block(block)
        except Untranslatable as exc:
            unit.report(
                "CASS051",
                tok.start,
                end,
                f"inline PTX `{block.template.strip()[:60]}`: cannot "
                f"translate {exc}; rewrite it with HIP builtins",
            )
            continue
        if unit.replace(tok.start, end, replacement):
            unit.report("CASS050", tok.start, end, f"inline PTX -> `{replacement[:80]}`")
