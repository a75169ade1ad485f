"""The batch recorder: program discovery, honest refusal without a GPU, standard library only."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from cass.runner.backends import Unavailable
from cass.runner.backends.nvidia import nvidia_gpus
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
    """`python runner/record.py` with -I (no site-packages, no cass install): it must import."""
    (tmp_path / "a.cu").write_text("int main() { return 0; }\n")
    proc = subprocess.run([sys.executable, "-I", "-S", str(REPO / "runner" / "record.py"), str(tmp_path)],
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
    proc = subprocess.run([sys.executable, "-I", "-S", "-c", check, str(ns)], capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
