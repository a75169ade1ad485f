"""A model from nothing: a byte-level BPE tokenizer trained on the dataset's text and a small
Qwen2 configuration, so that `cass model convert` and llama.cpp treat it as a Qwen2 model.

The tokenizer splits text as Qwen2's does (its pre-tokenizer regex, then bytes), carries
Qwen2's special tokens (<|endoftext|>, <|im_start|>, <|im_end|>) and a ChatML template, so the
published CASS prompts work unchanged. Sizes name a rough parameter count at a 8k vocabulary.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cass.models.training.data import Record
from cass.runner.diagnostics import CassError

QWEN2_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)
SPECIALS = ("<|endoftext|>", "<|im_start|>", "<|im_end|>")
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)


ROPE_THETA = 1000000.0  # Qwen2.5's


@dataclass(frozen=True)
class Size:
    hidden: int
    layers: int
    heads: int
    kv_heads: int
    intermediate: int
    vocab: int


SIZES: dict[str, Size] = {
    "tiny": Size(64, 2, 4, 2, 128, 512),  # tests: trains in seconds on a CPU
    "2m": Size(128, 4, 4, 2, 384, 4096),
    "10m": Size(256, 8, 4, 2, 768, 8192),
    "30m": Size(512, 8, 8, 2, 1536, 16384),
    "100m": Size(768, 12, 12, 4, 2304, 32768),
    "300m": Size(1024, 24, 16, 4, 2816, 32768),
}


def size_of(name: str) -> Size:
    if name not in SIZES:
        raise CassError(f"unknown --from-scratch size {name!r}; choose one of {', '.join(SIZES)}")
    return SIZES[name]


def corpus(records: list[Record]) -> Iterator[str]:
    for record in records:
        for message in record.messages:
            yield message["content"]


def train_tokenizer(records: list[Record], vocab: int, folder: Path) -> Any:
    """A Qwen2-style tokenizer trained on the records' text, saved into `folder`."""
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(QWEN2_SPLIT), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])  # fmt: skip
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab - len(SPECIALS), special_tokens=list(SPECIALS),
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)  # fmt: skip
    tok.train_from_iterator(corpus(records), trainer)
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>"
    )
    fast.chat_template = CHAT_TEMPLATE
    fast.save_pretrained(folder)
    return fast


def build_model(size: Size, tokenizer: Any, context: int, seed: int = 0) -> Any:
    """A freshly initialised Qwen2ForCausalLM of `size` (input and output embeddings tied)."""
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    vocab = -(-len(tokenizer) // 64) * 64
    config = Qwen2Config(vocab_size=vocab, hidden_size=size.hidden, intermediate_size=size.intermediate,
                         num_hidden_layers=size.layers, num_attention_heads=size.heads,
                         num_key_value_heads=size.kv_heads, max_position_embeddings=context,
                         rope_parameters={"rope_type": "default", "rope_theta": ROPE_THETA},
                         tie_word_embeddings=True,
                         bos_token_id=None, eos_token_id=tokenizer.eos_token_id,
                         pad_token_id=tokenizer.pad_token_id)  # fmt: skip
    torch.manual_seed(seed)
    return Qwen2ForCausalLM(config)
