"""A Qwen2-architecture Hugging Face checkpoint -> one GGUF file llama.cpp runs.

    convert_checkpoint(Path("cass-src-1.5b/"), Path("cass-src-1.5b-q8_0.gguf"), "q8_0")

The pipeline: read config -> tokenizer (byte-level BPE vocabulary, merges, special tokens, chat
template) -> hyperparameters -> tensors renamed to llama.cpp's names and stored (norms and biases
float32; matrices f16, or q8_0 / q4_0 where rows split into 32-value blocks, f16 otherwise).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
from cass.models.llm.safetensors_read import checkpoint_files, read_tensors
from cass.runner.diagnostics import CassError
from cass.runner.outputs import staged_file

QUANTS = ("f16", "q8_0", "q4_0")
ARCHITECTURES = ("Qwen2ForCausalLM",)


def _gguf() -> Any:
    try:
        import gguf
    except ImportError:
        raise CassError("converting needs the `gguf` package: pip install 'cass[llama]'") from None
    return gguf


def _json(path: Path) -> dict[str, Any]:
    if not path.is_file():
        raise CassError(
            f"{path.parent}: no {path.name}; a Hugging Face checkpoint directory has config.json, tokenizer.json and tokenizer_config.json"
        )
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except ValueError as exc:
        raise CassError(f"{path}: not valid JSON ({exc})") from None


def read_config(folder: Path) -> dict[str, Any]:
    config = _json(folder / "config.json")
    architectures = config.get("architectures") or [config.get("model_type", "?")]
    if not set(architectures) & set(ARCHITECTURES):
        raise CassError(
            f"{folder}/config.json: architecture {architectures[0]}; only Qwen2 checkpoints (the CASS models) convert"
        )
    return config


# ------------------------------------------------------------------ tokenizer


def _content(token: Any) -> str | None:
    return token.get("content") if isinstance(token, dict) else token


def chat_template(folder: Path, tok_config: dict[str, Any]) -> str:
    template = tok_config.get("chat_template")
    if isinstance(template, list):  # named templates: take the default one
        template = next((t["template"] for t in template if t.get("name") == "default"), None)
    jinja = folder / "chat_template.jinja"
    if not template and jinja.is_file():
        template = jinja.read_text(encoding="utf-8")
    if not template:
        raise CassError(
            f"{folder}: no chat template (tokenizer_config.json chat_template or chat_template.jinja); the CASS prompts need one"
        )
    return template


def add_tokenizer(writer: Any, gguf: Any, folder: Path, vocab_size: int) -> None:
    tokenizer = _json(folder / "tokenizer.json")
    tok_config = _json(folder / "tokenizer_config.json")
    model = tokenizer.get("model") or {}
    if model.get("type") != "BPE":
        raise CassError(
            f"{folder}/tokenizer.json: a {model.get('type')} tokenizer; Qwen2 uses byte-level BPE"
        )
    ids: dict[int, tuple[str, int]] = {
        i: (t, gguf.TokenType.NORMAL) for t, i in model["vocab"].items()
    }
    for added in tokenizer.get("added_tokens", []):
        ids[added["id"]] = (
            added["content"],
            gguf.TokenType.CONTROL if added.get("special") else gguf.TokenType.USER_DEFINED,
        )
    size = max(vocab_size, max(ids) + 1)
    tokens = [ids.get(i, (f"[PAD{i}]", gguf.TokenType.UNUSED)) for i in range(size)]
    merges = [m if isinstance(m, str) else " ".join(m) for m in model.get("merges", [])]
    writer.add_tokenizer_model("gpt2")
    writer.add_tokenizer_pre("qwen2")
    writer.add_token_list([t for t, _ in tokens])
    writer.add_token_types([int(k) for _, k in tokens])
    writer.add_token_merges(merges)
    by_text = {t: i for i, (t, _) in enumerate(tokens)}
    for kind, add in (
        ("eos_token", writer.add_eos_token_id),
        ("pad_token", writer.add_pad_token_id),
        ("bos_token", writer.add_bos_token_id),
    ):
        text = _content(tok_config.get(kind))
        if text in by_text:
            add(by_text[text])
    writer.add_add_bos_token(False)
    writer.add_chat_template(chat_template(folder, tok_config))


# ------------------------------------------------------------------ hyperparameters


def add_hyperparameters(writer: Any, config: dict[str, Any], name: str) -> None:
    writer.add_name(name)
    writer.add_context_length(int(config.get("max_position_embeddings", 32768)))
    writer.add_embedding_length(int(config["hidden_size"]))
    writer.add_block_count(int(config["num_hidden_layers"]))
    writer.add_feed_forward_length(int(config["intermediate_size"]))
    writer.add_head_count(int(config["num_attention_heads"]))
    writer.add_head_count_kv(int(config.get("num_key_value_heads", config["num_attention_heads"])))
    rope = config.get("rope_parameters") or {}  # transformers 5 keeps rope_theta in there
    writer.add_rope_freq_base(float(config.get("rope_theta", rope.get("rope_theta", 1000000.0))))
    writer.add_layer_norm_rms_eps(float(config.get("rms_norm_eps", 1e-6)))


# ------------------------------------------------------------------ tensors


def _storage(gguf: Any, array: np.ndarray, quant: str) -> tuple[np.ndarray, Any]:
    """The stored bytes of one tensor and their GGML type."""
    if array.ndim == 1:
        return np.ascontiguousarray(array, dtype=np.float32), gguf.GGMLQuantizationType.F32
    qtype = {"q8_0": gguf.GGMLQuantizationType.Q8_0, "q4_0": gguf.GGMLQuantizationType.Q4_0}.get(
        quant
    )
    block = gguf.GGML_QUANT_SIZES[qtype][0] if qtype is not None else 0
    if qtype is not None and array.shape[-1] % block == 0:
        return gguf.quants.quantize(np.asarray(array, dtype=np.float32), qtype), qtype
    return np.asarray(array, dtype=np.float16), gguf.GGMLQuantizationType.F16


def add_tensors(writer: Any, gguf: Any, folder: Path, config: dict[str, Any], quant: str,
                progress: Callable[[str], None] | None = None) -> int:  # fmt: skip
    names = gguf.get_tensor_name_map(gguf.MODEL_ARCH.QWEN2, int(config["num_hidden_layers"]))
    tied = bool(config.get("tie_word_embeddings", False))
    count = 0
    for file in checkpoint_files(folder):
        for hf_name, array in read_tensors(file):
            if hf_name.endswith("rotary_emb.inv_freq") or (tied and hf_name == "lm_head.weight"):
                continue
            name = names.get_name(hf_name, try_suffixes=(".weight", ".bias"))
            if name is None:
                raise CassError(
                    f"{file}: tensor {hf_name} has no llama.cpp name; is this a plain Qwen2 checkpoint?"
                )
            data, qtype = _storage(gguf, array, quant)
            writer.add_tensor(name, data, raw_dtype=qtype)
            count += 1
            if progress is not None:
                progress(name)
    return count


def _file_type(gguf: Any, quant: str) -> Any:
    return {"f16": gguf.LlamaFileType.MOSTLY_F16, "q8_0": gguf.LlamaFileType.MOSTLY_Q8_0,
            "q4_0": gguf.LlamaFileType.MOSTLY_Q4_0}[quant]  # fmt: skip


def convert_checkpoint(folder: Path, output: Path, quant: str = "q8_0", *, overwrite: bool = False,
                       progress: Callable[[str], None] | None = None) -> int:  # fmt: skip
    """Write `output` (a GGUF) from the checkpoint `folder`; the number of tensors written."""
    if quant not in QUANTS:
        raise CassError(f"unknown quantization '{quant}'; choose one of {', '.join(QUANTS)}")
    if not folder.is_dir():
        raise CassError(f"{folder}: not a directory; give the Hugging Face checkpoint folder")
    if output.exists() and not overwrite:
        raise CassError(f"{output}: exists; pass --force to overwrite it")
    gguf = _gguf()
    config = read_config(folder)
    with staged_file(output) as partial:  # never a half-written model under the real name
        writer = gguf.GGUFWriter(str(partial), arch="qwen2")
        try:
            add_hyperparameters(writer, config, folder.name)
            writer.add_file_type(_file_type(gguf, quant))
            add_tokenizer(writer, gguf, folder, int(config.get("vocab_size", 0)))
            count = add_tensors(writer, gguf, folder, config, quant, progress)
            writer.write_header_to_file()
            writer.write_kv_data_to_file()
            writer.write_tensors_to_file()
        finally:
            writer.close()
    return count
