"""How to run a program: the run spec, and where it comes from.

A `RunSpec` is merged from four layers, later ones winning key by key:

1. defaults: no arguments, compare stdout and the exit code, rtol 1e-5, atol 1e-8 for
   floating-point numbers, integers exact, the original expected to exit 0, 60 s;
2. the project config: `[tool.cass.run]` in `pyproject.toml` or `[run]` in `cass.toml`, found
   upward from the source, then a `[tool.cass.programs."GLOB"]` / `[programs."GLOB"]` table whose
   glob (relative to the config's folder) matches the source;
3. a benchmark task's `task.toml` beside the source (its `[run]` table);
4. comment lines in the source itself, anywhere in the file, each holding TOML `key = value`
   pairs (several on one line are fine):

       // cass: args = ["64", "3"] rtol = 1e-4
       // cass: output_files = [{ path = "out.bin", format = "f32" }]

Standard library only: `python -m cass.runner.record` runs on machines without cass's dependencies.
"""

from __future__ import annotations

import difflib
import fnmatch
import hashlib
import json
import re
import tomllib
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from cass.runner.diagnostics import CassError
from cass.runner.limits import parse_size

ARRAY_FORMATS = {  # output-file format -> struct code
    "f16": "e", "f32": "f", "f64": "d",
    "i8": "b", "i16": "h", "i32": "i", "i64": "q",
    "u8": "B", "u16": "H", "u32": "I", "u64": "Q",
}  # fmt: skip
FILE_FORMATS = ("text", "bytes", *ARRAY_FORMATS)
HEADER_RE = re.compile(r"^\s*//\s*cass:(.*)$")


@dataclass(frozen=True)
class OutputFile:
    """A file the program writes (relative to its working directory) and how to compare it."""

    path: str
    format: str = "text"  # "text" (token-wise), "bytes" (exact), or a typed array like "f32"


@dataclass(frozen=True)
class RunSpec:
    """Everything the runner needs to run one program and judge its output."""

    args: tuple[str, ...] = ()
    stdin: str | None = None
    env: tuple[tuple[str, str], ...] = ()
    input_files: tuple[str, ...] = ()  # copied into the run directory (relative to the source)
    output_files: tuple[OutputFile, ...] = ()
    timeout_s: float = 60.0
    rtol: float = 1e-5  # floating-point tokens and float arrays
    atol: float = 1e-8
    int_atol: int = 0  # integer tokens and integer arrays: exact unless a program declares these
    int_rtol: float = 0.0
    expected_exit_code: int = (
        0  # the original's exit code; any other makes the verdict unverifiable
    )
    ignore_lines: tuple[str, ...] = ()  # regexes: matching lines are dropped on both sides
    runs: int = 1  # runs per side; the runtime reported is their median
    compare_stdout: bool = True
    compare_exit_code: bool = True
    max_output_bytes: int = 8 * 1024 * 1024
    base_dir: str | None = None  # folder that input_files are relative to (the source's)
    # resource limits (cass.runner.limits): None = the default, 0 = no limit
    memory_limit: int | None = None  # bytes; TOML: 8589934592 or "8G"
    cpu_limit_s: float | None = None
    process_limit: int | None = None
    file_size_limit: int | None = None  # bytes; TOML: "4G"
    sandbox: bool = False  # run without network (user + network namespaces)

    @classmethod
    def from_mapping(cls, data: dict[str, Any], *, where: str = "run spec") -> RunSpec:
        """Build from a TOML-like table; a bad key or value raises CassError naming `where`."""
        values = {key: _convert(key, value, where) for key, value in data.items()}
        return cls(**values)

    def replace(self, **changes: Any) -> RunSpec:
        return type(self)(**{**self.to_mapping(), **changes})

    def to_mapping(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}

    @property
    def env_dict(self) -> dict[str, str]:
        return dict(self.env)

    def run_key(self) -> str:
        """A stable hash of what changes a program's output: args, stdin, env, input files."""
        ident = {"args": list(self.args), "stdin": self.stdin, "env": sorted(self.env)}
        ident["input_files"] = [
            [name, _file_digest(self.resolve_input(name))] for name in self.input_files
        ]
        return hashlib.sha256(json.dumps(ident, sort_keys=True).encode()).hexdigest()[:16]

    def resolve_input(self, name: str) -> Path:
        base = Path(self.base_dir) if self.base_dir else Path.cwd()
        return base / name

    def to_dict(self) -> dict[str, Any]:
        d = self.to_mapping()
        d["output_files"] = [{"path": o.path, "format": o.format} for o in self.output_files]
        d["env"] = dict(self.env)
        return d


# ---------------------------------------------------------------- validation, key by key


def _fail(where: str, key: str, what: str) -> CassError:
    return CassError(f"{where}: key `{key}`: {what}")


