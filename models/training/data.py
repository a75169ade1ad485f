"""The instruction JSONL `cass dataset build` writes, read and checked line by line.

One JSON object a line: {"id": str, "task": "source"|"assembly", "domain": str,
"split": "train"|"test", "messages": [user, assistant]} (the messages from
`cass.models.llm.prompts.training_messages`). A folder stands for its instructions/*.jsonl.
A line that breaks the format is one CassError naming the file and the line.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cass.runner.diagnostics import CassError

TASKS = ("source", "assembly")
SPLITS = ("train", "test")
ROLES = ("user", "assistant")


@dataclass(frozen=True)
class Record:
    ident: str
    task: str
    domain: str
    split: str
    messages: tuple[dict[str, str], ...]

    def example(self) -> dict[str, list[dict[str, str]]]:
        """TRL's conversational prompt/completion form: the loss counts the answer only."""
        return {"prompt": list(self.messages[:-1]), "completion": list(self.messages[-1:])}


def data_files(paths: list[Path]) -> list[Path]:
    """The JSONL files `paths` name: files as given, folders by their instructions/*.jsonl."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            found = sorted((path / "instructions").glob("*.jsonl")) or sorted(path.glob("*.jsonl"))
            if not found:
                raise CassError(
                    f"{path}: no instructions/*.jsonl in this folder; build a dataset with `cass dataset build -o {path}`"
                )
            files += found
        elif path.is_file():
            files.append(path)
        else:
            raise CassError(
                f"{path}: no such file or folder; give the dataset folder or its .jsonl files"
            )
    return files


def _check_messages(messages: Any, where: str) -> tuple[dict[str, str], ...]:
    if not isinstance(messages, list) or len(messages) < 2:
        raise CassError(f"{where}: 'messages' must be a list of a user and an assistant message")
    for number, message in enumerate(messages):
        if not isinstance(message, dict) or not isinstance(message.get("content"), str):
            raise CassError(f"{where}: message {number} must be an object with a string 'content'")
        if message.get("role") not in ROLES:
            raise CassError(
                f"{where}: message {number} has role {message.get('role')!r}; expected user or assistant"
            )
    if messages[-1]["role"] != "assistant":
        raise CassError(f"{where}: the last message must be the assistant's answer")
    return tuple({"role": m["role"], "content": m["content"]} for m in messages)


def parse_line(line: str, where: str) -> Record:
    try:
        obj = json.loads(line)
    except json.JSONDecodeError as exc:
        raise CassError(
            f"{where}: not valid JSON ({exc.msg}); each line is one example object"
        ) from None
    if not isinstance(obj, dict):
        raise CassError(f"{where}: a JSON {type(obj).__name__}, not an object")
    for key in ("id", "task", "domain", "split"):
        if not isinstance(obj.get(key), str):
            raise CassError(f"{where}: missing or non-string '{key}'")
    if obj["task"] not in TASKS:
        raise CassError(f"{where}: task {obj['task']!r}; expected one of {', '.join(TASKS)}")
    if obj["split"] not in SPLITS:
        raise CassError(f"{where}: split {obj['split']!r}; expected one of {', '.join(SPLITS)}")
    messages = _check_messages(obj.get("messages"), where)
    return Record(obj["id"], obj["task"], obj["domain"], obj["split"], messages)


def read_file(path: Path) -> list[Record]:
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as exc:
        raise CassError(
            f"{path}: not UTF-8 text (byte {exc.start}); the dataset is JSON lines"
        ) from None
    except OSError as exc:
        raise CassError(f"{path}: cannot read ({exc.strerror})") from None
    return [parse_line(line, f"{path}:{number}")
            for number, line in enumerate(text.splitlines(), 1) if line.strip()]  # fmt: skip


def load_records(paths: list[Path], tasks: tuple[str, ...] = TASKS) -> list[Record]:
    """Every record of the files `paths` name whose task is in `tasks`; ids must be unique."""
    records: list[Record] = []
    seen: dict[str, str] = {}
    for file in data_files(paths):
        for number, record in enumerate(read_file(file), 1):
            if record.ident in seen:
                raise CassError(
                    f"{file}: id {record.ident!r} appears twice (also in {seen[record.ident]})"
                )
            seen[record.ident] = f"{file}:{number}"
            if record.task in tasks:
                records.append(record)
    if not records:
        raise CassError(f"no {' or '.join(tasks)} examples in {', '.join(map(str, paths))}")
    return records


def split(records: list[Record], name: str) -> list[Record]:
    return [r for r in records if r.split == name]


def summary(records: list[Record]) -> dict[str, int]:
    """Counts by task and split, e.g. {'source/train': 220, 'source/test': 36}."""
    return dict(sorted(Counter(f"{r.task}/{r.split}" for r in records).items()))
