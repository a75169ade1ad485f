"""A GGUF file validated before llama.cpp sees it (`gguf_file`), then loaded and timed.

info = read_gguf(Path("cass-src-1.5b-q8_0.gguf"))     # CassError: missing, not GGUF, truncated
require_chat_model(info)                                # CassError: another architecture
report = check_model(path)                              # + loads, generates, tokens/s
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from cass.models.llm.backend import ModelOptions, Sampling, generate
from cass.models.llm.gguf_file import GgufInfo, read_gguf, require_chat_model
from cass.models.llm.llama_gguf import LlamaCppBackend

__all__ = ["CheckReport", "GgufInfo", "check_model", "read_gguf", "require_chat_model"]

CHECK_PROMPT = "Convert the following CUDA code to AMD GPU code:\n```cuda\n__global__ void k(float* x) { x[threadIdx.x] *= 2.0f; }\n```"


@dataclass(frozen=True)
class CheckReport:
    info: GgufInfo
    load_s: float
    prompt_tokens: int
    generated_tokens: int
    generate_s: float

    @property
    def tokens_per_s(self) -> float:
        return self.generated_tokens / self.generate_s if self.generate_s > 0 else 0.0


def check_model(path: Path, tokens: int = 64, gpu_layers: int = 0) -> CheckReport:
    """Validate, load with llama.cpp, generate `tokens` tokens of a CASS prompt, time it."""
    info = read_gguf(path)
    require_chat_model(info)
    started = time.perf_counter()
    backend = LlamaCppBackend(
        Path(path),
        ModelOptions(context=min(info.context_length or 2048, 4096), gpu_layers=gpu_layers),
        info=info,
    )
    load_s = time.perf_counter() - started
    try:
        result = generate(
            backend,
            [{"role": "user", "content": CHECK_PROMPT}],
            Sampling(max_tokens=tokens),
            loop_check_every=10**9,
        )
    finally:
        backend.close()
    return CheckReport(
        info, load_s, result.prompt_tokens, result.completion_tokens, result.elapsed_s
    )
