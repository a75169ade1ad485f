"""The prompts the published CASS models expect, exactly (chat, one user message).

Source models (cass-src-*) read a ```cuda block and answer in ```amd; assembly models
(cass-smA100-*, cass-sm4090-*) read ```cudaasm and answer in ```hipasm.
"""

from __future__ import annotations

from dataclasses import dataclass

from cass.models.engine import Level


@dataclass(frozen=True)
class PromptFormat:
    instruction: str
    input_fence: str
    output_fence: str


PROMPTS: dict[str, PromptFormat] = {
    "source": PromptFormat("Convert the following CUDA code to AMD GPU code:", "cuda", "amd"),
    "assembly": PromptFormat(
        "Convert the following CUDA device assembly code to HIP device assembly:",
        "cudaasm",
        "hipasm",
    ),
}


def user_message(level: Level, code: str) -> str:
    fmt = PROMPTS[level]
    body = code if code.endswith("\n") else code + "\n"
    return f"{fmt.instruction}\n```{fmt.input_fence}\n{body}```"


def chat_messages(level: Level, code: str) -> list[dict[str, str]]:
    """The chat the model sees: one user turn in the published format."""
    return [{"role": "user", "content": user_message(level, code)}]


def assistant_message(level: Level, code: str) -> str:
    """The answer a model is trained to give: the port in the level's output fence."""
    fmt = PROMPTS[level]
    body = code if code.endswith("\n") else code + "\n"
    return f"```{fmt.output_fence}\n{body}```"


def training_messages(level: Level, code: str, port: str) -> list[dict[str, str]]:
    """One supervised example: the published user turn, then the verified port as the answer."""
    return [
        *chat_messages(level, code),
        {"role": "assistant", "content": assistant_message(level, port)},
    ]
