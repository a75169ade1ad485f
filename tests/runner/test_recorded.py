"""Recorded references: written as reviewable TOML, read back, refused when stale."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest
from cass.runner.diagnostics import CassError
from cass.runner.recorded import StaleRecord, load_recorded, record_path, write_record
from cass.runner.results import RunResult
from cass.runner.spec import RunSpec


def _result(stdout: str = "sum 1.5\n") -> RunResult:
    info = {"gpu": "NVIDIA H200", "compute_capability": "9.0", "driver": "570.1", "cuda": "13.0"}
    return RunResult("nvidia", 0, stdout, stderr='warn "x"\\', runtimes_s=(0.5, 0.25),
                     output_files={"o.txt": b"1 2\n", "v.bin": b"\x00\xff\x10"}, info=info)  # fmt: skip


def test_round_trip_keeps_every_field(tmp_path: Path):
    source = tmp_path / "k.cu"
    source.write_text("int main(){}\n")
    spec = RunSpec(args=("4",), stdin="a\nb\n")
    path = write_record(source, spec, _result('tricky """ \\ \t \x01 ünï\n'))
    assert path == record_path(source) == tmp_path / "k.cu.recorded.toml"
    text = path.read_text()
    assert text.startswith("# Reference outputs of k.cu") and 'gpu = "NVIDIA H200"' in text
    back = load_recorded(source, spec)
    assert back.stdout == 'tricky """ \\ \t \x01 ünï\n' and back.stderr == 'warn "x"\\'
    assert back.output_files == {"o.txt": b"1 2\n", "v.bin": b"\x00\xff\x10"}
    assert back.info["compute_capability"] == "9.0" and back.runtimes_s == (0.5, 0.25)
    assert back.backend == "recorded" and tomllib.loads(text)["format"] == 1


def test_one_record_per_run_key(tmp_path: Path):
    source = tmp_path / "k.cu"
    source.write_text("int main(){}\n")
    write_record(source, RunSpec(args=("1",)), _result("one\n"))
    write_record(source, RunSpec(args=("2",)), _result("two\n"))
    write_record(source, RunSpec(args=("1",)), _result("one again\n"))
    assert len(tomllib.loads(record_path(source).read_text())["record"]) == 2
    assert load_recorded(source, RunSpec(args=("1",))).stdout == "one again\n"
    assert load_recorded(source, RunSpec(args=("2",))).stdout == "two\n"


def test_stale_and_missing_records_are_refused_clearly(tmp_path: Path):
    source = tmp_path / "k.cu"
    source.write_text("int main(){}\n")
    with pytest.raises(CassError, match=r"no recorded reference for .*cass verify --record"):
        load_recorded(source, RunSpec())
    write_record(source, RunSpec(), _result())
    source.write_text("int main(){ return 1; }\n")
    with pytest.raises(StaleRecord, match=r"stale: recorded for k.cu with sha256 .* now hashes"):
        load_recorded(source, RunSpec())
    with pytest.raises(CassError, match=r"no record for these run arguments"):
        load_recorded(source, RunSpec(args=("9",)))


def test_crlf_checkout_is_the_same_source(tmp_path: Path):
    source = tmp_path / "k.cu"
    source.write_bytes(b"int main(){}\n")
    write_record(source, RunSpec(), _result())
    source.write_bytes(b"int main(){}\r\n")
    assert load_recorded(source, RunSpec()).stdout == "sum 1.5\n"


def test_corrupt_file_is_named(tmp_path: Path):
    source = tmp_path / "k.cu"
    source.write_text("")
    record_path(source).write_text("format = [\n")
    with pytest.raises(CassError, match=r"k.cu.recorded.toml: not a readable record file"):
        load_recorded(source, RunSpec())


def test_a_record_goes_stale_when_a_local_header_changes(tmp_path: Path):
    (tmp_path / "inc").mkdir()
    (tmp_path / "inc" / "params.cuh").write_text("#define N 64\n")
    (tmp_path / "common.cuh").write_text('#include "inc/params.cuh"\n')
    source = tmp_path / "k.cu"
    source.write_text(
        '#include <cstdio>\n#include "common.cuh"\n#include "cuda_runtime.h"\nint main(){}\n'
    )
    write_record(source, RunSpec(), _result())
    assert 'includes_sha256 = "' in record_path(source).read_text()
    assert load_recorded(source, RunSpec()).stdout == "sum 1.5\n"
    (tmp_path / "inc" / "params.cuh").write_text("#define N 128\n")  # two levels down
    with pytest.raises(
        StaleRecord, match="a local header that k.cu includes changed since recording"
    ):
        load_recorded(source, RunSpec())


def test_a_record_without_local_headers_carries_no_header_hash(tmp_path: Path):
    source = tmp_path / "k.cu"
    source.write_text(
        '#include "cuda_runtime.h"\nint main(){}\n'
    )  # found nowhere beside it: a system header
    write_record(source, RunSpec(), _result())
    assert "includes_sha256" not in record_path(source).read_text()
    (tmp_path / "new.cuh").write_text("// a header the program now includes\n")
    source.write_text('#include "new.cuh"\nint main(){}\n')
    with pytest.raises(StaleRecord):
        load_recorded(source, RunSpec())
