"""SASS text (cuobjdump -sass or nvdisasm output) -> `Listing` of typed instructions.

Accepted line shapes:
    /*00d0*/   @!P0 LDG.E R3, desc[UR4][R2.64] ;   /* 0x... */      (cuobjdump, nvdisasm -hex)
    .L_x_3:                                                            (nvdisasm labels)
    Function : _Z6vecaddPKfS0_Pfi        .text._Z6vecaddPKfS0_Pfi:     (function headers)
Encodings, `.reuse` flags and `.headerflags` are ignored. A line that looks like an instruction but
does not parse is a located `CassError`.
"""

from __future__ import annotations

import re
from functools import lru_cache, partial

from cass.models.lift.ir import (
    CBank,
    FImm,
    Function,
    Imm,
    Instruction,
    Listing,
    Mem,
    Operand,
    Reg,
    Target,
)
from cass.runner.diagnostics import CassError

_ARCH = re.compile(r"(?:code for|\.target)\s+(sm_\d+a?)")
_FUNC_CUOBJDUMP = re.compile(r"^\s*Function\s*:\s*(\S+)\s*$")
_FUNC_NVDISASM = re.compile(r"^\s*\.text\.(\S+):\s*$")
_LABEL = re.compile(r"^\s*([.$\w]+):\s*$")
_INSN = re.compile(r"^\s*/\*([0-9a-fA-F]+)\*/\s*(.*?)\s*;?\s*(?:/\*\s*0x[0-9a-fA-F]+\s*\*/\s*)?$")
_ENCODING_ONLY = re.compile(r"^\s*/\*\s*0x[0-9a-fA-F]+\s*\*/\s*$")
_GUARD = re.compile(r"^@(!?)(U?P[0-6T])\s+")
_REG = re.compile(
    r"^(SB\d+|PR|UPR|RZ|R\d+|URZ|UR\d+|PT|P\d|UPT|UP\d|B\d+|SRZ|SR_[A-Za-z0-9_]+(?:\.[XYZ])?)((?:\.\w+)*)$"
)
_HEX = re.compile(r"^[+-]?0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"^[+-]?(?:\d+\.?\d*(?:e[+-]?\d+)?|INF|QNAN|NAN|SNAN)$", re.IGNORECASE)
_CBANK = re.compile(r"^c\[\s*(0x[0-9a-f]+)\s*\]\s*\[(.*)\]$")  # nvdisasm may print `c[0x3] [0x4]`
# What cuobjdump -sass and nvdisasm print besides instructions: directives (`.headerflags`,
# `.section`, `.target`), fatbin headers, rules and the dotted end-of-function lines.
_HEADER = re.compile(
    r"^\s*(?:\.|code for\s|Fatbin\s|(?:arch|code version|host|compile_size|producer|identifier"
    r"|ptxasOptions)\s*=|[=.-]{3,}\s*$|/\*.*\*/\s*$|[{}]\s*$)"
)
SUPPORTED_ARCHS = ("sm_80", "sm_86", "sm_89", "sm_90")
_BRANCHY = frozenset(
    {"BRA", "CALL", "BSSY", "BRX", "BRXU", "JMP", "JMX", "BREAK", "SSY", "PBK", "RET", "BPT"}
)


def parse_listing(text: str, path: str = "<input>") -> Listing:
    """Parse a SASS listing: its functions are found at once, each one's instructions read when
    first asked for (ir.Function: a bad line is reported then); instructions before any header
    form a function named `kernel`."""
    arch_match = _ARCH.search(text)
    functions: list[Function] = []
    preamble: list[tuple[int, str]] = []
    lines = preamble
    current: Function | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        if "Function" in raw or ".text." in raw:
            line = raw.split("//", 1)[0] if "//" in raw and "/*" not in raw else raw
            if m := _FUNC_CUOBJDUMP.match(line) or _FUNC_NVDISASM.match(line):
                current = Function(m.group(1), line=number)
                current.reader = partial(_read_function, path=path)  # picklable, unlike a lambda
                functions.append(current)
                lines = current.lines
                continue
        lines.append((number, raw))
        if current is not None:
            stripped = raw.lstrip()
            if stripped.startswith("/*") and stripped[2:3] in _HEX_DIGITS:
                current.size += 1
    if preamble:  # instructions before any header
        implicit = Function("kernel", line=preamble[0][0])
        implicit.lines = preamble
        _read_function(implicit, path)
        if implicit.instructions:
            implicit.line = implicit.instructions[0].line
            functions.insert(0, implicit)
    return Listing(arch_match.group(1) if arch_match else None, [f for f in functions if f.count()])


def _read_function(fn: Function, path: str) -> None:
    """Read `fn.lines` (a function's text after its header) into its instructions."""
    pending_labels: list[str] = []
    instructions: list[Instruction] = []
    for number, raw in fn.lines:
        line = raw.split("//", 1)[0] if "//" in raw and "/*" not in raw else raw
        stripped = line.lstrip()
        if stripped[2:3] in _HEX_DIGITS and stripped.startswith("/*"):
            if (found := _instruction_line(stripped)) or (m := _INSN.match(line)):
                address, body = found or (int(m.group(1), 16), m.group(2))
                _add_instruction(fn, instructions, address, body, pending_labels, number, path)
                continue
        elif stripped.startswith("/*") and stripped.rstrip().endswith("*/"):
            continue  # an encoding (`/* 0x... */`) or another comment line, as _HEADER skips it
        if not stripped or _ENCODING_ONLY.match(line):
            continue
        if m := _LABEL.match(line):
            pending_labels.append(m.group(1))
            continue
        m = _INSN.match(line)
        if not m:
            if _HEADER.match(line):
                continue  # directives, headers, section names
            raise CassError(
                f"{path}:{number}: cannot read this line as SASS: '{raw.strip()[:80]}' (expected "
                f"cuobjdump -sass or nvdisasm output for {', '.join(SUPPORTED_ARCHS)})"
            )
        _add_instruction(fn, instructions, int(m.group(1), 16), m.group(2), pending_labels,
                         number, path)  # fmt: skip
    fn.lines = []
    fn.instructions = [_resolve_labels(ins, fn, path) for ins in instructions]


def _instruction_line(stripped: str) -> tuple[int, str] | None:
    """(address, body) of the common instruction line `/*00d0*/  BODY ;  /* 0x... */` read
    without a regular expression (a third of the parse of a large listing), or None: _INSN then
    reads the line."""
    close = stripped.find("*/", 2)
    semi = stripped.rfind(";")
    if close < 3 or semi < close:
        return None
    after = stripped[semi + 1 :].strip()
    if after and not (after.startswith("/* 0x") and after.endswith("*/")):
        return None
    try:
        address = int(stripped[2:close], 16)
    except ValueError:
        return None
    return address, stripped[close + 2 : semi].strip()


def _add_instruction(fn: Function, instructions: list[Instruction], address: int, body: str,
                     pending_labels: list[str], number: int, path: str) -> None:  # fmt: skip
    for label in pending_labels:
        fn.labels[label] = address
    pending_labels.clear()
    instructions.append(parse_instruction(body, address, number, path))


def check_arch(arch: str | None, path: str) -> None:
    """CassError unless `arch` (None: unknown, accepted) is one the lifter reads."""
    if arch is not None and arch.removesuffix("a") not in SUPPORTED_ARCHS:
        raise CassError(
            f"{path}: SASS for {arch}; the lifter reads {', '.join(SUPPORTED_ARCHS)} SASS: "
            "rebuild the kernel for one of them (nvcc -arch=sm_80)"
        )


# texture dimensions and query kinds, printed as operands (`TEX.LL RZ, R5, R4, R6, UR4, 0x0, 2D`)
_KEYWORD = re.compile(r"(?:ARRAY_)?(?:[123]D|CUBE)|TEX_[A-Z_]+")
_OPCODE = re.compile(r"[A-Z][A-Z0-9_]*")
_HEX_DIGITS = frozenset("0123456789abcdefABCDEF")


def parse_instruction(body: str, address: int, line: int = 0, path: str = "<input>") -> Instruction:
    """One instruction body such as `@!P0 IMAD.WIDE R2, R9, 0x4, R2` (no trailing `;`)."""
    text = body.strip().rstrip(";").strip()
    guard = None
    if m := _GUARD.match(text):
        guard = Reg(m.group(2), invert=bool(m.group(1)))
        text = text[m.end() :]
    text = re.sub(r"\s+(`\([^)]*\)|0x[0-9a-f]+)\s*$", "", text) if text.startswith("RET") else text
    text = (
        re.sub(r"(\bR\d+)\s+0x0\s*$", r"\1", text) if text.startswith("CALL") else text
    )  # `CALL.REL.NOINC R6 0x0`
    if text.startswith(("BRX", "JMX")):
        text = _indirect_branch_text(text)
    head, _, rest = text.partition(" ")
    parts = head.split(".")
    opcode, mods = parts[0], tuple(parts[1:])
    if not _OPCODE.fullmatch(opcode):
        raise CassError(f"{path}:{line}: cannot read the SASS instruction '{body.strip()}'")
    tokens = split_operands(rest)
    keywords: tuple[str, ...] = ()
    # `2D`, `TEX_HEADER_DIMENSION`: rare in operands, so most instructions skip the scan
    if "D" in rest or "CUBE" in rest or "TEX_" in rest:
        keywords = tuple(
            t
            for t in tokens
            if t.endswith(("D", "CUBE")) or t.startswith("TEX_")
            if _KEYWORD.fullmatch(t)
        )
        mods += keywords
    try:
        operands = tuple(parse_operand(tok) for tok in tokens if tok not in keywords)
    except ValueError as exc:
        raise CassError(f"{path}:{line}: cannot read operand {exc} of '{body.strip()}'") from None
    if opcode in _BRANCHY and opcode not in ("BRX", "BRXU", "JMX"):
        operands = tuple(Target(o.value) if isinstance(o, Imm) and i == len(operands) - 1 else o
                         for i, o in enumerate(operands))  # fmt: skip
    return Instruction(address, opcode, mods, operands, guard, line, body.strip())


def _indirect_branch_text(text: str) -> str:
    """`BRX R12 -0x2e0 (*"BRANCH_TARGETS .L_x_36,.L_x_37"*)` -> `BRX R12, -0x2e0, `(.L_x_36), ...`:
    the register, the displacement from the next instruction, and the targets nvdisasm annotates."""
    targets = ""
    if m := re.search(r'\(\*"BRANCH_TARGETS\s+([^"]*)"\*\)', text):
        targets = "".join(f", `({t.strip()})" for t in m.group(1).split(",") if t.strip())
        text = text[: m.start()].rstrip()
    text = re.sub(r"\(\*.*?\*\)", "", text).rstrip()
    return re.sub(r"^(\S+\s+\S+)\s+([+-]?0x[0-9a-fA-F]+)$", r"\1, \2", text) + targets


def split_operands(rest: str) -> list[str]:
    """The comma-separated operands of `rest`; commas inside brackets or parentheses stay."""
    out: list[str] = []
    pending = ""
    for piece in rest.split(","):
        piece = pending + "," + piece if pending else piece
        if ("[" in piece or "(" in piece) and _opens_more(piece):
            pending = piece  # an operand such as `c[0x0][R2, 0x4]` continues after this comma
            continue
        pending = ""
        out.append(piece.strip())
    if pending.strip():
        out.append(pending.strip())
    if out and not out[-1]:
        out.pop()
    return out


def _opens_more(piece: str) -> bool:
    return piece.count("[") + piece.count("(") > piece.count("]") + piece.count(")")


@lru_cache(maxsize=1 << 16)  # operands repeat: the parse dominated lifting a large kernel
def parse_operand(tok: str) -> Operand:
    tok = tok.strip().replace(".reuse", "")
    if tok.startswith("`(") and tok.endswith(")"):
        return _LabelRef(tok[2:-1])
    neg = invert = absolute = False
    if tok.startswith("-") and not _HEX.match(tok) and not _FLOAT.match(tok):
        neg, tok = True, tok[1:]
    elif tok.startswith("~"):
        invert, tok = True, tok[1:]
    elif tok.startswith("!"):
        invert, tok = True, tok[1:]
    if tok.startswith("|") and tok.endswith("|"):
        absolute, tok = True, tok[1:-1]
    if m := _REG.match(tok):
        mods = [x for x in m.group(2).split(".") if x and x != "reuse"]
        wide = "64" in mods
        half = next((x for x in mods if x != "64"), "")
        return Reg(m.group(1), neg, absolute, invert, half, wide)
    if m := _CBANK.match(tok):
        inner = m.group(2)
        mem = _parse_address(inner)
        reg = None if mem.reg is None or mem.reg.is_zero else mem.reg
        return CBank(int(m.group(1), 16), mem.offset, reg, neg, absolute, invert)
    if _HEX.match(tok):
        value = int(tok, 16)
        return Imm(-value if neg else value)
    if _FLOAT.match(tok):
        return FImm(("-" if neg else "") + tok)
    if tok.startswith("desc["):
        close = tok.index("]")
        tok = tok[close + 1 :]
    if tok.startswith("[") and tok.endswith("]"):
        return _parse_address(tok[1:-1])
    raise ValueError(f"'{tok}'")


def _parse_address(inner: str) -> Mem:
    regs: list[Reg] = []
    offset, scale = 0, 1
    for term in inner.replace(" ", "").replace("-", "+-").split("+"):
        if not term:
            continue
        if _HEX.match(term):
            offset += int(term, 16)
            continue
        m = _REG.match(term)
        if not m:
            raise ValueError(f"'[{inner}]'")
        mods = [x for x in m.group(2).split(".") if x and x != "reuse"]
        scale = next((int(x[1:]) for x in mods if re.fullmatch(r"X\d+", x)), scale)
        regs.append(Reg(m.group(1), wide="64" in mods))
    vector = [r for r in regs if r.kind != "UR"]
    uniform = [r for r in regs if r.kind == "UR"]
    if not vector:
        return Mem(uniform[0] if uniform else None, offset, None, scale)
    return Mem(vector[0], offset, uniform[0] if uniform else None, scale)


class _LabelRef(Target):
    def __init__(self, name: str) -> None:
        super().__init__(-1)
        object.__setattr__(self, "name", name)


def _resolve_labels(ins: Instruction, fn: Function, path: str) -> Instruction:
    if not any(isinstance(o, _LabelRef) for o in ins.operands):
        return ins
    ops = []
    for o in ins.operands:
        if isinstance(o, _LabelRef):
            name = o.name  # type: ignore[attr-defined]
            if name not in fn.labels:
                if ins.opcode == "RET":
                    continue  # `RET.REL.NODEC R20 `(fn)` names the function, not a target
                raise CassError(f"{path}:{ins.line}: branch to unknown label '{name}'")
            o = Target(fn.labels[name])
        ops.append(o)
    return Instruction(ins.address, ins.opcode, ins.mods, tuple(ops), ins.guard, ins.line, ins.text)
