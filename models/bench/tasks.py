"""Benchmark tasks: loading, discovery and static validation of `task.toml` + `main.cu`.

    tasks = discover_tasks(domains=["sorting"], pattern="*radix*")
    problems = validate_task(tasks[0].directory)      # [] when the task is well formed

A task is a folder `tasks/<domain>/<name>/` holding `main.cu` (a self-checking CUDA program),
`task.toml` (metadata and the `[run]` spec) and, once recorded on NVIDIA hardware,
`main.cu.recorded.toml` (its reference output).
"""

from __future__ import annotations

import fnmatch
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cass.models.bench.catalog import (
    DOMAINS,
    FEATURES,
    LIBRARIES,
    LINES,
    OPTIONAL_TASK_KEYS,
    PORT_KEYS,
    RUN_KEYS,
    TASK_KEYS,
)
from cass.runner.diagnostics import CassError
from cass.runner.recorded import record_path
from cass.runner.spec import RunSpec

TASKS_ROOT = Path(__file__).resolve().parent / "tasks"
SOURCE_NAME = "main.cu"
META_NAME = "task.toml"


@dataclass(frozen=True)
class Task:
    name: str
    domain: str
    description: str
    features: tuple[str, ...]
    libraries: tuple[str, ...]
    run: dict[str, Any]
    directory: Path
    hip_version: str = "5.2"  # `[port] hip_version`: the HIP version the task is ported for

    @property
    def ident(self) -> str:
        return f"{self.domain}/{self.name}"

    @property
    def source(self) -> Path:
        return self.directory / SOURCE_NAME

    @property
    def meta_path(self) -> Path:
        return self.directory / META_NAME

    @property
    def reference_path(self) -> Path:
        return record_path(self.source)


@dataclass(frozen=True)
class Problem:
    """One thing wrong with a task, located in its file."""

    path: Path
    line: int
    message: str

    def render(self) -> str:
        return f"{self.path}:{self.line}: {self.message}"


