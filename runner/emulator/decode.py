"""Instruction decoding through the real LLVM decoder: `llvm-objdump-16 -d --mcpu=gfx1100`.

Each line becomes an `Instruction` (address, size, mnemonic, parsed operands, modifiers). The
disassembly of a code object is cached on disk, keyed by the hash of the ELF bytes; an entry
whose own hash line does not match its text is recomputed.
"""

from __future__ import annotations

import hashlib
import re
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from cass.runner.diagnostics import CassError
from cass.runner.emulator.kinds import EMULATED_GFX_ARCH
from cass.runner.outputs import write_atomic

OBJDUMP = "llvm-objdump-16"
_LINE = re.compile(r"^\s+(\S.*?)\s*//\s*([0-9A-Fa-f]+):((?:\s[0-9A-Fa-f]{8})+)")
_SREG_NAMES = {
    "vcc_lo": 106,
    "vcc_hi": 107,
    "vcc": 106,
    "null": 124,
    "m0": 125,
    "exec_lo": 126,
    "exec_hi": 127,
    "exec": 126,
}
_SREG_PAIRS = {"vcc", "exec"}
SPECIAL_CONSTS = {
    "src_shared_base": 1 << 48,
    "src_private_base": 2 << 48,
    "src_shared_limit": (1 << 48) | 0xFFFFFFFF,
    "src_private_limit": (2 << 48) | 0xFFFFFFFF,
}
_REG = re.compile(r"^([sv])(?:(\d+)|\[(\d+):(\d+)\])$")
_INT = re.compile(r"^-?(0x[0-9a-fA-F]+|\d+)$")
_MODIFIER = re.compile(r"^[a-z][a-z_0-9]*:")
_FLOAT = re.compile(r"^-?\d+\.\d+(e[-+]?\d+)?$")


@dataclass
class Operand:
    kind: str  # "v", "s", "int", "float", "special", "off", "scc", "lit", "vlist"
    index: int = 0
    count: int = 1
    value: float | int = 0
    neg: bool = False
    abs: bool = False
    text: str = ""
    regs: tuple[int, ...] = ()  # "vlist": the VGPRs of an NSA image address, `[v2, v6, v8]`


@dataclass
class Instruction:
    pc: int
    size: int
    words: tuple[int, ...]
    text: str
    mnemonic: str
    operands: list[Operand] = field(default_factory=list)
    modifiers: dict[str, str] = field(default_factory=dict)
    second: Instruction | None = None  # the Y half of a VOPD pair

    @property
    def op(self) -> str:
        """Mnemonic without the encoding suffix (`v_add_f32_e32` -> `v_add_f32`)."""
        cached = self.__dict__.get("_op")
        if cached is None or cached[0] != self.mnemonic:
            base = self.mnemonic
            for suffix in ("_e32", "_e64", "_dpp", "_sdwa"):
                if base.endswith(suffix):
                    base = base[: -len(suffix)]
                    break
            cached = self.__dict__["_op"] = (self.mnemonic, base)
        return cached[1]


def parse_operand(token: str) -> Operand:
    token = token.strip()
    neg = False
    if token.startswith("-") and not _INT.match(token) and not _FLOAT.match(token):
        neg, token = True, token[1:]
    absolute = False
    if token.startswith("|") and token.endswith("|"):
        absolute, token = True, token[1:-1]
    elif token.startswith("abs(") and token.endswith(")"):
        absolute, token = True, token[4:-1]
    if token.startswith("neg(") and token.endswith(")"):
        neg, token = True, token[4:-1]
    op = _plain_operand(token)
    op.neg, op.abs, op.text = neg, absolute, token
    return op


def _plain_operand(token: str) -> Operand:
    if token.startswith("[v") and token.endswith("]"):  # MIMG non-sequential address
        regs = tuple(_plain_operand(t.strip()).index for t in token[1:-1].split(","))
        return Operand("vlist", regs[0], len(regs), regs=regs)
    m = _REG.match(token)
    if m:
        if m.group(2) is not None:
            return Operand(m.group(1), int(m.group(2)), 1)
        lo, hi = int(m.group(3)), int(m.group(4))
        return Operand(m.group(1), lo, hi - lo + 1)
    if token in _SREG_NAMES:
        return Operand("s", _SREG_NAMES[token], 2 if token in _SREG_PAIRS else 1)
    if token in ("off",):
        return Operand("off")
    if token in ("scc", "src_scc"):
        return Operand("scc")
    if token in SPECIAL_CONSTS:
        return Operand("special", value=SPECIAL_CONSTS[token])
    if _INT.match(token):
        return Operand("int", value=int(token, 0))
    if _FLOAT.match(token):
        return Operand("float", value=float(token))
    if token.startswith("lit(") and token.endswith(")"):
        return Operand("int", value=int(token[4:-1], 0))
    raise ValueError(f"cannot parse operand {token!r}")


