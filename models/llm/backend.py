"""The chat-backend contract every model backend meets, and the one generation loop over it.

A backend streams the answer to a chat as text pieces (one token each for local models), then
optionally a `Usage`. `generate` drives that stream: it stops on cancellation, on a looping
answer, and on the token limit, and accounts tokens and time.

    backend = open_backend("model.gguf", ModelOptions(context=16384))   # cass.models.llm.backends
    result = generate(backend, messages, Sampling(temperature=0.2), cancel=threading.Event())
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from typing import Literal, Protocol

Finish = Literal["stop", "length", "loop", "cancelled", "timeout"]


@dataclass(frozen=True)
class ModelOptions:
    context: int = 0  # tokens; 0: the model's own training context (RoPE-scaled above it, to 32k)
    max_tokens: int = 8192  # answer limit per request
    gpu_layers: int = 0  # llama.cpp layers offloaded to a GPU (-1: all)
    threads: int = 0  # llama.cpp CPU threads (0: its default)
    device: str = "cpu"  # transformers: cpu, cuda, cuda:1, ...
    dtype: str = "auto"  # transformers: auto, float32, float16, bfloat16
    timeout_s: float = 600.0  # per request: the http timeout, and the limit on one generation
    api_key: str = ""  # http: sent as a bearer token when set


@dataclass(frozen=True)
class Sampling:
    temperature: float = 0.0
    top_p: float = 0.95
    max_tokens: int = 8192
    seed: int = 0
    time_limit_s: float | None = None  # backends that generate in-process stop by themselves


@dataclass(frozen=True)
class Usage:
    prompt_tokens: int
    completion_tokens: int


@dataclass(frozen=True)
class Generation:
    text: str
    finish: Finish
    prompt_tokens: int
    completion_tokens: int
    elapsed_s: float
    first_piece_s: float | None

    @property
    def tokens_per_s(self) -> float:
        return self.completion_tokens / self.elapsed_s if self.elapsed_s > 0 else 0.0


class ChatBackend(Protocol):
    name: str  # llama_cpp, transformers, http
    model_id: str  # what is loaded: a file name, a directory name, a URL and model
    context_tokens: int

    def count_tokens(self, text: str) -> int: ...

    def stream(
        self, messages: list[dict[str, str]], sampling: Sampling
    ) -> Iterator[str | Usage]: ...

    def close(self) -> None: ...


def looping(text: str, *, min_span: int = 400, min_repeats: int = 6, max_period: int = 200) -> bool:
    """True when the end of `text` is one piece repeated: at least `min_repeats` times and
    `min_span` characters (a model stuck in a loop, not a table of similar lines)."""
    for period in range(1, max_period + 1):
        repeats = max(min_repeats, -(-min_span // period))
        span = period * repeats
        if span > len(text):
            break
        tail = text[-span:]
        if tail == tail[-period:] * repeats:
            return True
    return False


def generate(
    backend: ChatBackend,
    messages: list[dict[str, str]],
    sampling: Sampling,
    *,
    cancel: threading.Event | None = None,
    on_piece: Callable[[str], None] | None = None,
    loop_check_every: int = 32,
    time_limit_s: float | None = None,
) -> Generation:
    """Stream one answer to completion, cancellation, a loop, or the token limit."""
    started = time.perf_counter()
    pieces: list[str] = []
    first: float | None = None
    usage: Usage | None = None
    finish: Finish = "stop"
    if time_limit_s is not None:
        sampling = replace(sampling, time_limit_s=time_limit_s)
    stream = backend.stream(messages, sampling)
    try:
        for item in stream:
            if isinstance(item, Usage):
                usage = item
                continue
            if first is None:
                first = time.perf_counter() - started
            pieces.append(item)
            if on_piece is not None:
                on_piece(item)
            if cancel is not None and cancel.is_set():
                finish = "cancelled"
                break
            if time_limit_s is not None and time.perf_counter() - started > time_limit_s:
                finish = "timeout"
                break
            if len(pieces) >= sampling.max_tokens:  # a server that ignores max_tokens
                finish = "length"
                break
            if len(pieces) % loop_check_every == 0 and looping("".join(pieces[-400:])):
                finish = "loop"
                break
    finally:
        close = getattr(stream, "close", None)
        if close is not None:
            close()
    prompt = usage.prompt_tokens if usage else backend.count_tokens(messages[-1]["content"])
    completion = usage.completion_tokens if usage else len(pieces)
    if finish == "stop" and completion >= sampling.max_tokens:
        finish = "length"
    text = "".join(pieces)
    return Generation(text, finish, prompt, completion, time.perf_counter() - started, first)
