"""Reference outputs recorded on real NVIDIA hardware, kept beside the source for review.

`saxpy.cu` -> `saxpy.cu.recorded.toml`: one `[[record]]` per (source sha256, run key), holding
the GPU, compute capability, driver and CUDA version that produced it, the date, exit code,
stdout, stderr, runtimes and output files (text inline; binary files base64), and a hash of the
local headers the source includes. A record whose source or header hash no longer matches is
stale and is refused, never used. Standard library
only (the writer is a small TOML emitter: `tomllib` only reads).
"""

from __future__ import annotations

import base64
import contextlib
import datetime as dt
import fcntl
import os
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from cass.runner.diagnostics import CassError
from cass.runner.fingerprint import includes_digest
from cass.runner.outputs import write_atomic
from cass.runner.results import RunResult
from cass.runner.spec import RunSpec, source_digest

FORMAT = 1
SUFFIX = ".recorded.toml"
INFO_KEYS = ("gpu", "compute_capability", "driver", "cuda", "date", "host")


class StaleRecord(CassError):
    """The record exists but was made from a different version of the source."""


def record_path(source: Path) -> Path:
    return source.with_name(source.name + SUFFIX)


# ---------------------------------------------------------------- a tiny TOML writer


def toml_string(text: str, *, multiline: bool = True) -> str:
    """A TOML string: multi-line basic for text with newlines (reviewable), else basic."""
    multiline = multiline and "\n" in text
    out = []
    for ch in text:
        if ch == "\\":
            out.append("\\\\")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\n":
            out.append("\n" if multiline else "\\n")
        elif ch == "\t":
            out.append("\t")
        elif ord(ch) < 0x20 or ord(ch) == 0x7F:
            out.append(f"\\u{ord(ch):04X}")
        else:
            out.append(ch)
    body = "".join(out)
    if multiline:
        return f'"""\n{body}"""'
    return f'"{body}"'


def toml_value(value: Any, *, multiline: bool = True) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return toml_string(value, multiline=multiline)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(toml_value(v, multiline=False) for v in value) + "]"
    if isinstance(value, dict):
        pairs = (f"{_key(k)} = {toml_value(v, multiline=False)}" for k, v in value.items())
        return "{ " + ", ".join(pairs) + " }"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def _key(key: str) -> str:
    return key if key.replace("_", "").replace("-", "").isalnum() else toml_string(key)


# ---------------------------------------------------------------- records <-> RunResult


def _file_entry(name: str, data: bytes) -> dict[str, str]:
    try:
        text = data.decode("utf-8")
        if "\x00" not in text:
            return {"path": name, "encoding": "text", "data": text}
    except UnicodeDecodeError:
        pass
    return {"path": name, "encoding": "base64", "data": base64.b64encode(data).decode()}


def _render_record(record: dict[str, Any]) -> str:
    files = record.pop("output_file", [])
    lines = ["[[record]]"] + [
        f"{_key(k)} = {toml_value(v)}" for k, v in record.items() if v is not None
    ]
    for entry in files:
        lines += ["", "[[record.output_file]]"] + [
            f"{k} = {toml_value(v)}" for k, v in entry.items()
        ]
    return "\n".join(lines) + "\n"