def read_meta(meta_path: Path) -> dict[str, Any]:
    """The parsed task.toml; CassError naming the file and line when it is not valid TOML."""
    try:
        return tomllib.loads(meta_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise CassError(
            f"{meta_path}: no task.toml; every task folder needs one (see the task format)"
        ) from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CassError(
            f"{meta_path}: not valid TOML ({exc}); fix the file and run `cass bench validate`"
        ) from None


def load_task(directory: Path) -> Task:
    meta = read_meta(directory / META_NAME)
    return Task(
        name=str(meta.get("name", directory.name)),
        domain=str(meta.get("domain", directory.parent.name)),
        description=str(meta.get("description", "")),
        features=tuple(meta.get("features", ())),
        libraries=tuple(meta.get("libraries", ())),
        run=dict(meta.get("run", {})),
        directory=directory,
        hip_version=_port_hip_version(meta.get("port")),
    )


def _port_hip_version(port: Any) -> str:
    """The task's `[port] hip_version` ("5.2" when absent; a malformed one `validate_task` reports)."""
    return str(port.get("hip_version", "5.2")) if isinstance(port, dict) else "5.2"


def task_dirs(root: Path = TASKS_ROOT) -> list[Path]:
    """Every folder `root/<domain>/<name>/` that holds a task.toml or a main.cu, sorted."""
    found = {
        p.parent
        for pattern in (f"*/*/{META_NAME}", f"*/*/{SOURCE_NAME}")
        for p in root.glob(pattern)
    }
    return sorted(found)


def discover_tasks(
    root: Path = TASKS_ROOT, *, domains: list[str] | None = None, pattern: str | None = None
) -> list[Task]:
    """Tasks under `root`, filtered by domain ids and a glob on `domain/name` or `name`."""
    if domains:
        unknown = sorted(set(domains) - set(DOMAINS))
        if unknown:
            raise CassError(f"unknown domain(s) {', '.join(unknown)}; known: {', '.join(DOMAINS)}")
    tasks = []
    for directory in task_dirs(root):
        if domains and directory.parent.name not in domains:
            continue
        ident = f"{directory.parent.name}/{directory.name}"
        if pattern and not (
            fnmatch.fnmatch(ident, pattern) or fnmatch.fnmatch(directory.name, pattern)
        ):
            continue
        tasks.append(load_task(directory))
    return tasks


# ---------------------------------------------------------------- static validation


def _line_of(text: str, key: str) -> int:
    match = re.search(rf"^\s*{re.escape(key)}\s*=", text, re.MULTILINE)
    return text.count("\n", 0, match.start()) + 1 if match else 1


def _meta_problems(directory: Path, meta: dict[str, Any], text: str) -> list[Problem]:
    path = directory / META_NAME
    out: list[Problem] = []

    def bad(key: str, message: str) -> None:
        out.append(Problem(path, _line_of(text, key), message))

    for key in sorted(TASK_KEYS - set(meta)):
        bad(key, f"missing key `{key}`")
    for key in sorted(set(meta) - TASK_KEYS - OPTIONAL_TASK_KEYS):
        allowed = ", ".join(sorted(TASK_KEYS | OPTIONAL_TASK_KEYS))
        bad(key, f"unknown key `{key}` (allowed: {allowed})")
    if meta.get("name", directory.name) != directory.name:
        bad("name", f"name {meta.get('name')!r} differs from the folder name {directory.name!r}")
    domain = meta.get("domain", directory.parent.name)
    if domain not in DOMAINS:
        bad("domain", f"unknown domain {domain!r}; use one of: {', '.join(DOMAINS)}")
    elif domain != directory.parent.name:
        bad("domain", f"domain {domain!r} differs from the folder {directory.parent.name!r}")
    if not str(meta.get("description", "")).strip():
        bad("description", "empty description: say in one line what the program does")
    out += _list_problems(meta, "features", FEATURES, bad)
    out += _list_problems(meta, "libraries", frozenset(LIBRARIES), bad)
    out += _run_problems(meta.get("run"), path, text)
    _port_problems(meta.get("port", {}), bad)
    return out


def _port_problems(port: Any, bad: Any) -> None:
    """`[port]`: only `hip_version`, a version such as "5.5"."""
    if not isinstance(port, dict):
        bad("port", '`port` must be a table: [port] hip_version = "5.5"')
        return
    for key in sorted(set(port) - PORT_KEYS):
        bad(
            key,
            f"[port] key `{key}` is not used by tasks (allowed: {', '.join(sorted(PORT_KEYS))})",
        )
    version = port.get("hip_version", "5.2")
    if not (isinstance(version, str) and re.fullmatch(r"\d+\.\d+", version)):
        bad("hip_version", f'[port] hip_version {version!r}: write it as a string such as "5.5"')


def _list_problems(
    meta: dict[str, Any], key: str, allowed: frozenset[str], bad: Any
) -> list[Problem]:
    values = meta.get(key, [])
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        bad(key, f"`{key}` must be a list of strings")
        return []
    for value in values:
        if value not in allowed:
            bad(key, f"unknown {key[:-1]} {value!r}; allowed: {', '.join(sorted(allowed))}")
    return []


def _run_problems(run: Any, path: Path, text: str) -> list[Problem]:
    if not isinstance(run, dict):
        return [
            Problem(
                path, _line_of(text, "[run]"), "missing [run] table (args, timeout_s, rtol, atol)"
            )
        ]
    problems = [
        Problem(
            path,
            _line_of(text, key),
            f"[run] key `{key}` is not used by tasks (allowed: {', '.join(sorted(RUN_KEYS))})",
        )
        for key in sorted(set(run) - RUN_KEYS)
    ]
    try:
        RunSpec.from_mapping({k: v for k, v in run.items() if k in RUN_KEYS}, where=f"{path} [run]")
    except CassError as exc:
        key = re.search(r"key `(\w+)`", exc.message)
        problems.append(Problem(path, _line_of(text, key.group(1)) if key else 1, exc.message))
    return problems


SOURCE_RULES: tuple[tuple[str, str, bool], ...] = (  # (regex, message, must be present)
    (r"\bint\s+main\s*\(", "no main() function", True),
    (r"CHECK PASS", "never prints `CHECK PASS`", True),
    (r"CHECK FAIL", "never prints `CHECK FAIL`", True),
    (r"cudaGetLastError|CUDA_CHECK", "does not check CUDA errors", True),
    (r"(?<![\w.])s?rand\s*\(", "uses rand(): inputs must come from a fixed-seed generator", False),
    (
        r"(?<![\w.])time\s*\(\s*(NULL|nullptr|0)?\s*\)",
        "reads the clock: output must be deterministic",
        False,
    ),
)


def _source_problems(source: Path) -> list[Problem]:
    try:
        text = source.read_text(encoding="utf-8")
    except FileNotFoundError:
        return [Problem(source, 1, "missing main.cu")]
    except UnicodeDecodeError as exc:
        return [Problem(source, 1, f"not UTF-8 text ({exc})")]
    code = _without_comments(text)
    problems = []
    for pattern, message, wanted in SOURCE_RULES:
        match = re.search(pattern, code)
        if wanted and not match:
            problems.append(Problem(source, 1, message))
        elif not wanted and match:
            problems.append(Problem(source, code.count("\n", 0, match.start()) + 1, message))
    lines = text.count("\n")
    if not LINES[0] <= lines <= LINES[1]:
        problems.append(
            Problem(
                source,
                lines,
                f"{lines} lines; a task's program has roughly 80-300 (at least {LINES[0]}, at most {LINES[1]})",
            )
        )
    return problems


def _without_comments(text: str) -> str:
    """The source with // and /* */ comments blanked (newlines kept, so line numbers hold)."""

    def blank(match: re.Match[str]) -> str:
        return re.sub(r"[^\n]", " ", match.group(0))

    return re.sub(r"//[^\n]*|/\*.*?\*/", blank, text, flags=re.DOTALL)


def validate_task(directory: Path) -> list[Problem]:
    """Everything wrong with one task folder that can be seen without compiling it."""
    meta_path = directory / META_NAME
    try:
        meta = read_meta(meta_path)
    except CassError as exc:
        return [Problem(meta_path, _toml_error_line(exc.message), exc.message)]
    text = meta_path.read_text(encoding="utf-8")
    return _meta_problems(directory, meta, text) + _source_problems(directory / SOURCE_NAME)


def _toml_error_line(message: str) -> int:
    match = re.search(r"line (\d+)", message)
    return int(match.group(1)) if match else 1


# ---------------------------------------------------------------- coverage


def coverage(tasks: list[Task]) -> tuple[dict[str, dict[str, Any]], dict[str, int]]:
    """Per domain: task count, recorded references, features and libraries used; per feature: how many tasks use it
    (every feature of the vocabulary is listed, unused ones with 0)."""
    per_domain: dict[str, dict[str, Any]] = {}
    per_feature = dict.fromkeys(sorted(FEATURES), 0)
    for task in tasks:
        entry = per_domain.setdefault(
            task.domain, {"tasks": 0, "recorded": 0, "features": set(), "libraries": set()}
        )
        entry["tasks"] += 1
        entry["recorded"] += int(task.reference_path.is_file())
        entry["features"].update(task.features)
        entry["libraries"].update(task.libraries)
        for feature in task.features:
            per_feature[feature] = per_feature.get(feature, 0) + 1
    order = [d for d in DOMAINS if d in per_domain] + sorted(set(per_domain) - set(DOMAINS))
    return {d: per_domain[d] for d in order}, per_feature