def _strings(key: str, value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    if not isinstance(value, (list, tuple)) or not all(
        isinstance(v, (str, int, float)) for v in value
    ):
        raise _fail(where, key, 'expected a list of strings, e.g. ["64", "--n", "3"]')
    return tuple(str(v) for v in value)


def _number(key: str, value: Any, where: str, *, minimum: float, integer: bool = False) -> Any:
    ok_type = int if integer else (int, float)
    if isinstance(value, bool) or not isinstance(value, ok_type) or value < minimum:
        kind = "an integer" if integer else "a number"
        raise _fail(where, key, f"expected {kind} >= {minimum}, got {value!r}")
    return value if integer else float(value)


def _bool(key: str, value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise _fail(where, key, f"expected true or false, got {value!r}")
    return value


def _env(key: str, value: Any, where: str) -> tuple[tuple[str, str], ...]:
    if not isinstance(value, dict):
        raise _fail(where, key, 'expected a table, e.g. env = { OMP_NUM_THREADS = "1" }')
    return tuple(sorted((str(k), str(v)) for k, v in value.items()))


def _regexes(key: str, value: Any, where: str) -> tuple[str, ...]:
    patterns = _strings(key, value, where)
    for pattern in patterns:
        try:
            re.compile(pattern)
        except re.error as exc:
            raise _fail(where, key, f"bad regular expression {pattern!r}: {exc}") from None
    return patterns


def _output_file(key: str, item: Any, where: str) -> OutputFile:
    if isinstance(item, str):
        path, _, fmt = item.partition(":")
        item = {"path": path, "format": fmt or "text"}
    if not isinstance(item, dict) or not isinstance(item.get("path"), str):
        raise _fail(
            where, key, 'expected "out.txt", "out.bin:f32" or { path = "out.bin", format = "f32" }'
        )
    extra = set(item) - {"path", "format"}
    fmt = item.get("format", "text")
    if extra or fmt not in FILE_FORMATS:
        raise _fail(where, key, f"format must be one of {', '.join(FILE_FORMATS)} (got {item!r})")
    return OutputFile(item["path"], fmt)


def _output_files(key: str, value: Any, where: str) -> tuple[OutputFile, ...]:
    items = value if isinstance(value, (list, tuple)) else [value]
    files = tuple(_output_file(key, item, where) for item in items)
    for item in files:
        _inside_run_dir(key, item.path, where)
    return files


def _input_files(key: str, value: Any, where: str) -> tuple[str, ...]:
    return tuple(_inside_run_dir(key, name, where) for name in _strings(key, value, where))


def run_dir_path_problem(name: str) -> str | None:
    """Why `name` cannot name a file inside a run directory (None: it can)."""
    parts = name.replace("\\", "/").split("/")
    if not name.strip():
        return "is empty"
    if name.startswith(("/", "\\")) or re.match(r"^[A-Za-z]:", name):
        return "is absolute"
    if ".." in parts:
        return "has a `..` component"
    return None


def _inside_run_dir(key: str, name: str, where: str) -> str:
    problem = run_dir_path_problem(name)
    if problem:
        raise _fail(where, key, f"entry {name!r} {problem}; name a file inside the run directory "
                                'with a relative path, e.g. "data/input.bin"')  # fmt: skip
    return name


def _size(key: str, value: Any, where: str) -> int | None:
    """Bytes from 8589934592 or "8G"; "none" (or 0) is 0, meaning no limit."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, str)):
        raise _fail(
            where, key, f'expected a size such as 8589934592, "8G" or "none", got {value!r}'
        )
    try:
        return parse_size(value, f"{where}: key `{key}`") or 0
    except CassError as exc:
        raise _fail(where, key, exc.message.rsplit(": ", 1)[-1]) from None


def _optional_number(key: str, value: Any, where: str, integer: bool = False) -> Any:
    return None if value is None else _number(key, value, where, minimum=0, integer=integer)


def _stdin(key: str, value: Any, where: str) -> str | None:
    if value is not None and not isinstance(value, str):
        raise _fail(where, key, "expected a string (the text fed to the program's stdin)")
    return value


_CONVERTERS = {
    "args": _strings,
    "stdin": _stdin,
    "env": _env,
    "input_files": _input_files,
    "output_files": _output_files,
    "timeout_s": lambda k, v, w: _number(k, v, w, minimum=0.001),
    "rtol": lambda k, v, w: _number(k, v, w, minimum=0.0),
    "atol": lambda k, v, w: _number(k, v, w, minimum=0.0),
    "int_atol": lambda k, v, w: _number(k, v, w, minimum=0, integer=True),
    "int_rtol": lambda k, v, w: _number(k, v, w, minimum=0.0),
    "expected_exit_code": lambda k, v, w: _number(k, v, w, minimum=0, integer=True),
    "ignore_lines": _regexes,
    "runs": lambda k, v, w: _number(k, v, w, minimum=1, integer=True),
    "compare_stdout": _bool,
    "compare_exit_code": _bool,
    "max_output_bytes": lambda k, v, w: _number(k, v, w, minimum=1, integer=True),
    "base_dir": lambda k, v, w: None if v is None else str(v),
    "memory_limit": _size,
    "cpu_limit_s": _optional_number,
    "process_limit": lambda k, v, w: _optional_number(k, v, w, integer=True),
    "file_size_limit": _size,
    "sandbox": _bool,
}


def _convert(key: str, value: Any, where: str) -> Any:
    converter = _CONVERTERS.get(key)
    if converter is None:
        close = difflib.get_close_matches(key, _CONVERTERS, n=1)
        hint = (
            f" (did you mean `{close[0]}`?)" if close else f"; known keys: {', '.join(_CONVERTERS)}"
        )
        raise CassError(f"{where}: unknown run-spec key `{key}`{hint}")
    return converter(key, value, where)


def _file_digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    except OSError:
        return "missing"


# ---------------------------------------------------------------- where specs come from


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise CassError(f"{path}: not valid TOML: {exc}; fix the file or remove it") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CassError(f"{path}: cannot read: {exc}") from None


def load_project_config(start: Path) -> tuple[Path | None, dict[str, Any]]:
    """Find the project config upward from `start`: `cass.toml`, or `pyproject.toml` with
    `[tool.cass]`. Returns (config file, its cass table) or (None, {}) when there is none."""
    here = start.resolve()
    folder = here if here.is_dir() else here.parent
    for candidate in (folder, *folder.parents):
        cass_toml = candidate / "cass.toml"
        if cass_toml.is_file():
            return cass_toml, _read_toml(cass_toml)
        pyproject = candidate / "pyproject.toml"
        if pyproject.is_file():
            table = _read_toml(pyproject).get("tool", {}).get("cass")
            if isinstance(table, dict):
                return pyproject, table
    return None, {}


def _section(config: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    table = config.get(key, {})
    if not isinstance(table, dict):
        raise CassError(f"{where}: `{key}` must be a table")
    return table


def _project_layers(source: Path) -> list[tuple[dict[str, Any], str]]:
    config_path, config = load_project_config(source)
    if config_path is None:
        return []
    prefix = "[tool.cass." if config_path.name == "pyproject.toml" else "["
    layers = [(_section(config, "run", f"{config_path}"), f"{config_path}: {prefix}run]")]
    programs = _section(config, "programs", f"{config_path}")
    try:
        relative = source.resolve().relative_to(config_path.parent.resolve()).as_posix()
    except ValueError:
        relative = source.name
    for pattern, table in programs.items():
        if fnmatch.fnmatch(relative, pattern) or fnmatch.fnmatch(source.name, pattern):
            where = f'{config_path}: {prefix}programs."{pattern}"]'
            if not isinstance(table, dict):
                raise CassError(f"{where}: must be a table of run-spec keys")
            layers.append((table, where))
    return layers


def _task_layer(source: Path) -> list[tuple[dict[str, Any], str]]:
    task = source.parent / "task.toml"
    if not task.is_file():
        return []
    return [(_section(_read_toml(task), "run", str(task)), f"{task}: [run]")]


def _split_pairs(text: str) -> str:
    """Put each top-level `key = value` of a header line on its own line (TOML needs that)."""
    out, depth, quote, i = [], 0, "", 0
    while i < len(text):
        ch = text[i]
        if quote:
            quote = "" if ch == quote and text[i - 1] != "\\" else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "[{":
            depth += 1
        elif ch in "]}":
            depth -= 1
        elif ch.isspace() and depth == 0 and re.match(r"\s+[A-Za-z_][\w-]*\s*=(?!=)", text[i:]):
            out.append("\n")
            i += 1
            continue
        out.append(ch)
        i += 1
    return "".join(out)


def parse_header(text: str, path: str) -> dict[str, Any]:
    """The run-spec keys set by `// cass: key = value` comment lines of a source file."""
    merged: dict[str, Any] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        match = HEADER_RE.match(line)
        if not match:
            continue
        try:
            pairs = tomllib.loads(_split_pairs(match.group(1).strip()))
        except tomllib.TOMLDecodeError as exc:
            raise CassError(
                f"{path}:{number}: cannot read the `// cass:` run-spec line ({exc}); write TOML "
                'pairs, e.g. `// cass: args = ["64"] rtol = 1e-4`'
            ) from None
        RunSpec.from_mapping(pairs, where=f"{path}:{number}")
        merged.update(pairs)
    return merged


def load_run_spec(source: Path) -> RunSpec:
    """The run spec of `source`: defaults < project config < task.toml < `// cass:` lines."""
    try:
        text = source.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise CassError(f"{source}: cannot read: {exc}") from None
    layers = [*_project_layers(source), *_task_layer(source)]
    layers.append((parse_header(text, str(source)), str(source)))
    merged: dict[str, Any] = {"base_dir": str(source.resolve().parent)}
    for table, where in layers:
        RunSpec.from_mapping(table, where=where)  # validate each layer where it was written
        merged.update(table)
    return RunSpec.from_mapping(merged, where=str(source))


def source_digest(path: Path) -> str:
    """sha256 of a source with line endings normalised (a CRLF checkout is the same program)."""
    return hashlib.sha256(path.read_bytes().replace(b"\r\n", b"\n")).hexdigest()


__all__ = [
    "ARRAY_FORMATS",
    "FILE_FORMATS",
    "OutputFile",
    "RunSpec",
    "load_project_config",
    "load_run_spec",
    "parse_header",
    "run_dir_path_problem",
    "source_digest",
]
