"""cass-verify and `cass ci` with verification: the real runner builds the HIP mirror with clang
for gfx1100 and runs it on the RDNA3 emulator; the original's outputs come from a reference
recorded on an NVIDIA GPU (`saxpy.cu.recorded.toml`, a fixture here)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cass.hooks import check, verify
from cass.models.workflow import mirror as m
from cass.runner.recorded import write_record
from cass.runner.results import RunResult
from cass.runner.spec import load_run_spec
from cass.server.cli import main as cass_main

pytestmark = pytest.mark.toolchain
SAXPY_STDOUT = "y[0]=2 y[999]=1500.5 sum=751250.0\n"  # what saxpy.cu prints on an NVIDIA GPU
HIP_NAMES = {  # the HIP spelling of each CUDA name saxpy.cu uses (a hand port, as a person would)
    "<cuda_runtime.h>": "<hip/hip_runtime.h>",
    "cudaMemcpyHostToDevice": "hipMemcpyHostToDevice",
    "cudaMemcpyDeviceToHost": "hipMemcpyDeviceToHost",
    "cudaMalloc": "hipMalloc",
    "cudaMemcpy": "hipMemcpy",
    "cudaFree": "hipFree",
}


def hand_port(cuda: str) -> str:
    for old, new in HIP_NAMES.items():
        cuda = cuda.replace(old, new)
    return cuda


def write_pair(repo, cuda: str, hip_body: str) -> None:
    """saxpy.cu, its recorded reference, and a hand-ported mirror marked hand-edited."""
    repo.write("saxpy.cu", cuda)
    write_record(
        repo.root / "saxpy.cu",
        load_run_spec(repo.root / "saxpy.cu"),
        RunResult(
            backend="nvidia", exit_code=0, stdout=SAXPY_STDOUT, info={"gpu": "reference fixture"}
        ),
    )
    provenance = m.Provenance(
        "saxpy.cu", m.sha256_text(cuda), "rules", "", "gfx1100", "not-run", "", hand_edited=True
    )
    repo.write("saxpy.hip", m.render_mirror(hip_body, provenance))


@pytest.fixture
def saxpy(repo, example) -> str:
    repo.write("pyproject.toml", "[tool.cass.mirror]\nverify = true\n")
    return example("saxpy.cu")


def test_a_right_port_passes_and_a_wrong_one_fails(repo, saxpy, capsys) -> None:
    write_pair(repo, saxpy, hand_port(saxpy))
    assert verify.main(["saxpy.cu"]) == 0, capsys.readouterr()
    assert "saxpy.hip: match" in capsys.readouterr().out

    write_pair(repo, saxpy, hand_port(saxpy).replace("a * x[i] + y[i]", "a * x[i] - y[i]"))
    assert verify.main(["saxpy.hip"]) == 1
    out = capsys.readouterr().out
    assert "[port-mismatch]" in out and "saxpy.hip: mismatch" in out
    assert check.main(["--verify", "saxpy.cu"]) == 1


def test_ci_fails_a_branch_whose_port_mismatches(repo, saxpy, capsys) -> None:
    write_pair(repo, saxpy, hand_port(saxpy))
    repo.commit("saxpy and its port")
    repo.git("checkout", "-q", "-b", "tuning")
    write_pair(repo, saxpy, hand_port(saxpy).replace("if (i < n)", "if (i < n - 1)"))
    repo.commit("an off-by-one in the port")
    capsys.readouterr()
    assert cass_main(["ci", "--base", "main", "--format", "junit", "-o", "junit.xml"]) == 1
    junit = Path(repo.root / "junit.xml").read_text()
    assert 'failures="1"' in junit and "port-mismatch" in junit
    repo.git("checkout", "-q", "main")
    assert cass_main(["ci", "--all", "--format", "json"]) == 0
    assert (
        json.loads(capsys.readouterr().out.split("cass ci:")[0])["pairs"][0]["verdict"] == "match"
    )


def test_a_recorded_match_is_trusted_until_rerun(repo, saxpy, capsys) -> None:
    """A current mirror whose header records `match` is not run twice; --rerun runs it (here the
    header lies: the body is wrong, which only running shows)."""
    wrong = hand_port(saxpy).replace("if (i < n)", "if (i < n - 1)")
    provenance = m.Provenance("saxpy.cu", m.sha256_text(saxpy), "rules", "", "gfx1100", "match", "")
    write_pair(repo, saxpy, "")
    repo.write("saxpy.hip", m.render_mirror(wrong, provenance))
    assert verify.main(["saxpy.cu"]) == 0
    assert "match (recorded by cass-port" in capsys.readouterr().out
    assert verify.main(["--rerun", "saxpy.cu"]) == 1
    assert "[port-mismatch]" in capsys.readouterr().out
