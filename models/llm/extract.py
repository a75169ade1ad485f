"""The code block out of a model's answer.

Preference order: a block fenced with the expected language (```amd / ```hipasm), then the
longest fenced block of any language, then an opened fence the answer never closed (the model ran
out of tokens: everything after the fence). An answer with no fence at all has no code: None.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_FENCE = re.compile(
    r"^[ \t]*```[ \t]*([\w+#.-]*)[ \t]*\r?\n(.*?)^[ \t]*```[ \t]*$", re.MULTILINE | re.DOTALL
)
_OPEN = re.compile(r"^[ \t]*```[ \t]*([\w+#.-]*)[ \t]*\r?\n", re.MULTILINE)


@dataclass(frozen=True)
class CodeBlock:
    code: str
    language: str
    closed: bool  # False: the answer stopped inside the block (truncated output)


def extract_code(answer: str, language: str) -> CodeBlock | None:
    blocks = [CodeBlock(m.group(2), m.group(1).lower(), True) for m in _FENCE.finditer(answer)]
    wanted = [b for b in blocks if b.language == language.lower()]
    if wanted:
        return max(wanted, key=lambda b: len(b.code))
    if blocks:
        return max(blocks, key=lambda b: len(b.code))
    opened = _OPEN.search(answer)
    if opened and opened.end() < len(answer):
        return CodeBlock(answer[opened.end() :], opened.group(1).lower(), False)
    return None
