"""CUDA inside the program text given to NVRTC: ported where the file holds it as a literal.

`nvrtcCreateProgram(&prog, source, ...)` compiles `source` when the program runs; after the port
hipRTC compiles it, as HIP. When `source` is a string literal (raw or ordinary, concatenated or
not) written in the call or as the initializer of the variable the call names (`kernels`,
`kernels.c_str()`), the text inside it is ported by the same pipeline as the file, without the
HIP include the prelude would add (hipRTC includes the HIP runtime itself): `__shfl_down_sync`
becomes `__shfl_down`, `<cuda_fp16.h>` `<hip/hip_fp16.h>`, and so on. Each diagnostic of that port
is reported at its place inside the literal. Program text the file does not hold as a literal
(read from a file, built at run time) is reported where the call names it (CASS091): hipRTC will
compile it as HIP, so it must be ported where it lives.
"""

from __future__ import annotations

import re

from cass.models.rules.unit import Unit
from cass.runner.diagnostics import Severity

CREATE = frozenset(("nvrtcCreateProgram",))
COMPILE = frozenset(("nvrtcCompileProgram",))
# NVRTC option spellings -> the clang spelling hipRTC passes on (None: no hipRTC counterpart).
_RESPELLED: dict[str, str | None] = {
    "--use_fast_math": "-ffast-math",
    "-use_fast_math": "-ffast-math",
    "--fmad=true": "-ffp-contract=fast",
    "-fmad=true": "-ffp-contract=fast",
    "--fmad=false": "-ffp-contract=off",
    "-fmad=false": "-ffp-contract=off",
    "--device-debug": "-g",
    "-G": "-g",
    "-default-device": None,
    "--device-as-default-execution-space": None,
    "-lineinfo": None,
    "--generate-line-info": None,
    "--extensible-whole-program": None,
    "-ewp": None,
}
_RESPELLED_PREFIX = {
    "--std=": "-std=",
    "--define-macro=": "-D",
    "--include-path=": "-I",
    "--undefine-macro=": "-U",
    "--maxrregcount=": None,
    "-maxrregcount=": None,
}
# An NVRTC option naming an NVIDIA architecture: whole (rewritten) or the start of one the program
# completes at run time (reported).
_ARCH_OPTION = re.compile(r"^(?:--gpu-architecture|-arch)[= ]?(?:compute|sm|lto)_(\d*)[a-z]?$")
_ESCAPE = re.compile(r"\\(x[0-9a-fA-F]+|[0-7]{1,3}|.)", re.DOTALL)
_SIMPLE = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v", "0": "\0"}
_RAW = re.compile(r'^(?:u8|u|U|L)?R"([^(]*)\(', re.DOTALL)
_PREFIX = re.compile(r'^(?:u8|u|U|L)?"')


def decode(unit: Unit, pieces: list[int]) -> tuple[str, list[int]]:
    """The text of the literal tokens at `pieces` (concatenated) and, per character (plus one past
    the end), the file offset it came from."""
    chars: list[str] = []
    origin: list[int] = []
    for i in pieces:
        tok = unit.code[i]
        raw = _RAW.match(tok.text)
        if raw:
            body_start = tok.start + raw.end()
            body = tok.text[raw.end() : len(tok.text) - len(raw.group(1)) - 2]
            chars.extend(body)
            origin.extend(range(body_start, body_start + len(body)))
            continue
        head = _PREFIX.match(tok.text)
        at = head.end() if head else 1
        body = tok.text[at:-1]
        pos = 0
        for m in _ESCAPE.finditer(body):
            chars.extend(body[pos : m.start()])
            origin.extend(range(tok.start + at + pos, tok.start + at + m.start()))
            chars.append(_unescape(m.group(1)))
            origin.append(tok.start + at + m.start())
            pos = m.end()
        chars.extend(body[pos:])
        origin.extend(range(tok.start + at + pos, tok.start + at + len(body)))
    end = unit.code[pieces[-1]].end if pieces else 0
    return "".join(chars), [*origin, end]


def _unescape(seq: str) -> str:
    if seq in _SIMPLE:
        return _SIMPLE[seq]
    if seq[0] == "x":
        return chr(int(seq[1:], 16) & 0xFF)
    if seq[0] in "01234567":
        return chr(int(seq, 8) & 0xFF)
    return seq  # \\ \" \' \?


