"""Port, then verify (cass.models.workflow.porting) with the real rules engine and the emulator."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from cass.models.workflow.porting import port_and_verify
from cass.runner.backends import Unavailable, choose_backend
from cass.runner.diagnostics import CassError
from cass.runner.recorded import write_record
from cass.runner.results import RunResult
from cass.runner.spec import load_run_spec
from cass.server.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "verify"
pytestmark = pytest.mark.toolchain


@pytest.fixture()
def recorded_saxpy(tmp_path: Path, saxpy_stdout) -> Path:
    try:
        choose_backend("hip", "emulator")
    except Unavailable as exc:
        pytest.skip(exc.message)
    source = tmp_path / "saxpy.cu"
    shutil.copy(EXAMPLES / "saxpy.cu", source)
    write_record(
        source,
        load_run_spec(source),
        RunResult("nvidia", 0, saxpy_stdout(4096, 2.5), runtimes_s=(0.1,)),
    )
    return source


def test_port_then_verify_matches_and_cleans_up(recorded_saxpy: Path):
    outcome = port_and_verify(recorded_saxpy)
    assert outcome.verdict.status == "match", outcome.verdict.message
    assert outcome.translation.engine == "rules" and outcome.temporary
    assert "hipMalloc" in outcome.port_path.read_text()
    outcome.cleanup()
    assert not outcome.port_path.exists()


def test_an_existing_different_port_is_never_overwritten(recorded_saxpy: Path, tmp_path: Path):
    mine = tmp_path / "saxpy.hip"
    mine.write_text("// my hand-written port\n")
    with pytest.raises(CassError, match="already exists and differs"):
        port_and_verify(recorded_saxpy, output=mine)
    assert mine.read_text() == "// my hand-written port\n"


def test_cli_ports_first_when_the_port_is_omitted(recorded_saxpy: Path, tmp_path: Path, capsys):
    out = tmp_path / "ported" / "saxpy.hip"
    assert main(["verify", str(recorded_saxpy), "--port-out", str(out)]) == 0
    assert out.is_file() and "MATCH" in capsys.readouterr().out
