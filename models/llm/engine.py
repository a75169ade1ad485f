"""The model engines: the engine contract (models/engine.py) over a chat backend.

    ModelEngine("cass-src-7b-q8_0.gguf").translate(request)   # prompt -> generate -> extract
    AutoEngine("cass-src-7b-q8_0.gguf").translate(request)    # rules; the model for its gaps

A model's failures (no code block, a loop, a cut-off answer, an input over the context) come back
as located error diagnostics, never as a silently wrong port.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import replace

from cass.models.engine import Translation, TranslationRequest
from cass.models.llm import split
from cass.models.llm.backend import (
    ChatBackend,
    Generation,
    ModelOptions,
    Sampling,
    generate,
)
from cass.models.llm.backends import open_backend
from cass.models.llm.extract import extract_code
from cass.models.llm.prompts import PROMPTS, chat_messages
from cass.runner.diagnostics import CassError, Diagnostic, Severity

VERSION = "0.1.0"
PROMPT_OVERHEAD = 64  # tokens of chat template and instruction around the code
RUNAWAY = 2  # an answer over twice the expected length is cut off (a model that never stops)
EXPANSION = {"source": 1.25, "assembly": 2.0}  # answer tokens per input token (AMD asm ~2x SASS)
FAILURES = {
    "loop": (
        "model-loop",
        "the model's answer repeats itself; try another temperature or a larger model",
    ),
    "cancelled": ("model-cancelled", "the translation was cancelled"),
    "timeout": (
        "model-timeout",
        "the model did not finish in time; raise the time limit or use a faster model",
    ),
}


def _diag(path: str, line: int, severity: Severity, code: str, message: str) -> Diagnostic:
    return Diagnostic(path=path, line=line, column=1, severity=severity, code=code, message=message)


class ModelEngine:
    """A CASS model as an engine. `temperature` and `seed` pick one sample (0.0: greedy)."""

    name = "model"

    def __init__(
        self,
        model: str = "",
        options: ModelOptions | None = None,
        backend: ChatBackend | None = None,
    ) -> None:
        self.options = options or ModelOptions()
        self.backend = backend or open_backend(model, self.options)
        self.version = f"{VERSION}+{self.backend.name}:{self.backend.model_id}"
        self.cancel = threading.Event()
        self.generations: list[Generation] = []  # token and time accounting of every request

    def translate(self, request: TranslationRequest, *, temperature: float = 0.0, seed: int = 0,
                  on_piece: Callable[[str], None] | None = None) -> Translation:  # fmt: skip
        started = time.perf_counter()
        try:
            pieces, notes = self._plan(request)
        except split.TooLong as exc:
            message = (f"{exc}: longer than the model's context of {self.backend.context_tokens} tokens allows; "
                       "raise the context (up to 32768) or split the function")  # fmt: skip
            return self._result(
                "",
                [
                    _diag(
                        request.path, exc.unit.first_line, Severity.ERROR, "model-too-long", message
                    )
                ],
                started,
            )
        texts, diagnostics = [], list(notes)
        for piece in pieces:
            text, found = self._translate_piece(
                request, piece, Sampling(temperature=temperature, seed=seed), on_piece
            )
            texts.append(text)
            diagnostics += found
        failed = any(d.severity is Severity.ERROR for d in diagnostics) and not any(texts)
        return self._result(
            "" if failed else split.reassemble(request.level, texts), diagnostics, started
        )

    def _result(self, text: str, diagnostics: list[Diagnostic], started: float) -> Translation:
        return Translation(text, tuple(diagnostics), self.name, time.perf_counter() - started)

    def _budget(self, level: str) -> int:
        return int((self.backend.context_tokens - PROMPT_OVERHEAD) / (1 + EXPANSION[level]))

    def _plan(self, request: TranslationRequest) -> tuple[list[split.Unit], list[Diagnostic]]:
        budget = self._budget(request.level)
        whole = self.backend.count_tokens(request.text)
        if whole <= budget:
            return [split.Unit(request.text, 1, "")], []
        pieces = split.pack(
            split.units(request.level, request.text), self.backend.count_tokens, budget
        )
        message = (f"the input needs {whole} tokens, more than fit the model's context of "
                   f"{self.backend.context_tokens}: translated in {len(pieces)} pieces cut at kernel/function "
                   "boundaries and put back together")  # fmt: skip
        return pieces, [_diag(request.path, 1, Severity.INFO, "model-split", message)]

    def _translate_piece(self, request: TranslationRequest, piece: split.Unit, sampling: Sampling,
                         on_piece: Callable[[str], None] | None) -> tuple[str, list[Diagnostic]]:  # fmt: skip
        messages = chat_messages(request.level, piece.text)
        room = (
            self.backend.context_tokens
            - self.backend.count_tokens(messages[0]["content"])
            - PROMPT_OVERHEAD
        )
        runaway = (
            int(RUNAWAY * (1 + EXPANSION[request.level]) * self.backend.count_tokens(piece.text))
            + 256
        )
        sampling = replace(
            sampling, max_tokens=max(16, min(self.options.max_tokens, room, runaway))
        )
        result = generate(self.backend, messages, sampling, cancel=self.cancel, on_piece=on_piece,
                          time_limit_s=self.options.timeout_s)  # fmt: skip
        self.generations.append(result)
        where = f"lines {piece.first_line}-{piece.last_line}"
        if result.finish in FAILURES:
            code, message = FAILURES[result.finish]
            return "", [
                _diag(request.path, piece.first_line, Severity.ERROR, code, f"{where}: {message}")
            ]
        block = extract_code(result.text, PROMPTS[request.level].output_fence)
        if block is None:
            message = f"{where}: the model answered without a code block ({_preview(result.text)})"
            return "", [
                _diag(request.path, piece.first_line, Severity.ERROR, "model-no-code", message)
            ]
        if not block.closed or result.finish == "length":
            message = f"{where}: the model's answer was cut off at {result.completion_tokens} tokens; the code may be incomplete"
            return block.code, [
                _diag(request.path, piece.first_line, Severity.ERROR, "model-truncated", message)
            ]
        return block.code, []


def _preview(text: str, limit: int = 80) -> str:
    flat = " ".join(text.split())
    return repr(flat[:limit] + ("…" if len(flat) > limit else "")) if flat else "an empty answer"


class AutoEngine:
    """The rules engine first; the model only for the functions the rules engine reported it
    could not port (spliced into the rules port by name; the whole file when a function cannot
    be matched). If the model cannot run, the rules result comes back with a warning."""

    name = "auto"

    def __init__(
        self,
        model: str = "",
        options: ModelOptions | None = None,
        model_engine: ModelEngine | None = None,
    ) -> None:
        from cass.models.rules import RulesEngine

        self.rules = RulesEngine()
        self.model, self.options, self._engine = model, options, model_engine
        self.version = f"{VERSION}+rules:{self.rules.version}+model:{model}"

    def model_engine(self) -> ModelEngine:
        if self._engine is None:
            self._engine = ModelEngine(self.model, self.options)
        return self._engine

    def translate(
        self, request: TranslationRequest, *, temperature: float = 0.0, seed: int = 0
    ) -> Translation:
        rules = self.rules.translate(request)
        if not rules.has_errors:
            return replace(rules, engine=self.name)
        try:
            engine = self.model_engine()
            from cass.models.llm.auto import patch_gaps

            return patch_gaps(request, rules, engine, temperature, seed)
        except CassError as exc:
            warning = _diag(
                request.path,
                1,
                Severity.WARNING,
                "model-unavailable",
                f"the model could not run: {exc.message}; the rules port is kept",
            )
            return replace(rules, engine=self.name, diagnostics=(*rules.diagnostics, warning))
