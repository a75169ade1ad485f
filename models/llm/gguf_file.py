"""A GGUF file's metadata, read and validated before llama.cpp sees it.

info = read_gguf(Path("cass-src-1.5b-q8_0.gguf"))     # CassError: missing, not GGUF, truncated
require_chat_model(info)                                # CassError: another architecture
"""

from __future__ import annotations

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