def make_record(source: Path, spec: RunSpec, result: RunResult) -> dict[str, Any]:
    """The record of one run of `source` under `spec`."""
    info = {k: result.info.get(k, "") for k in INFO_KEYS}
    info["date"] = info["date"] or dt.datetime.now(dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    return {
        "source_sha256": source_digest(source),
        "includes_sha256": includes_digest(source),  # omitted when there are no local headers
        "run_key": spec.run_key(),
        "args": list(spec.args),
        "stdin": spec.stdin,
        **info,
        "exit_code": result.exit_code,
        "signal": result.signal,
        "runtimes_s": [round(t, 6) for t in result.runtimes_s],
        "device_time_s": result.device_time_s,
        "peak_rss_kib": result.peak_rss_kib,
        "device_peak_bytes": result.device_peak_bytes,
        "stdout": result.stdout,
        "stderr": result.stderr,
        "output_file": [_file_entry(n, d) for n, d in sorted(result.output_files.items())],
    }


def _header(source: Path) -> str:
    return (
        f"# Reference outputs of {source.name}, recorded on real NVIDIA hardware.\n"
        f"# Written by `cass verify --record {source.name}` or `cass record`;\n"
        "# one [[record]] per (source sha256, run key). Review it like code; re-record when the\n"
        "# source changes (a record whose hash differs from the source is refused).\n"
        f"format = {FORMAT}\n"
        f"source = {toml_string(source.name)}\n"
    )


def read_records(path: Path) -> list[dict[str, Any]]:
    if not path.is_file():
        return []
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise CassError(f"{path}: not a readable record file ({exc}); re-record it") from None
    if data.get("format") != FORMAT:
        raise CassError(
            f"{path}: unknown record format {data.get('format')!r} (this cass reads {FORMAT})"
        )
    return list(data.get("record", []))


@contextlib.contextmanager
def _locked(folder: Path) -> Iterator[None]:
    """Serialise read-modify-write of the record files in `folder` across processes (an flock
    on the folder itself: no lock file is left behind)."""
    fd = os.open(folder, os.O_RDONLY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def write_record(source: Path, spec: RunSpec, result: RunResult) -> Path:
    """Add (or replace) the record for this source version and run key; atomic write."""
    path = record_path(source)
    new = make_record(source, spec, result)
    with _locked(path.parent):
        return _merge_and_write(source, path, new)


def _merge_and_write(source: Path, path: Path, new: dict[str, Any]) -> Path:
    kept = [r for r in read_records(path) if r.get("run_key") != new["run_key"]]
    kept = [
        r for r in kept if _same_program(r, new["source_sha256"], new["includes_sha256"])
    ]  # drop stale ones
    body = _header(source) + "".join("\n" + _render_record(dict(r)) for r in [*kept, new])
    write_atomic(path, body)
    return path


def _to_result(record: dict[str, Any]) -> RunResult:
    files = {}
    for entry in record.get("output_file", []):
        raw = entry.get("data", "")
        files[entry["path"]] = (
            base64.b64decode(raw) if entry.get("encoding") == "base64" else raw.encode()
        )
    return RunResult(
        backend="recorded",
        exit_code=record.get("exit_code"),
        signal=record.get("signal"),
        stdout=record.get("stdout", ""),
        stderr=record.get("stderr", ""),
        output_files=files,
        runtimes_s=tuple(record.get("runtimes_s", ())),
        peak_rss_kib=record.get("peak_rss_kib"),
        device_time_s=record.get("device_time_s"),
        device_peak_bytes=record.get("device_peak_bytes"),
        info={k: str(record[k]) for k in INFO_KEYS if record.get(k)},
        timed_out=bool(record.get("timed_out", False)),
    )


def _same_program(record: dict[str, Any], digest: str, headers: str | None) -> bool:
    return record.get("source_sha256") == digest and record.get("includes_sha256") == headers


def load_recorded(source: Path, spec: RunSpec) -> RunResult:
    """The recorded result for this source and run spec; CassError (StaleRecord) when absent or stale."""
    path, digest, key = record_path(source), source_digest(source), spec.run_key()
    headers = includes_digest(source)
    records = read_records(path)
    how = f"record it on a machine with an NVIDIA GPU: `cass verify --record {source}`"
    if not records:
        raise CassError(f"no recorded reference for {source} ({path.name} not found); {how}")
    same_run = [r for r in records if r.get("run_key") == key]
    fresh = [r for r in same_run if _same_program(r, digest, headers)]
    if fresh:
        return _to_result(fresh[-1])
    if same_run and same_run[-1].get("source_sha256") == digest:
        raise StaleRecord(
            f"{path}: stale: a local header that {source.name} includes changed since recording; {how}"
        )
    if same_run:
        old = same_run[-1].get("source_sha256", "?")[:12]
        raise StaleRecord(
            f"{path}: stale: recorded for {source.name} with sha256 {old}…, but the source now hashes "
            f"{digest[:12]}… (it changed since recording); {how}"
        )
    raise CassError(f"{path}: no record for these run arguments (args={list(spec.args)}); {how}")
