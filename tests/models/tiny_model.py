"""Tiny Qwen2 checkpoints for the model tests, built here from nothing (no hub download).

The tokenizer is real: byte-level BPE trained with `tokenizers` on CUDA text, split with the
Qwen2 pre-tokenizer regex, with Qwen2's special tokens and a Qwen-style chat template, saved by
transformers. Two models share it:

- `random`: random weights (answers are noise: the failure paths);
- `answering`: every layer's weights zero, so each position's logits depend on its own token
  only (a bigram model); the output matrix makes the newline that ends the chat prompt predict
  the first of a chain of added tokens spelling a fenced answer, each the next, the last
  <|im_end|>. Greedy decoding then answers exactly that fence: the success path of the real
  pipeline, end to end.
"""

from __future__ import annotations

from itertools import pairwise
from pathlib import Path

QWEN2_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*"
    r"|\s*[\r\n]+|\s+(?!\S)|\s+"
)
SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
CHAT_TEMPLATE = (
    "{% for message in messages %}"
    "{{ '<|im_start|>' + message['role'] + '\\n' + message['content'] + '<|im_end|>' + '\\n' }}"
    "{% endfor %}"
    "{% if add_generation_prompt %}{{ '<|im_start|>assistant\\n' }}{% endif %}"
)
CORPUS = [
    "__global__ void saxpy(int n, float a, const float* x, float* y) {",
    "int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) y[i] = a * x[i] + y[i];",
    "#include <hip/hip_runtime.h>\n#include <cuda_runtime.h>\n hipMalloc cudaMalloc hipMemcpy",
    "Convert the following CUDA code to AMD GPU code:\n```cuda\n```amd\n",
]


def answer_chunks(answer: str, size: int = 16) -> list[str]:
    """`answer` cut into distinct pieces of at most `size` characters (llama-cpp-python reads
    a token's text through a small buffer), so that each piece has one successor."""
    chunks: list[str] = []
    at = 0
    while at < len(answer):
        length = size
        while answer[at : at + length] in chunks and length > 1:
            length -= 1
        chunks.append(answer[at : at + length])
        at += length
    assert len(set(chunks)) == len(chunks), "answer pieces must be distinct"
    return chunks


def build_tokenizer(folder: Path, answer: str | None):
    from tokenizers import Regex, Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.Sequence([
        pre_tokenizers.Split(Regex(QWEN2_SPLIT), behavior="isolated"),
        pre_tokenizers.ByteLevel(add_prefix_space=False, use_regex=False),
    ])  # fmt: skip
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=400, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False
    )
    tok.train_from_iterator(CORPUS * 4, trainer)
    tok.add_special_tokens(SPECIALS)
    if answer is not None:
        tok.add_tokens(answer_chunks(answer))
    fast = PreTrainedTokenizerFast(
        tokenizer_object=tok, eos_token="<|im_end|>", pad_token="<|endoftext|>"
    )
    fast.chat_template = CHAT_TEMPLATE
    fast.save_pretrained(folder)
    return fast


def build_checkpoint(
    folder: Path, answer: str | None = None, seed: int = 0, hidden: int = 64, layers: int = 2
) -> Path:
    """A Qwen2 checkpoint in `folder` (safetensors, float32): random, or answering `answer`."""
    import torch
    from transformers import Qwen2Config, Qwen2ForCausalLM

    folder.mkdir(parents=True, exist_ok=True)
    tokenizer = build_tokenizer(folder, answer)
    vocab = -(-len(tokenizer) // 32) * 32
    config = Qwen2Config(vocab_size=vocab, hidden_size=hidden, intermediate_size=2 * hidden, num_hidden_layers=layers,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=4096,
                         tie_word_embeddings=False, eos_token_id=tokenizer.eos_token_id,
                         pad_token_id=tokenizer.pad_token_id)  # fmt: skip
    torch.manual_seed(seed)
    model = Qwen2ForCausalLM(config)
    if answer is not None:
        _make_answering(model, tokenizer, answer)
    model.save_pretrained(folder, safe_serialization=True)
    return folder


def _make_answering(model, tokenizer, answer: str) -> None:
    import torch

    with torch.no_grad():
        for name, parameter in model.model.layers.named_parameters():
            if "layernorm" not in name:
                parameter.zero_()
        embed = model.model.embed_tokens.weight
        normed = embed / embed.pow(2).mean(-1, keepdim=True).add(1e-6).sqrt()
        newline = tokenizer.convert_tokens_to_ids("Ċ")  # the byte-level newline ending the prompt
        chain = [
            newline,
            *tokenizer.convert_tokens_to_ids(answer_chunks(answer)),
            tokenizer.convert_tokens_to_ids("<|im_end|>"),
        ]
        head = model.lm_head.weight
        head.zero_()
        for current, following in pairwise(chain):
            head[following] += normed[current]