def encode(text: str, tokens: list[str], separator: str) -> str:
    """`text` as literal source in the style of the original `tokens`: one raw literal with the
    same delimiter when that was one (and still fits), one ordinary literal for one, else one
    ordinary literal per line."""
    raw = _RAW.match(tokens[0]) if len(tokens) == 1 else None
    if raw and f'){raw.group(1)}"' not in text:
        return f'{raw.group(0)}{text}){raw.group(1)}"'
    if len(tokens) == 1:  # one literal stays one literal
        return f'"{_escape(text)}"'
    lines = text.splitlines(keepends=True) or [""]
    return separator.join(f'"{_escape(line)}"' for line in lines)


def _escape(line: str) -> str:
    out = []
    for ch in line:
        if ch in '\\"':
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 32:
            out.append(f"\\{ord(ch):03o}")
        else:
            out.append(ch)
    return "".join(out)


def _literal_run(unit: Unit, first: int, last: int) -> list[int] | None:
    """The token indices in [first, last] when they are all string literals, else None."""
    kinds = [unit.code[i].kind for i in range(first, last + 1)]
    if all(k in ("string", "raw") for k in kinds):
        return list(range(first, last + 1))
    return None


def _initializer(unit: Unit, name: str, before: int) -> list[int] | None:
    """The literal tokens initializing variable `name` (`... name = "..." "...";`, `name[] =`,
    `name(R"(...)")`, `name{...}`), declared before token `before`."""
    code = unit.code
    for i in reversed(unit.positions((name,))):
        if i >= before or code[i].kind != "ident":
            continue
        j = i + 1
        if unit.next_text(i) == "[":
            j = (unit.matching(i + 1) or i) + 1
        if j >= len(code) or code[j].text not in ("=", "(", "{"):
            continue
        start = j + 1
        end = start
        while end < len(code) and code[end].kind in ("string", "raw"):
            end += 1
        if end > start and end < len(code) and code[end].text in (";", ")", "}", ","):
            return list(range(start, end))
    return None


def _source_literal(unit: Unit, first: int, last: int) -> list[int] | None:
    run = _literal_run(unit, first, last)
    if run:
        return run
    code = unit.code
    if code[first].kind == "ident":
        tail = [code[k].text for k in range(first + 1, last + 1)]
        if tail in ([], [".", "c_str", "(", ")"], [".", "data", "(", ")"]):
            return _initializer(unit, code[first].text, first)
    return None


def _inner_port(unit: Unit, text: str):
    from cass.models.rules.shims import MARKER, render_shims

    if unit.port_embedded is None:  # a unit made outside the engine: nothing to port it with
        raise RuntimeError("Unit.port_embedded is not set: port through engine.port_unit")
    inner = unit.port_embedded(text)
    out = inner.render()
    defines = "".join(f"#define {name}\n" for name in inner.defines)
    shims = render_shims(inner.shims, "\n") if inner.shims and MARKER not in text else ""
    return inner, defines + shims + out


def port_runtime_sources(unit: Unit) -> None:
    """Port the CUDA in the program text (and in-memory headers) each `nvrtcCreateProgram` call
    compiles, and the NVIDIA architecture options of a file that calls `nvrtcCompileProgram`."""
    if unit.positions(COMPILE):
        _port_arch_options(unit)
    done: set[int] = set()
    for i in unit.positions(CREATE):
        if unit.code[i].kind != "ident" or unit.next_text(i) != "(":
            continue
        parsed = unit.call_args(i + 1)
        if parsed is None or len(parsed[0]) < 2:
            continue
        first, last = parsed[0][1]
        pieces = _source_literal(unit, first, last)
        if pieces is None:
            unit.report(
                "CASS091",
                unit.code[first].start,
                unit.code[last].end,
                f"the program text `{unit.slice(unit.code[first], unit.code[last])}` is not a "
                "string literal in this file, so cass cannot port it: hipRTC compiles it as "
                "HIP, so port the CUDA in it where it is written (`cass port` on that file)",
            )
            continue
        found = [pieces]
        if len(parsed[0]) >= 5:
            found += _header_literals(unit, *parsed[0][4])
        for run in found:
            if run[0] not in done:
                done.add(run[0])
                _port_literal(unit, run)


