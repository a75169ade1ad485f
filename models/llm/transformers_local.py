"""The transformers backend: a local Hugging Face checkpoint directory (never a hub download),
on a chosen device and dtype, streamed through a TextIteratorStreamer that a stop flag cancels."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cass.models.llm.backend import ModelOptions, Sampling, Usage
from cass.runner.diagnostics import CassError

MAX_CONTEXT = 32768


def _libraries() -> tuple[Any, Any]:
    try:
        import torch
        import transformers
    except ImportError:
        raise CassError(
            "checkpoint directories need transformers and torch: pip install 'cass[transformers]'"
        ) from None
    return torch, transformers


def _dtype(torch: Any, name: str) -> Any:
    if name == "auto":
        return "auto"
    dtype = getattr(torch, name, None)
    if not isinstance(dtype, torch.dtype):
        raise CassError(f"unknown dtype '{name}'; use auto, float32, float16 or bfloat16")
    return dtype


class TransformersBackend:
    name = "transformers"

    def __init__(self, path: Path, options: ModelOptions) -> None:
        torch, transformers = _libraries()
        transformers.utils.logging.disable_progress_bar()
        if not (path / "config.json").is_file():
            raise CassError(f"{path}: not a Hugging Face checkpoint (no config.json)")
        self.torch = torch
        self.transformers = transformers
        try:
            config = transformers.AutoConfig.from_pretrained(path, local_files_only=True)
            trained = int(getattr(config, "max_position_embeddings", 4096))
            self.context_tokens = min(options.context or trained, MAX_CONTEXT)
            if self.context_tokens > trained:
                config.rope_scaling = {
                    "type": "yarn",
                    "rope_type": "yarn",
                    "factor": self.context_tokens / trained,
                    "original_max_position_embeddings": trained,
                }
            self.tokenizer = transformers.AutoTokenizer.from_pretrained(path, local_files_only=True)
            self.model = transformers.AutoModelForCausalLM.from_pretrained(
                path, config=config, dtype=_dtype(torch, options.dtype), local_files_only=True
            ).to(options.device)
        except (OSError, ValueError, RuntimeError) as exc:
            raise CassError(f"{path}: transformers could not load the checkpoint ({exc})") from None
        if not self.tokenizer.chat_template:
            raise CassError(
                f"{path}: the tokenizer has no chat template (tokenizer_config.json chat_template)"
            )
        self.model.eval()
        self.model_id = path.name

    def count_tokens(self, text: str) -> int:
        return len(self.tokenizer.encode(text, add_special_tokens=False))

    def stream(self, messages: list[dict[str, str]], sampling: Sampling) -> Iterator[str | Usage]:
        ids = self.tokenizer.apply_chat_template(
            messages, add_generation_prompt=True, return_tensors="pt"
        )
        if not hasattr(ids, "shape"):  # newer tokenizers answer a BatchEncoding
            ids = ids["input_ids"]
        ids = ids.to(self.model.device)
        streamer = self.transformers.TextIteratorStreamer(
            self.tokenizer, skip_prompt=True, skip_special_tokens=True
        )
        stop = threading.Event()
        counted = {"tokens": 0}
        worker = threading.Thread(
            target=self._generate, args=(ids, sampling, streamer, stop, counted), daemon=True
        )
        worker.start()
        try:
            for piece in streamer:
                if piece:
                    yield piece
        finally:
            stop.set()
            worker.join()
        yield Usage(int(ids.shape[-1]), counted["tokens"])

    def _generate(
        self, ids: Any, sampling: Sampling, streamer: Any, stop: threading.Event, counted: dict
    ) -> None:
        transformers = self.transformers

        class Stop(transformers.StoppingCriteria):
            def __call__(self, input_ids: Any, scores: Any, **kwargs: Any) -> bool:
                counted["tokens"] = int(input_ids.shape[-1] - ids.shape[-1])
                return stop.is_set()

        sample = sampling.temperature > 0
        if sample:
            self.torch.manual_seed(sampling.seed)
        extra = {"temperature": sampling.temperature, "top_p": sampling.top_p} if sample else {}
        try:
            with self.torch.no_grad():
                out = self.model.generate(
                    ids, attention_mask=self.torch.ones_like(ids), max_new_tokens=sampling.max_tokens,
                    do_sample=sample, streamer=streamer, pad_token_id=self.tokenizer.pad_token_id or self.tokenizer.eos_token_id,
                    stopping_criteria=transformers.StoppingCriteriaList([Stop()]), **extra,
                )  # fmt: skip
            counted["tokens"] = int(out.shape[-1] - ids.shape[-1])
        except Exception:
            streamer.end()
            raise

    def close(self) -> None:
        pass
