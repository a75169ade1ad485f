"""Every stage's result cached by the hash of what it depends on, so a killed run resumes where it
stopped and a second run over the same inputs recomputes nothing.

    cache = StageCache(OUT / "cache")
    result = cache.get_or_run("compile-cuda", key_parts, lambda: compile(...))

Entries are JSON files `<root>/<stage>/<key[:2]>/<key>.json`, written atomically
(cass.runner.outputs.write_atomic): an interrupted write leaves no entry, never half of one.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

from cass.runner.outputs import write_atomic

# Bump when a stage's output changes meaning: old entries are then simply not found.
STAGE_VERSION = 1


def content_key(*parts: str | bytes) -> str:
    h = hashlib.sha256(f"cass-dataset-v{STAGE_VERSION}".encode())
    for part in parts:
        data = part.encode("utf-8", "surrogateescape") if isinstance(part, str) else part
        h.update(len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def text_sha256(text: str) -> str:
    return hashlib.sha256(text.replace("\r\n", "\n").encode("utf-8", "surrogateescape")).hexdigest()


class StageCache:
    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.hits = 0
        self.misses = 0

    def path(self, stage: str, key: str) -> Path:
        return self.root / stage / key[:2] / f"{key}.json"

    def get(self, stage: str, key: str) -> dict[str, Any] | None:
        try:
            return json.loads(self.path(stage, key).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None

    def put(self, stage: str, key: str, value: dict[str, Any]) -> None:
        write_atomic(self.path(stage, key), json.dumps(value, sort_keys=True))

    def get_or_run(
        self, stage: str, parts: Iterable[str | bytes], run: Callable[[], dict[str, Any]]
    ) -> dict[str, Any]:
        key = content_key(stage, *parts)
        found = self.get(stage, key)
        if found is not None:
            self.hits += 1
            return found
        self.misses += 1
        value = run()
        self.put(stage, key, value)
        return value