def _split_top(text: str) -> list[str]:
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def _split_modifiers(parts: list[str]) -> tuple[list[str], dict[str, str]]:
    """`a, b, c offset:16 glc` -> operands [a, b, c], modifiers {offset: 16, glc: ''}."""
    mods: dict[str, str] = {}
    if not parts:
        return parts, mods
    # modifiers follow the last operand, separated by spaces (brackets may hold commas)
    words = re.findall(r"\S+\[[^\]]*\]\S*|\S+", parts[-1])
    head = words[:1]
    for w in words[1:]:
        key, _, value = w.partition(":")
        mods[key] = value
    if head and _MODIFIER.match(head[0]):
        key, _, value = head[0].partition(":")
        mods[key] = value
        head = []
    return parts[:-1] + head, mods


def parse_text(text: str, pc: int = 0, words: tuple[int, ...] = ()) -> Instruction:
    if " :: " in text:
        x_text, y_text = text.split(" :: ", 1)
        ins = parse_text(x_text, pc, words)
        ins.second = parse_text(y_text, pc, words)
        ins.text = text
        return ins
    mnemonic, _, rest = text.strip().partition(" ")
    ins = Instruction(pc, 4 * max(len(words), 1), words, text.strip(), mnemonic)
    if mnemonic.startswith(
        (
            "s_waitcnt",
            "s_delay_alu",
            "s_sendmsg",
            "s_clause",
            "s_nop",
            "s_set_inst_prefetch",
            "s_code_end",
            "s_endpgm",
            "s_barrier",
        )
    ):
        ins.modifiers["raw"] = rest
        return ins
    parts, ins.modifiers = _split_modifiers(_split_top(rest))
    ins.operands = [parse_operand(p) for p in parts]
    return ins


_CACHE_TAG = "# cass disassembly, sha256 of the rest: "


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", errors="surrogateescape")).hexdigest()


def read_cached_disassembly(path: Path) -> str | None:
    """A cache entry's listing when its first line's hash matches the rest; None otherwise (a
    truncated, edited or old-format entry is recomputed, never trusted)."""
    try:
        data = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return None
    head, newline, body = data.partition("\n")
    if not newline or head != _CACHE_TAG + _digest(body):
        return None
    return body


def disassemble_text(elf: bytes, cache_dir: Path | None) -> str:
    key = hashlib.sha256(elf).hexdigest()[:24]
    cached = cache_dir / f"disasm-{key}.txt" if cache_dir else None
    if cached is not None and (listing := read_cached_disassembly(cached)) is not None:
        return listing
    with tempfile.NamedTemporaryFile(suffix=".co") as tmp:
        tmp.write(elf)
        tmp.flush()
        try:
            proc = subprocess.run(
                [OBJDUMP, "-d", f"--mcpu={EMULATED_GFX_ARCH}", tmp.name],
                capture_output=True,
                text=True,
                timeout=300,
                check=False,
            )
        except FileNotFoundError as exc:
            raise CassError(f"{OBJDUMP} is not installed (run `make setup`)") from exc
    if proc.returncode != 0:
        raise CassError(f"{OBJDUMP} could not decode the code object: {proc.stderr.strip()}")
    if cached is not None:
        try:
            write_atomic(cached, _CACHE_TAG + _digest(proc.stdout) + "\n" + proc.stdout)
        except CassError:
            pass  # a cache that cannot be written only costs the next run a disassembly
    return proc.stdout


def parse_listing(listing: str) -> dict[int, Instruction]:
    program: dict[int, Instruction] = {}
    for line in listing.splitlines():
        m = _LINE.match(line)
        if not m:
            continue
        pc = int(m.group(2), 16)
        words = tuple(int(w, 16) for w in m.group(3).split())
        text = m.group(1)
        try:
            program[pc] = parse_text(text, pc, words)
        except ValueError as exc:
            bad = Instruction(pc, 4 * len(words), words, text, "<unparsed>")
            bad.modifiers["error"] = str(exc)
            program[pc] = bad
    return program
