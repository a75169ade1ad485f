"""Differential verification: build both sides, run both, compare, give a verdict.

    verify(original.cu, port.hip) -> Verdict(status, mismatches, runtime_ratio, memory_ratio, ...)

The pipeline, top to bottom: read the spec -> choose a backend per side (real hardware first) ->
build both (in parallel) -> run both (in parallel) -> compare -> measure ratios -> verdict.
Statuses: `match` (exit 0), `mismatch` and `error` (the port is wrong or does not build: exit 1),
`unverifiable` (no backend, no or stale record, or the original itself fails — exits with another
code than its spec's `expected_exit_code`, 0 by default, crashes or times out: exit 2).
"""

from __future__ import annotations

import os
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Literal

from cass.runner.backends import Backend, BuildFailed, Unavailable, choose_backend
from cass.runner.compare import Mismatch, compare_results, tolerance_rule
from cass.runner.diagnostics import CassError, Diagnostic
from cass.runner.results import RunResult
from cass.runner.spec import RunSpec, load_run_spec

Status = Literal["match", "mismatch", "error", "unverifiable"]
HARDWARE = frozenset(
    {"nvidia", "recorded", "rocm"}
)  # backends whose timings mean wall time on a GPU


@dataclass(frozen=True)
class Verdict:
    status: Status
    mismatches: list[Mismatch]
    runtime_ratio: float | None
    memory_ratio: float | None
    backends: tuple[str, str]
    reference: RunResult | None
    candidate: RunResult | None
    message: str
    diagnostics: tuple[Diagnostic, ...] = ()
    original: str = ""
    port: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)  # e.g. why a backend was passed over

    @property
    def accepted(self) -> bool:
        return self.status == "match"

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "message": self.message,
            "original": self.original,
            "port": self.port,
            "backends": list(self.backends),
            "mismatches": [m.to_dict() for m in self.mismatches],
            "runtime_ratio": self.runtime_ratio,
            "memory_ratio": self.memory_ratio,
            "reference": self.reference.to_dict() if self.reference else None,
            "candidate": self.candidate.to_dict() if self.candidate else None,
            "diagnostics": [d.to_dict() for d in self.diagnostics],
            "notes": list(self.notes),
        }


def _check_file(path: Path, what: str) -> None:
    if not path.is_file():
        raise CassError(f"{path}: no such {what} file")


def verify(
    original: Path,
    candidate: Path,
    spec: RunSpec | None = None,
    *,
    backends: tuple[str | None, str | None] | None = None,
) -> Verdict:
    """Build and run `original` (CUDA) and `candidate` (HIP) and judge whether they agree."""
    original, candidate = Path(original), Path(candidate)
    _check_file(original, "original CUDA")
    _check_file(candidate, "port")
    spec = spec or load_run_spec(original)
    if spec.base_dir is None:  # input files are relative to the original's folder
        spec = spec.replace(base_dir=str(original.resolve().parent))
    wanted = backends or (None, None)
    base = dict(original=str(original), port=str(candidate))
    missing = [
        str(spec.resolve_input(n)) for n in spec.input_files if not spec.resolve_input(n).is_file()
    ]
    if missing:
        message = f"input file(s) of the run spec not found: {', '.join(missing)}; add them or fix `input_files`"
        return _verdict(
            "unverifiable", message, (_named(wanted[0]) or "?", _named(wanted[1]) or "?"), **base
        )
    names = [_named(w) or "?" for w in wanted]
    try:
        ref_backend, ref_notes = choose_backend("cuda", _named(wanted[0]))
        names[0] = ref_backend.name
        cand_backend, cand_notes = choose_backend("hip", _named(wanted[1]))
        names[1] = cand_backend.name
        ref_backend.preflight(original, spec)
        cand_backend.preflight(candidate, spec)
    except Unavailable as exc:
        return _verdict("unverifiable", exc.message, (names[0], names[1]), **base)
    notes = tuple(ref_notes + cand_notes) + _reference_library_notes(cand_backend.name, candidate)
    with tempfile.TemporaryDirectory(prefix="cass-verify-") as work:
        return _build_run_compare(
            original, candidate, spec, (ref_backend, cand_backend), Path(work), notes, base
        )


def _reference_library_notes(backend: str, port: Path) -> tuple[str, ...]:
    """On the emulator, the HIP math libraries a port calls run as cass's own code: say so."""
    if backend != "emulator":
        return ()
    from cass.runner import emulated_libraries

    text = port.read_text(encoding="utf-8", errors="replace")
    used = emulated_libraries.needed(text)
    notes = (emulated_libraries.describe(used),) if used else ()
    if emulated_libraries.HIPRTC_INCLUDE.search(text):
        notes += (emulated_libraries.HIPRTC_NOTE,)
    return notes