def _header_literals(unit: Unit, first: int, last: int) -> list[list[int]]:
    """The literal runs of the in-memory headers argument: `&name` of a literal variable, or an
    array whose initializer lists literals or such variables (others are left as they are)."""
    code = unit.code
    if code[first].text == "&" and last == first + 1 and code[last].kind == "ident":
        run = _initializer(unit, code[last].text, first)
        return [run] if run else []
    if first != last or code[first].kind != "ident":
        return []
    name = code[first].text
    for i in reversed(unit.positions((name,))):
        if i >= first or unit.next_text(i) != "[":
            continue
        j = (unit.matching(i + 1) or i) + 1
        if unit.next_text(j - 1) != "=" or unit.next_text(j) != "{":
            continue
        close = unit.matching(j + 1)
        if close is None:
            return []
        runs, k = [], j + 2
        while k < close:
            end = k
            while end < close and code[end].text != ",":
                end += 1
            run = _source_literal(unit, k, end - 1) if end > k else None
            if run:
                runs.append(run)
            k = end + 1
        return runs
    return []


def _port_literal(unit: Unit, pieces: list[int]) -> None:
    text, origin = decode(unit, pieces)
    inner, ported = _inner_port(unit, text)
    starts = [0] + [m.end() for m in re.finditer(r"\r\n|\r|\n", text)]
    for d in inner.diagnostics:
        at = min(starts[d.line - 1] + d.column - 1, len(text))
        end_line = d.end_line or d.line
        end = min(starts[end_line - 1] + (d.end_column or d.column) - 1, len(text))
        unit.report(
            d.code,
            origin[at],
            max(origin[end], origin[at]),
            f"in the program text compiled at run time: {d.message}",
            severity=d.severity,
        )
    if ported == text:
        return
    first, last = unit.code[pieces[0]], unit.code[pieces[-1]]
    between = unit.text[first.end : unit.code[pieces[1]].start] if len(pieces) > 1 else "\n"
    separator = between if between.strip() == "" else "\n"
    unit.replace(
        first.start, last.end, encode(ported, [unit.code[k].text for k in pieces], separator)
    )


def _port_arch_options(unit: Unit) -> None:
    """`"--gpu-architecture=compute_90"` -> `"--gpu-architecture=gfx1100"` (the target's gfx name:
    hipRTC compiles for an AMD GPU); a literal the program completes (`"-arch=sm_" + ...`) is
    reported, as the program cannot compile its kernels for an AMD GPU with it."""
    gfx = unit.target.gfx_arch
    for tok in unit.code:
        if tok.kind != "string" or not tok.text.startswith('"'):
            continue
        m = _ARCH_OPTION.match(tok.text[1:-1])
        if m is None:
            _respell_option(unit, tok)
            continue
        if m.group(1):  # the whole option
            if unit.replace(tok.start, tok.end, f'"--gpu-architecture={gfx}"'):
                unit.report(
                    "CASS092",
                    tok.start,
                    tok.end,
                    f'NVRTC option {tok.text} -> "--gpu-architecture={gfx}": hipRTC compiles '
                    f"for the AMD target (cass port --arch)",
                )
            continue
        unit.report(
            "CASS092",
            tok.start,
            tok.end,
            f"NVRTC option {tok.text} is completed with an NVIDIA architecture when the program "
            f'runs; hipRTC needs an AMD one: pass "--gpu-architecture={gfx}" (or the gfx name '
            "hipDeviceProp_t::gcnArchName gives) instead",
        )


def _respell_option(unit: Unit, tok) -> None:
    """An NVRTC-only option string -> its clang spelling (CASS093, info), or a warning when hipRTC
    has none (the option is left for the author to remove)."""
    text = tok.text[1:-1]
    if text in _RESPELLED:
        hip = _RESPELLED[text]
    else:
        prefix = next((p for p in _RESPELLED_PREFIX if text.startswith(p)), None)
        if prefix is None:
            return
        spelled = _RESPELLED_PREFIX[prefix]
        hip = None if spelled is None else spelled + text[len(prefix) :]
    if hip is None:
        unit.report(
            "CASS093",
            tok.start,
            tok.end,
            f"NVRTC option {tok.text} has no hipRTC counterpart: remove it (hipRTC reports an "
            "option it does not know as HIPRTC_ERROR_INVALID_OPTION)",
        )
    elif unit.replace(tok.start, tok.end, f'"{hip}"'):
        unit.report(
            "CASS093",
            tok.start,
            tok.end,
            f'NVRTC option {tok.text} -> "{hip}" (hipRTC takes clang\'s spelling)',
            severity=Severity.INFO,
        )
