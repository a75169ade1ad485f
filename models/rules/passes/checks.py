"""Passes that only report: malformed input and constructs HIP cannot express."""

from __future__ import annotations

from cass.models.rules.tables import parse_version
from cass.models.rules.unit import Unit
from cass.runner.diagnostics import Severity


def report_lex_problems(unit: Unit) -> None:
    """Unterminated comments and literals, NUL bytes: errors at their place."""
    for problem in unit.lexed.problems:
        unit.report(problem.code, problem.offset, problem.offset + 1, problem.message)


def join_spaced_launch_brackets(unit: Unit) -> None:
    """`kernel << < grid, block >> > (args)`: nvcc reads spaced launch brackets (Rodinia writes
    them), clang only `<<<`/`>>>`. Each spaced pair after a callee is joined, as an info."""
    code = unit.code
    for i in unit.positions(("<<",)):
        if code[i].pp != -1 or i == 0 or i + 1 >= len(code) or code[i + 1].text != "<":
            continue
        if code[i - 1].kind != "ident" and code[i - 1].text != ">":
            continue
        texts = unit.lexed.texts
        close = next(
            (j for j in range(i + 2, len(code) - 2) if texts[j] in (">>", ";", "{", "}")), None
        )
        if (
            close is None
            or code[close].text != ">>"
            or code[close + 1].text != ">"
            or code[close + 2].text != "("
        ):
            continue
        if unit.replace(code[i].start, code[i + 1].end, "<<<") and unit.replace(
            code[close].start, code[close + 1].end, ">>>"
        ):
            inside = unit.text[code[i + 1].end : code[close].start]
            unit.report(
                "CASS081",
                code[i].start,
                code[close + 1].end,
                "spaced kernel-launch brackets `<< <` / `>> >` joined into `<<<` / `>>>` (clang reads only those)",
                fix=("Join the launch brackets (nvcc reads both)", f"<<<{inside}>>>"),
            )


def check_launch_brackets(unit: Unit) -> None:
    """Every `<<<` needs a `>>>` before the end of its statement; device-side launches are errors."""
    code = unit.code
    for i in unit.positions(("<<<",)):
        tok = code[i]
        if tok.pp != -1:
            continue
        close = unit.matching(i)
        texts = unit.lexed.texts
        stop = next((j for j in range(i + 1, len(code)) if texts[j] in (";", "{", "}")), len(code))
        if close is None or close > stop:
            unit.report(
                "CASS004",
                tok.start,
                tok.end,
                "kernel launch `<<<` has no matching `>>>` in this statement",
            )
            continue
        if unit.in_device(i):
            name = code[i - 1].text if i else "kernel"
            unit.report(
                "CASS070",
                code[i - 1].start if i else tok.start,
                code[close].end,
                f"`{name}<<<...>>>` launches a kernel from device code (dynamic parallelism), "
                "which HIP does not support; launch it from the host or inline the work",
            )


def check_device_side_synchronize(unit: Unit) -> None:
    """`cudaDeviceSynchronize()` inside device code: the host-only `hipDeviceSynchronize` would
    not compile there (and CUDA 12 removed the device-side call too): an error at the call."""
    for i in unit.positions(("cudaDeviceSynchronize",)):
        tok = unit.code[i]
        if tok.pp == -1 and unit.next_text(i) == "(" and unit.in_device(i):
            unit.report(
                "CASS075",
                tok.start,
                tok.end,
                "`cudaDeviceSynchronize()` in device code has no HIP counterpart "
                "(hipDeviceSynchronize is host-only): synchronise on the host after the launch",
            )


# cudaDeviceProp members that HIP 5.2's hipDeviceProp_t lacks (compared field by field with
# /usr/include/hip/hip_runtime_api.h; deviceOverlap is from CUDA before 13). Generic names such as
# `uuid` or `reserved` are left out: a member access alone does not say the struct is a cudaDeviceProp.
MISSING_DEVICE_PROP_MEMBERS = frozenset({
    "deviceOverlap", "asyncEngineCount", "accessPolicyMaxWindowSize", "canUseHostPointerForRegisteredMem",
    "computePreemptionSupported", "globalL1CacheSupported", "localL1CacheSupported",
    "hostNativeAtomicSupported", "maxBlocksPerMultiProcessor", "persistingL2CacheMaxSize",
    "regsPerMultiprocessor", "sharedMemPerBlockOptin", "sharedMemPerMultiprocessor",
    "streamPrioritiesSupported", "unifiedAddressing", "memoryPoolsSupported", "ipcEventSupported",
    "multiGpuBoardGroupID", "surfaceAlignment", "gpuDirectRDMASupported", "hostRegisterSupported",
})  # fmt: skip


def check_device_prop_members(unit: Unit) -> None:
    """`prop.deviceOverlap` and the other cudaDeviceProp members hipDeviceProp_t lacks in HIP 5.x:
    the port would not compile (or a helper would print a field HIP never fills), so each access
    is an error naming the member; HIP 6 added most of them to hipDeviceProp_t."""
    if parse_version(unit.target.hip_version) >= (6, 0):
        return
    for i in unit.positions(tuple(MISSING_DEVICE_PROP_MEMBERS)):
        tok = unit.code[i]
        if tok.text == "deviceOverlap" and _read_as_constant(unit, i, "1"):
            continue
        if unit.prev_text(i) in (".", "->"):
            unit.report(
                "CASS080",
                tok.start,
                tok.end,
                f"`{tok.text}` is a cudaDeviceProp member that hipDeviceProp_t lacks in HIP "
                f"{unit.target.hip_version}: use hipDeviceGetAttribute where HIP has the attribute, "
                "or a value you choose (AMD GPUs overlap copies with kernels)",
            )


