"""`cass verify` as a user runs it: exit codes and messages without tracebacks."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cass.runner.backends.nvidia import nvidia_gpus
from cass.server.cli import main

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "verify"


def test_missing_original_is_a_usage_error(capsys, tmp_path: Path):
    assert main(["verify", str(tmp_path / "nope.cu"), str(EXAMPLES / "saxpy.hip")]) == 2
    err = capsys.readouterr().err
    assert "nope.cu: no such file" in err and "Traceback" not in err


def test_bad_override_names_the_option(capsys):
    assert (
        main(["verify", str(EXAMPLES / "saxpy.cu"), str(EXAMPLES / "saxpy.hip"), "--rtol", "-1"])
        == 2
    )
    assert "command line: key `rtol`: expected a number >= 0.0" in capsys.readouterr().err


def test_bad_header_names_file_and_line(capsys, tmp_path: Path):
    source = tmp_path / "k.cu"
    source.write_text("int x;\n// cass: rtol = 'tight'\nint main() { return 0; }\n")
    assert main(["verify", str(source), str(EXAMPLES / "saxpy.hip")]) == 2
    assert f"{source}:2: key `rtol`: expected a number" in capsys.readouterr().err


def test_unverifiable_says_why_in_json(capsys, tmp_path: Path):
    source = tmp_path / "saxpy.cu"
    source.write_text((EXAMPLES / "saxpy.cu").read_text())
    code = main(
        ["verify", str(source), str(EXAMPLES / "saxpy.hip"), "--reference", "recorded", "--json"]
    )
    verdict = json.loads(capsys.readouterr().out)
    assert code == 2 and verdict["status"] == "unverifiable"
    assert verdict["message"] == (
        f"no recorded reference for {source} (saxpy.cu.recorded.toml not found); "
        f"record it on a machine with an NVIDIA GPU: `cass verify --record {source}`"
    )


@pytest.mark.skipif(bool(nvidia_gpus()), reason="this machine has an NVIDIA GPU")
def test_record_without_a_gpu_is_refused(capsys, tmp_path: Path):
    source = tmp_path / "saxpy.cu"
    source.write_text((EXAMPLES / "saxpy.cu").read_text())
    assert main(["verify", "--record", str(source)]) == 2
    assert "cannot record" in capsys.readouterr().err
    assert not (tmp_path / "saxpy.cu.recorded.toml").exists()
