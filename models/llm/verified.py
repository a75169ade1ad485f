"""Verified generation: up to N candidates on a temperature schedule, each verified by the
runner, the first that matches wins, and every candidate's verdict is kept for the report.

    port = port_verified(Path("saxpy.cu"), "model", "cass-src-7b-q8_0.gguf", candidates=4)
    port.outcome.verdict.status, [a.status for a in port.outcome.attempts]

`auto`: the rules port is attempt 0; the model is asked only when the rules engine reported an
error it could not port and its port did not match; if no candidate matches, the rules port is
what is delivered (with its own verdict).
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cass.models.engine import Target, Translation, TranslationRequest
from cass.models.llm.backend import ModelOptions
from cass.models.llm.catalog import resolve_model
from cass.models.llm.engine import AutoEngine, ModelEngine
from cass.models.registry import MODEL_ENGINES
from cass.runner.diagnostics import CassError
from cass.runner.spec import RunSpec
from cass.runner.verify import Verdict, verify


def temperature_schedule(n: int, step: float = 0.25, top: float = 1.0) -> list[float]:
    """Greedy first, then warmer: 0.0, 0.25, 0.5, 0.75, 1.0, 1.0, ..."""
    return [round(min(i * step, top), 3) for i in range(n)]


@dataclass(frozen=True)
class Attempt:
    number: int  # 0: the rules port under auto; 1..N: model candidates
    engine: str
    temperature: float | None
    translation: Translation
    verdict: Verdict | None  # None: nothing to verify (the model gave no code)
    port_path: Path | None

    @property
    def status(self) -> str:
        if self.verdict is not None:
            return self.verdict.status
        return "no-code"

    @property
    def message(self) -> str:
        if self.verdict is not None:
            return self.verdict.message
        errors = [d.message for d in self.translation.diagnostics]
        return errors[0] if errors else "no code to verify"

    def to_dict(self) -> dict[str, Any]:
        return {"number": self.number, "engine": self.engine, "temperature": self.temperature,
                "status": self.status, "message": self.message,
                "diagnostics": [d.to_dict() for d in self.translation.diagnostics]}  # fmt: skip


@dataclass
class VerifiedRun:
    attempts: list[Attempt]
    chosen: Attempt | None  # the delivered port: the first match, else the rules port under auto
    workdir: Path
    notes: tuple[str, ...] = ()  # e.g. why the model did not run under auto

    @property
    def accepted(self) -> bool:
        return self.chosen is not None and self.chosen.status == "match"

    def cleanup(self) -> None:
        shutil.rmtree(self.workdir, ignore_errors=True)


Check = Callable[[Path, Path], Verdict]


def _attempt(number: int, engine: str, temperature: float | None, translation: Translation,
             original: Path, workdir: Path, check: Check) -> Attempt:  # fmt: skip
    if not translation.text.strip():
        return Attempt(number, engine, temperature, translation, None, None)
    path = workdir / f"candidate-{number}" / (original.stem + ".hip")
    path.parent.mkdir(parents=True)
    path.write_text(translation.text, encoding="utf-8")
    return Attempt(number, engine, temperature, translation, check(original, path), path)


def run_candidates(
    original: Path,
    translate: Callable[[float, int], Translation],
    *,
    candidates: int,
    check: Check,
    workdir: Path,
    engine: str = "model",
    on_attempt: Callable[[Attempt], None] | None = None,
    first_number: int = 1,
) -> list[Attempt]:
    """Up to `candidates` translations, each verified; stops at the first match."""
    attempts = []
    for i, temperature in enumerate(temperature_schedule(candidates)):
        translation = translate(temperature, i)
        attempt = _attempt(
            first_number + i, engine, temperature, translation, original, workdir, check
        )
        attempts.append(attempt)
        if on_attempt is not None:
            on_attempt(attempt)
        if attempt.status == "match":
            break
    return attempts


def port_verified(
    original: Path,
    engine: str,
    model: str,
    *,
    candidates: int = 4,
    options: ModelOptions | None = None,
    target: Target | None = None,
    spec: RunSpec | None = None,
    backends: tuple[str | None, str | None] | None = None,
    on_attempt: Callable[[Attempt], None] | None = None,
    model_engine: ModelEngine | None = None,
) -> VerifiedRun:
    """Port `original` with the `model` or `auto` engine under verification."""
    if engine not in MODEL_ENGINES:
        raise CassError(f"verified generation runs the model or auto engines, not '{engine}'")
    if candidates < 1:
        raise CassError("--candidates must be at least 1")
    original = Path(original)
    model = resolve_model(model)
    text = original.read_text(encoding="utf-8")
    request = TranslationRequest("source", text, str(original), target or Target())
    workdir = Path(tempfile.mkdtemp(prefix="cass-candidates-"))

    def check(orig: Path, port: Path) -> Verdict:
        return verify(orig, port, spec, backends=backends)

    common = {"check": check, "workdir": workdir, "on_attempt": on_attempt}
    if engine == "model":
        model_engine = model_engine or ModelEngine(model, options)
        attempts = run_candidates(original, lambda t, s: model_engine.translate(request, temperature=t, seed=s),
                                  candidates=candidates, engine="model", **common)  # fmt: skip
        matched = [a for a in attempts if a.status == "match"]
        return VerifiedRun(attempts, matched[0] if matched else _best(attempts), workdir)
    return _auto(original, request, model, options, candidates, model_engine, common)


def _auto(original: Path, request: TranslationRequest, model: str, options: ModelOptions | None, candidates: int,
          model_engine: ModelEngine | None, common: dict) -> VerifiedRun:  # fmt: skip
    auto = AutoEngine(model, options, model_engine)
    rules = auto.rules.translate(request)
    first = _attempt(0, "rules", None, rules, original, common["workdir"], common["check"])
    if common["on_attempt"] is not None:
        common["on_attempt"](first)
    if first.status == "match" or not rules.has_errors:
        return VerifiedRun([first], first, common["workdir"])
    try:
        auto.model_engine()
    except CassError as exc:
        note = f"the model could not run ({exc.message}); the rules port is delivered"
        return VerifiedRun([first], first, common["workdir"], (note,))
    attempts = run_candidates(original, lambda t, s: auto.translate(request, temperature=t, seed=s),
                              candidates=candidates, engine="auto", **common)  # fmt: skip
    matched = [a for a in attempts if a.status == "match"]
    return VerifiedRun([first, *attempts], matched[0] if matched else first, common["workdir"])


RANK = {"match": 0, "mismatch": 1, "unverifiable": 2, "error": 3, "no-code": 4}


def _best(attempts: list[Attempt]) -> Attempt | None:
    """No match: the candidate that got furthest (ran but differed beats did not compile)."""
    with_code = [a for a in attempts if a.port_path is not None]
    return min(with_code, key=lambda a: (RANK.get(a.status, 9), a.number)) if with_code else None