def _named(name: str | None) -> str | None:
    return None if name in (None, "", "auto") else name


def _verdict(status: Status, message: str, backends: tuple[str, str], **extra: Any) -> Verdict:
    fields_ = dict(
        mismatches=[], runtime_ratio=None, memory_ratio=None, reference=None, candidate=None
    )
    fields_.update(extra)
    return Verdict(status=status, message=message, backends=backends, **fields_)


def _build(backend: Backend, source: Path, work: Path) -> Any:
    folder = work / backend.side
    folder.mkdir()
    return backend.build(source, folder)


def _both(pool: ThreadPoolExecutor, fn: Any, args_ref: tuple, args_cand: tuple) -> tuple[Any, Any]:
    """Run fn on both sides at once; results (or the exceptions they raised)."""
    futures = [pool.submit(fn, *args_ref), pool.submit(fn, *args_cand)]
    out = []
    for future in futures:
        try:
            out.append(future.result())
        except CassError as exc:
            out.append(exc)
    return out[0], out[1]


def _build_run_compare(
    original: Path, candidate: Path, spec: RunSpec, pair: tuple[Backend, Backend],
    work: Path, notes: tuple[str, ...], base: dict[str, str],
) -> Verdict:  # fmt: skip
    names = (pair[0].name, pair[1].name)
    common = dict(notes=notes, **base)
    with ThreadPoolExecutor(max_workers=2) as pool:
        ref_art, cand_art = _both(
            pool, _build, (pair[0], original, work), (pair[1], candidate, work)
        )
        failed = _build_failure(ref_art, cand_art, original, names, common)
        if failed:
            return failed
        ref, cand = _both(
            pool, _run, (pair[0], original, ref_art, spec), (pair[1], candidate, cand_art, spec)
        )
    if isinstance(ref, CassError) or isinstance(cand, CassError):
        error = ref if isinstance(ref, CassError) else cand
        return _verdict("unverifiable", error.message, names, **common)
    verdict = judge(ref, cand, spec, names, **common)
    if pair[1].name == "emulator":
        mismatch = verdict.status == "mismatch"
        races = _race_note(pair[1], candidate, cand_art, spec, cand, mismatch)
        if mismatch and not races:
            races = _wave_order_note(pair[1], candidate, cand_art, spec, cand, ref)
        verdict = replace(verdict, notes=(*verdict.notes, races)) if races else verdict
    return verdict


def _wave_order_note(
    backend: Backend, source: Path, artifact: Any, spec: RunSpec, run: RunResult, ref: RunResult
) -> str:
    """After a mismatch the LDS race check does not explain: the port once more with its waves
    in another order, a note when its output changes with the order (a race through any memory,
    global too). The interpreter steps a workgroup's waves in lock-step, instruction by
    instruction, as a GPU's warps roughly run; translated code runs each wave up to its next
    barrier before the next one starts."""
    from cass.runner.emulator.kinds import Engine, other_wave_order

    engine = dict(spec.env).get("CASS_EMULATOR_ENGINE") or os.environ.get(
        "CASS_EMULATOR_ENGINE", ""
    )
    other = other_wave_order(engine)
    if other is None:
        return ""
    try:
        again = _run(backend, source, artifact,
                     spec.replace(env=(*spec.env, ("CASS_EMULATOR_ENGINE", str(other)))))  # fmt: skip
    except CassError:
        return ""
    if not again.finished or not (changed := compare_results(run, again, spec)):
        return ""
    order = "in lock-step (the interpreter)" if other == Engine.INTERP else "one at a time"
    agrees = "matches the original" if not compare_results(ref, again, spec) else "differs too"
    return (
        f"the port's output changed with the order its waves run: run again with them {order} it "
        f"prints otherwise (against its first run: {changed[0].render()}) and {agrees}. Waves "
        "that race through memory (global or shared) without a barrier or atomics between do "
        "that (so does output that varies from run to run, from a clock or uninitialised "
        "memory); where the original races the same way, the difference may be the race's "
        "rather than the port's"
    )


def _race_note(
    backend: Backend, source: Path, artifact: Any, spec: RunSpec, run: RunResult, mismatch: bool
) -> str:
    """A note naming the port's first LDS race (emulator.races), or '': from its run when that
    ran with the race check (`cass verify --race-check`), else, after a mismatch, from one more
    run with it."""
    from cass.runner.emulator.races import ENV, enabled, reports

    checked = enabled()  # this process's CASS_EMULATOR_RACE_CHECK, which the port's run inherited
    if not checked and not mismatch:
        return ""
    if not checked:
        try:
            run = _run(backend, source, artifact, spec.replace(env=(*spec.env, (ENV, "1"))))
        except CassError:
            return ""
    found = reports(run.stderr)
    if not found:
        return ""
    return (
        f"the port races in LDS (the emulator's race check, {len(found)} report(s); first: "
        f"{found[0]}): waves of a workgroup touch the same LDS bytes between the same barriers, "
        "so its output may depend on the order waves run (unless they only write equal values, "
        "as a flag); where the original has the same race, a difference may be the race's "
        "rather than the port's"
    )


