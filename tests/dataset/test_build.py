"""`cass dataset build` end to end with the real compilers (nvcc, clang-16) and the RDNA3
emulator: a run killed midway writes what finished, the same command resumes from the cache, and
the output loads with `datasets.load_dataset` and holds the JSONL in the published chat format."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from cass.models.llm.prompts import training_messages
from cass.server.cli import main

pytestmark = pytest.mark.toolchain
ARGS = ["dataset", "build", "--synthetic", "2", "--seed", "21", "-j", "1"]
KEYS = {"id", "task", "domain", "split", "messages"}


def _cached(out: Path, stage: str) -> int:
    return len(list((out / "cache" / stage).glob("*/*.json")))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, dict]:
    """Kill a build after its first program, then run the same command to the end."""
    out = tmp_path_factory.mktemp("dataset") / "out"
    cmd = [sys.executable, "-m", "cass.server.cli", *ARGS, "-o", str(out)]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 600
    # The one worker has handed the first record back once it has ported the second program (its
    # emulator run is cached before the record is finished, so that alone races with the signal).
    while _cached(out, "port") < 2 and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
    proc.send_signal(signal.SIGTERM)
    _, stderr = proc.communicate(timeout=120)
    interrupted = json.loads((out / "stats.json").read_text())
    assert main([*ARGS, "-o", str(out)]) == 0
    return out, {"returncode": proc.returncode, "stderr": stderr, "interrupted": interrupted}


def test_a_killed_run_writes_what_finished(built):
    _, first = built
    assert first["returncode"] == 128 + signal.SIGTERM, first["stderr"][-2000:]
    assert "Traceback" not in first["stderr"], first["stderr"][-2000:]  # workers end quietly
    assert first["interrupted"]["stages"]["interrupted-after"] == 1
    assert first["interrupted"]["programs"] == 1


def test_the_rerun_resumes_from_the_cache(built):
    import datasets

    out, _ = built
    rows = datasets.load_dataset(str(out), "programs", split="train").to_list()
    if list((out / "data").glob("programs-test-*.parquet")):
        rows += datasets.load_dataset(str(out), "programs", split="test").to_list()
    assert len(rows) == 2
    resumed = [r for r in rows if r["cache_hits"] >= 4]  # port, both compiles, the emulator run
    assert len(resumed) == 1


def test_every_stage_ran_on_the_real_tools(built):
    import datasets

    out, _ = built
    stats = json.loads((out / "stats.json").read_text())
    assert stats["stages"]["collected"] == 2 and stats["stages"]["accepted"] == 2
    kernels = datasets.load_dataset(str(out), "kernels", split="train").to_list()
    assert kernels, "no aligned kernel"
    for k in kernels:
        assert k["arch"] == "sm_80" and k["kernel"].startswith("_Z")
        assert "Function : " + k["kernel"] in k["sass"]  # cuobjdump's SASS of this kernel
        assert k["kernel"] + ":" in k["rdna3"] and "s_endpgm" in k["rdna3"]  # clang's gfx1100 code
    for row in datasets.load_dataset(str(out), "programs", split="train").to_list():
        assert row["verification"] == "self-checked"  # no NVIDIA record given
        assert row["port_stdout"].rstrip().endswith("CHECK PASS")
        assert "hipMalloc" in row["hip"] and ".nv_fatbin" not in row["cuda_host_asm"]


def test_instruction_jsonl_in_the_published_chat_format(built):
    import datasets

    out, _ = built
    programs = {
        r["id"]: r for r in datasets.load_dataset(str(out), "programs", split="train").to_list()
    }
    source = [
        json.loads(line)
        for line in (out / "instructions" / "source.jsonl").read_text().splitlines()
    ]
    assembly = [
        json.loads(line)
        for line in (out / "instructions" / "assembly.jsonl").read_text().splitlines()
    ]
    assert source and assembly
    for item in source + assembly:
        assert set(item) == KEYS and item["split"] in ("train", "test")
    for item in source:
        assert item["task"] == "source"
        if item["id"] in programs:
            row = programs[item["id"]]
            assert item["messages"] == training_messages("source", row["cuda"], row["hip"])
    for item in assembly:
        assert item["task"] == "assembly"
        assert item["messages"][0]["content"].startswith(
            "Convert the following CUDA device assembly code to HIP device assembly:\n```cudaasm\n"
        )
        assert item["messages"][1]["content"].startswith("```hipasm\n")
        assert "/*0000*/" not in item["messages"][0]["content"]  # addresses and encodings stripped


def test_card_and_plots_from_the_numbers(built):
    out, _ = built
    card = (out / "README.md").read_text()
    assert card.startswith("---\n") and "config_name: programs" in card
    assert "| accepted | 2 |" in card
    for name in (
        "yields.png",
        "domains.png",
        "lengths.png",
        "sass-opcodes.png",
        "rdna3-opcodes.png",
    ):
        assert (out / "plots" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert f"(plots/{name})" in card


def test_bad_input_is_one_line(tmp_path, capsys):
    assert main(["dataset", "build", str(tmp_path / "missing"), "-o", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err
    assert "missing: no such folder" in err and "Traceback" not in err
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "notes.txt").write_text("mine")
    assert main(["dataset", "build", "--synthetic", "1", "-o", str(tmp_path / "busy")]) == 2
    assert "is no cass dataset" in capsys.readouterr().err
    assert os.listdir(tmp_path / "busy") == ["notes.txt"]
