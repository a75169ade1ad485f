"""The llama.cpp backend: a GGUF file through llama-cpp-python, CPU or GPU offload.

The chat template comes from the GGUF metadata (llama-cpp-python applies it). A context above
the model's training context turns on YaRN RoPE scaling from it (as the CASS models were run to
~32k tokens from a 16k training context).
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

from cass.models.llm.backend import ModelOptions, Sampling, Usage
from cass.models.llm.gguf_file import GgufInfo, read_gguf, require_chat_model
from cass.runner.diagnostics import CassError

MAX_CONTEXT = 32768
YARN = 2  # llama.cpp's LLAMA_ROPE_SCALING_TYPE_YARN


def _llama_class():
    try:
        from llama_cpp import Llama
    except ImportError:
        raise CassError("GGUF models need llama-cpp-python: pip install 'cass[llama]'") from None
    return Llama


class LlamaCppBackend:
    name = "llama_cpp"

    def __init__(self, path: Path, options: ModelOptions, info: GgufInfo | None = None) -> None:
        self.info = info or read_gguf(path)
        require_chat_model(self.info)
        trained = self.info.context_length or 4096
        self.context_tokens = min(options.context or trained, MAX_CONTEXT)
        kwargs: dict = {
            "model_path": str(path),
            "n_ctx": self.context_tokens,
            "n_gpu_layers": options.gpu_layers,
            "verbose": False,
        }
        if options.threads:
            kwargs["n_threads"] = options.threads
        if self.context_tokens > trained:
            kwargs.update(rope_scaling_type=YARN, yarn_orig_ctx=trained)
        try:
            self.llm = _llama_class()(**kwargs)
        except (ValueError, RuntimeError, OSError) as exc:
            raise CassError(
                f"{path}: llama.cpp could not load the model ({exc}); check the file with `cass model check`"
            ) from None
        self.model_id = Path(path).name

    def count_tokens(self, text: str) -> int:
        return len(self.llm.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def stream(self, messages: list[dict[str, str]], sampling: Sampling) -> Iterator[str | Usage]:
        guard = _EndGuard(self.llm.token_eos(), sampling.time_limit_s)
        chunks = self.llm.create_chat_completion(
            messages=messages, temperature=sampling.temperature, top_p=sampling.top_p,
            max_tokens=sampling.max_tokens, seed=sampling.seed, stream=True,
            logits_processor=_logits_processors(guard),
        )  # fmt: skip
        produced = 0
        try:
            for chunk in chunks:
                piece = chunk["choices"][0]["delta"].get("content")
                if piece:
                    produced += 1
                    guard.silent = 0
                    yield piece
        finally:
            chunks.close()
        yield Usage(max(self.llm.n_tokens - produced, 0), produced)

    def close(self) -> None:
        close = getattr(self.llm, "close", None)
        if close is not None:
            close()


# Tokens a model may generate without llama.cpp releasing any text: it holds back bytes that are
# not yet valid UTF-8 and re-decodes every prefix of them for each new token, so a model emitting
# byte garbage would slow down quadratically and never return control to the caller.
SILENT_TOKENS = 64


class _EndGuard:
    """Ends a generation from inside llama.cpp's loop (the only place that runs every token):
    past the time limit, or after SILENT_TOKENS tokens that released no text, every logit but
    end-of-sequence is masked, so the model's next token ends the answer."""

    def __init__(self, eos: int, time_limit_s: float | None) -> None:
        self.eos = eos
        self.deadline = None if time_limit_s is None else time.monotonic() + time_limit_s
        self.silent = 0

    def __call__(self, input_ids, scores):  # llama.cpp's LogitsProcessor signature
        self.silent += 1
        late = self.deadline is not None and time.monotonic() > self.deadline
        if late or self.silent > SILENT_TOKENS:
            scores[:] = -float("inf")
            scores[self.eos] = 0.0
        return scores


def _logits_processors(guard: _EndGuard):
    from llama_cpp import LogitsProcessorList

    return LogitsProcessorList([guard])
