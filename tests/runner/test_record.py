"""The batch recorder: program discovery, honest refusal without a GPU, standard library only."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from cass.runner.backends import Unavailable
from cass.runner.backends.nvidia import NvidiaBackend, nvidia_gpus
from cass.runner.diagnostics import CassError
from cass.runner.record import find_programs, record_paths

REPO = Path(__file__).resolve().parents[2]


def test_finds_programs_with_main_only(tmp_path: Path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.cu").write_text("int main() { return 0; }\n")
    (tmp_path / "sub" / "b.cu").write_text("int main(int argc, char** argv) { return 0; }\n")
    (tmp_path / "lib.cu").write_text("__global__ void k() {}\n")
    (tmp_path / "notes.txt").write_text("int main()")
    assert find_programs([tmp_path]) == [tmp_path / "a.cu", tmp_path / "sub" / "b.cu"]
    with pytest.raises(CassError, match="no such file or folder"):
        find_programs([tmp_path / "nope"])


@pytest.mark.skipif(bool(nvidia_gpus()), reason="this machine has an NVIDIA GPU")
def test_refuses_without_a_gpu(tmp_path: Path):
    (tmp_path / "a.cu").write_text("int main() { return 0; }\n")
    with pytest.raises(Unavailable, match="cannot record on this machine: no NVIDIA GPU"):
        record_paths([tmp_path])
    assert not (tmp_path / "a.cu.recorded.toml").exists()


def test_runs_from_a_bare_checkout_with_the_standard_library_only(tmp_path: Path):
    """`python3 benchmarks/record_references.py` with -I (no site-packages, no cass install)."""
    (tmp_path / "a.cu").write_text("int main() { return 0; }\n")
    proc = subprocess.run([sys.executable, "-I", "-S", str(REPO / "benchmarks" / "record_references.py"), str(tmp_path)],
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    if nvidia_gpus():
        assert proc.returncode == 0, proc.stderr
    else:
        assert proc.returncode == 2 and "no NVIDIA GPU" in proc.stderr
    check = (
        "import sys; sys.path.insert(0, sys.argv[1]);"
        "import cass.runner.record, cass.runner.verify;"
        "bad = {m.split('.')[0] for m in sys.modules} & {'numpy', 'rich', 'typer', 'pygls'};"
        "sys.exit(f'imported {bad}' if bad else 0)"
    )
    ns = tmp_path / "ns"
    (ns / "cass").mkdir(parents=True)
    (ns / "cass" / "runner").symlink_to(REPO / "runner")
    proc = subprocess.run(
        [sys.executable, "-I", "-S", "-c", check, str(ns)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr


class _AnyMachine(NvidiaBackend):
    """The real nvidia backend without its GPU check: on this machine the CUDA runtime itself
    then reports that no device exists, which is what gets recorded (in a temp folder only)."""

    def unavailable(self) -> str | None:
        return None


@pytest.mark.toolchain
def test_record_pipeline_builds_runs_and_writes_records(tmp_path: Path):
    examples = REPO / "examples" / "verify"
    (tmp_path / "a.cu").write_text((examples / "saxpy.cu").read_text())
    (tmp_path / "broken.cu").write_text("int main() { return undeclared; }\n")
    lines: list[str] = []
    outcomes = record_paths([tmp_path], jobs=2, backend=_AnyMachine(), report=lines.append)
    status = {o.source.name: o.status for o in outcomes}
    assert status == {"a.cu": "recorded", "broken.cu": "failed"}
    record = tomllib.loads((tmp_path / "a.cu.recorded.toml").read_text())["record"][0]
    assert record["args"] == ["4096", "2.5"] and record["cuda"].startswith("13")
    expected_exit = 0 if nvidia_gpus() else 1  # no device here: the program says so and exits 1
    assert record["exit_code"] == expected_exit
    assert lines[0].startswith("recording 2 program(s)")
    assert sum(ln.startswith("[") for ln in lines) == 2
    assert any("broken.cu: does not compile" in ln for ln in lines) and "undeclared" in "\n".join(
        lines
    )
    again = record_paths([tmp_path / "a.cu"], backend=_AnyMachine())
    assert again[0].status == "fresh"