_WRITES = frozenset(("=", "+=", "-=", "*=", "/=", "|=", "&=", "^=", "<<=", ">>=", "++", "--"))


def _read_as_constant(unit: Unit, i: int, value: str) -> bool:
    """`prop.deviceOverlap` (or `p->deviceOverlap`, `props[d].deviceOverlap`) read, not written:
    replace the whole member access by `value` (what every AMD GPU reports) and warn."""
    texts = unit.lexed.texts
    start = _object_start(texts, i - 1)
    if start is None or unit.next_text(i) in _WRITES or unit.prev_text(start) in ("&", "++", "--"):
        return False
    first, tok = unit.code[start], unit.code[i]
    expression = unit.slice(first, tok)
    if not unit.replace(first.start, tok.end, value):
        return False
    unit.report(
        "CASS080",
        first.start,
        tok.end,
        f"`{expression}`: hipDeviceProp_t has no `{tok.text}` in HIP {unit.target.hip_version}; "
        f"AMD GPUs copy between host and device while kernels run, so the port reads {value}",
        severity=Severity.WARNING,
    )
    return True


def _object_start(texts: list[str], dot: int) -> int | None:
    """Index of the first token of the object expression before the `.`/`->` at `dot`: an
    identifier chain with subscripts (`a.b[i]->c`); None for anything else (calls, casts)."""
    if texts[dot] not in (".", "->"):
        return None
    k = dot - 1
    while k >= 0:
        if texts[k] == "]":
            depth = 0
            while k >= 0:
                depth += {"]": 1, "[": -1}.get(texts[k], 0)
                if depth == 0:
                    break
                k -= 1
            k -= 1
            continue
        if not (texts[k][:1].isalpha() or texts[k][:1] == "_"):
            return None
        if k >= 1 and texts[k - 1] in (".", "->"):
            k -= 2
            continue
        return k
    return None


def check_constant_warp_size(unit: Unit) -> None:
    """HIP 7 made `warpSize` a run-time value: `T a[warpSize]`, `f<warpSize>()` stop compiling."""
    if parse_version(unit.target.hip_version) < (7, 0):
        return
    for i in unit.positions(("warpSize",)):
        prev, nxt = unit.prev_text(i), unit.next_text(i)
        if (prev == "[" and nxt == "]") or (
            prev in ("<", ",") and nxt in (">", ",") and unit.code[i].pp == -1
        ):
            tok = unit.code[i]
            unit.report(
                "CASS032",
                tok.start,
                tok.end,
                "`warpSize` as a constant expression does not compile "
                f"with HIP {unit.target.hip_version}; use a constant or a run-time size",
            )


def map_thrust_execution_policy(unit: Unit) -> None:
    """`thrust::cuda::par.on(s)` -> `thrust::hip::par.on(s)` (rocThrust's policy namespace)."""
    for i in unit.positions(("cuda",)):
        if (
            unit.prev_text(i) == "::"
            and unit.prev_text(i, 2) == "thrust"
            and unit.next_text(i) == "::"
        ):
            tok = unit.code[i]
            unit.replace(tok.start, tok.end, "hip")


def _once_per_line(unit: Unit, code: str, tok_start: int, seen: set[tuple[str, int]]) -> bool:
    line = unit.position(tok_start)[0]
    if (code, line) in seen:
        return False
    seen.add((code, line))
    return True


def report_unportable(unit: Unit) -> None:
    """Surface references, libcu++ `cuda::`, `nvcuda::wmma` (what passes/wmma.py left): errors,
    never silence. (Texture references port: passes/textures.py.)"""
    code, seen = unit.code, set()
    for i in unit.positions(("surface", "cuda", "nvcuda", "wmma")):
        if unit.is_edited(code[i]):  # taken by passes/wmma.py (ported or reported)
            continue
        tok = code[i]
        nxt, prev = unit.next_text(i), unit.prev_text(i)
        if tok.text == "surface" and nxt == "<" and prev not in (".", "->", "::"):
            if _once_per_line(unit, "CASS071", tok.start, seen):
                unit.report(
                    "CASS071",
                    tok.start,
                    tok.end,
                    "`surface<...>` reference: HIP has no surface references; use surface "
                    "objects (cudaSurfaceObject_t -> hipSurfaceObject_t)",
                )
        elif tok.text == "cuda" and nxt == "::" and prev not in ("::", ".", "->"):
            if tok.pp == -1 and _once_per_line(unit, "CASS072", tok.start, seen):
                unit.report(
                    "CASS072",
                    tok.start,
                    code[i + 1].end,
                    "`cuda::` (libcu++) has no HIP counterpart; use std:: or HIP atomics",
                )
        elif (
            tok.text in ("nvcuda", "wmma")
            and nxt == "::"
            and prev != "::"
            and _once_per_line(unit, "CASS073", tok.start, seen)
        ):
            unit.report(
                "CASS073",
                tok.start,
                code[i + 1].end,
                f"`{tok.text}::` warp-matrix code has no direct HIP mapping; rewrite with rocWMMA",
            )
