"""The rules port with its gaps filled by the model.

The functions of the original that hold a rules-engine error are sent to the model one by one;
each answer replaces the function of the same name in the rules port. When a failing function
has no name or is not found exactly once in the rules port, the model ports the whole file.
"""

from __future__ import annotations

import time
from dataclasses import replace
from typing import TYPE_CHECKING

from cass.models.engine import Translation, TranslationRequest
from cass.models.llm import split
from cass.runner.diagnostics import Diagnostic, Severity

if TYPE_CHECKING:
    from cass.models.llm.engine import ModelEngine


def _failing(units: list[split.Unit], errors: list[Diagnostic]) -> list[int]:
    return [
        i for i, u in enumerate(units) if any(u.first_line <= d.line <= u.last_line for d in errors)
    ]


def _matches(rules_units: list[split.Unit], name: str) -> list[int]:
    return [i for i, u in enumerate(rules_units) if name and u.name == name]


def patch_gaps(
    request: TranslationRequest,
    rules: Translation,
    engine: ModelEngine,
    temperature: float,
    seed: int,
) -> Translation:
    started = time.perf_counter()
    errors = [d for d in rules.diagnostics if d.severity is Severity.ERROR]
    originals = split.units("source", request.text)
    ported = split.units("source", rules.text)
    failing = _failing(originals, errors)
    targets = [_matches(ported, originals[i].name) for i in failing]
    if not failing or any(len(t) != 1 for t in targets):
        whole = engine.translate(request, temperature=temperature, seed=seed)
        note = Diagnostic(
            request.path,
            1,
            1,
            Severity.INFO,
            "model-whole-file",
            "the rules engine could not port parts it cannot locate by function; the model ported the whole file",
        )
        return replace(whole, engine="auto", diagnostics=(note, *whole.diagnostics))
    texts = [u.text for u in ported]
    diagnostics = [
        d
        for d in rules.diagnostics
        if not any(originals[i].first_line <= d.line <= originals[i].last_line for i in failing)
    ]
    for index, (target,) in zip(failing, targets):
        unit = originals[index]
        sub = TranslationRequest("source", unit.text, request.path, request.target)
        answer = engine.translate(sub, temperature=temperature, seed=seed)
        shifted = [replace(d, line=d.line + unit.first_line - 1) for d in answer.diagnostics]
        if answer.has_errors or not answer.text.strip():
            diagnostics += [
                d for d in rules.diagnostics if unit.first_line <= d.line <= unit.last_line
            ] + shifted
            continue
        texts[target] = _drop_known_includes(answer.text, rules.text)
        diagnostics += shifted + [Diagnostic(request.path, unit.first_line, 1, Severity.INFO, "model-ported",
                                             f"{unit.name} (lines {unit.first_line}-{unit.last_line}) ported by the model: the rules engine could not")]  # fmt: skip
    return Translation(
        split.reassemble("source", texts),
        tuple(diagnostics),
        "auto",
        time.perf_counter() - started + rules.elapsed_s,
    )


def _drop_known_includes(piece: str, whole: str) -> str:
    known = {
        " ".join(line.split())
        for line in whole.splitlines()
        if line.lstrip().startswith("#include")
    }
    kept = [line for line in piece.splitlines(keepends=True) if " ".join(line.split()) not in known]
    return "".join(kept)