def _run(backend: Backend, source: Path, artifact: Any, spec: RunSpec) -> RunResult:
    if backend.name == "emulator":
        from cass.runner.backends.emulator import TIME_SCALE

        spec = spec.replace(timeout_s=spec.timeout_s * TIME_SCALE)
    return backend.run(source, artifact, spec)


def _build_failure(
    ref: Any, cand: Any, original: Path, names: tuple[str, str], common: dict
) -> Verdict | None:
    if isinstance(ref, BuildFailed):
        message = f"the original {original} does not compile, so there is nothing to compare with: {ref.message}"
        return _verdict("unverifiable", message, names, diagnostics=ref.diagnostics, **common)
    if isinstance(ref, CassError):
        return _verdict("unverifiable", ref.message, names, **common)
    if isinstance(cand, CassError):
        status: Status = "error" if isinstance(cand, BuildFailed) else "unverifiable"
        message = (
            f"the port does not compile: {cand.message}" if status == "error" else cand.message
        )
        return _verdict(status, message, names, diagnostics=cand.diagnostics, **common)
    return None


def judge(
    ref: RunResult, cand: RunResult, spec: RunSpec, names: tuple[str, str], **common: Any
) -> Verdict:
    """The verdict on two finished (or failed) runs."""
    sides = dict(reference=ref, candidate=cand, **common)
    if not ref.finished:
        message = f"the original ({names[0]}) {ref.describe_end()}: no reference to compare with"
        return _verdict("unverifiable", message, names, **sides)
    if ref.exit_code != spec.expected_exit_code:
        return _verdict("unverifiable", _failed_original(ref, names[0], spec), names, **sides)
    ratios = dict(runtime_ratio=runtime_ratio(ref, cand), memory_ratio=memory_ratio(ref, cand))
    if not cand.finished:
        message = f"the port ({names[1]}) {cand.describe_end()}"
        return _verdict("error", message, names, **ratios, **sides)
    mismatches = compare_results(ref, cand, spec)
    if mismatches:
        message = f"the port differs from the original: {mismatches[0].render()}"
        return _verdict("mismatch", message, names, mismatches=mismatches, **ratios, **sides)
    parts = [
        p
        for p, on in (("stdout", spec.compare_stdout), ("exit code", spec.compare_exit_code))
        if on
    ]
    parts += [f"{len(spec.output_files)} output file(s)"] if spec.output_files else []
    what = " and ".join(parts) or "nothing compared: the spec turns every comparison off"
    message = f"the port matches the original ({what}; {tolerance_rule(spec)})"
    return _verdict("match", message, names, **ratios, **sides)


def _failed_original(ref: RunResult, backend: str, spec: RunSpec) -> str:
    tail = ref.stderr.strip().splitlines()[-1:] or ["no stderr"]
    return (
        f"the original ({backend}) {ref.describe_end()} ({tail[0][:200]}), not {spec.expected_exit_code}: "
        "a failing original proves nothing about the port; fix its run (args, input files) or declare "
        "`expected_exit_code` in its run spec"
    )


def _ratio(a: float | int | None, b: float | int | None) -> float | None:
    return float(b) / float(a) if a and b is not None else None


def runtime_ratio(ref: RunResult, cand: RunResult) -> float | None:
    """Port time / original time: device time where both sides measured it, else the median
    wall time when both ran on real GPUs (an emulator's wall time says nothing about a GPU's)."""
    if ref.device_time_s is not None and cand.device_time_s is not None:
        return _ratio(ref.device_time_s, cand.device_time_s)
    if ref.backend in HARDWARE and cand.backend in HARDWARE:
        return _ratio(ref.runtime_s, cand.runtime_s)
    return None


def memory_ratio(ref: RunResult, cand: RunResult) -> float | None:
    """Port peak / original peak: device memory where both sides know it, else host peak RSS
    when both ran natively on real GPUs."""
    if ref.device_peak_bytes is not None and cand.device_peak_bytes is not None:
        return _ratio(ref.device_peak_bytes, cand.device_peak_bytes)
    if ref.backend in HARDWARE and cand.backend in HARDWARE:
        return _ratio(ref.peak_rss_kib, cand.peak_rss_kib)
    return None
