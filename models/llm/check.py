"""A GGUF file validated before llama.cpp sees it, then loaded and timed.

info = read_gguf(Path("cass-src-1.5b-q8_0.gguf"))     # CassError: missing, not GGUF, truncated
require_chat_model(info)                                # CassError: another architecture
report = check_model(path)                              # + loads, generates, tokens/s
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from cass.runner.diagnostics import CassError

GGUF_MAGIC = b"GGUF"
SUPPORTED_ARCHITECTURES = ("qwen2",)  # the CASS models are Qwen2.5-Coder fine-tunes
REQUIRED_KEYS = (
    "general.architecture",
    "{arch}.context_length",
    "{arch}.embedding_length",
    "{arch}.block_count",
    "{arch}.attention.head_count",
    "tokenizer.ggml.model",
    "tokenizer.ggml.tokens",
)
CHECK_PROMPT = "Convert the following CUDA code to AMD GPU code:\n```cuda\n__global__ void k(float* x) { x[threadIdx.x] *= 2.0f; }\n```"


@dataclass(frozen=True)
class GgufInfo:
    path: Path
    size_bytes: int
    architecture: str
    name: str
    context_length: int
    parameters: int
    tensor_types: dict[str, int]  # quantization type -> tensor count
    vocab_size: int
    chat_template: str
    keys: frozenset[str] = field(default_factory=frozenset)


def _value(reader_field: Any) -> Any:
    """The Python value of a GGUFReader field (strings decoded; arrays as lists)."""
    if hasattr(reader_field, "contents"):
        return reader_field.contents()
    parts = [reader_field.parts[i] for i in reader_field.data]
    decoded = [
        bytes(p).decode("utf-8", "replace")
        if p.dtype.kind == "u" and p.itemsize == 1
        else p.tolist()[0]
        for p in parts
    ]
    return decoded if len(decoded) != 1 else decoded[0]


def _reader(path: Path) -> Any:
    if not path.is_file():
        raise CassError(f"{path}: no such model file")
    with path.open("rb") as handle:
        if handle.read(4) != GGUF_MAGIC:
            raise CassError(
                f"{path}: not a GGUF file (no GGUF magic); convert a checkpoint with `cass model convert`"
            )
    try:
        from gguf import GGUFReader
    except ImportError:
        raise CassError(
            "reading GGUF needs the `gguf` package: pip install 'cass[llama]'"
        ) from None
    try:
        return GGUFReader(path, "r")
    except Exception as exc:  # noqa: BLE001 -- a cut-off or corrupt file fails in many ways inside the reader
        raise CassError(
            f"{path}: a damaged or truncated GGUF file ({type(exc).__name__}: {exc}); copy or convert it again"
        ) from None


def read_gguf(path: Path) -> GgufInfo:
    path = Path(path)
    reader = _reader(path)
    size = path.stat().st_size
    end = max((int(t.data_offset) + int(t.n_bytes) for t in reader.tensors), default=0)
    if end > size or any(
        len(t.data.reshape(-1)) * t.data.itemsize < int(t.n_bytes) for t in reader.tensors
    ):
        raise CassError(
            f"{path}: truncated GGUF file ({size} bytes, its tensors need {end}); copy or convert it again"
        )
    fields = {
        name: _value(f)
        for name, f in reader.fields.items()
        if not name.startswith("tokenizer.ggml.merges")
    }
    arch = str(fields.get("general.architecture", ""))
    tokens = fields.get("tokenizer.ggml.tokens") or []
    return GgufInfo(
        path=path,
        size_bytes=size,
        architecture=arch,
        name=str(fields.get("general.name", path.stem)),
        context_length=int(fields.get(f"{arch}.context_length", 0) or 0),
        parameters=sum(int(t.n_elements) for t in reader.tensors),
        tensor_types=dict(Counter(t.tensor_type.name for t in reader.tensors)),
        vocab_size=len(tokens),
        chat_template=str(fields.get("tokenizer.chat_template", "") or ""),
        keys=frozenset(reader.fields),
    )


def require_chat_model(info: GgufInfo) -> None:
    """CassError unless `info` is a model the CASS prompts fit: Qwen2 with a tokenizer and a
    chat template."""
    if info.architecture not in SUPPORTED_ARCHITECTURES:
        raise CassError(
            f"{info.path}: a GGUF of architecture '{info.architecture or '?'}'; CASS models are "
            f"{', '.join(SUPPORTED_ARCHITECTURES)} (Qwen2.5-Coder fine-tunes)"
        )
    missing = [
        k.format(arch=info.architecture)
        for k in REQUIRED_KEYS
        if k.format(arch=info.architecture) not in info.keys
    ]
    if missing:
        raise CassError(
            f"{info.path}: GGUF metadata lacks {', '.join(missing)}; convert the checkpoint again"
        )
    if not info.chat_template:
        raise CassError(
            f"{info.path}: no chat template in the GGUF metadata (tokenizer.chat_template); "
            "convert from a checkpoint whose tokenizer_config.json has one"
        )


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
    from cass.models.llm.backend import ModelOptions, Sampling, generate
    from cass.models.llm.llama_gguf import LlamaCppBackend

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
