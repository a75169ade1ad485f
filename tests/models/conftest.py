"""Session fixtures: tiny Qwen2 checkpoints built here, converted with `cass model convert`."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
SAXPY = REPO / "examples" / "verify"
sys.path.insert(0, str(HERE))


def fenced(text: str) -> str:
    return "```amd\n" + text + "```"


@pytest.fixture(scope="session")
def libraries():
    pytest.importorskip("llama_cpp")
    pytest.importorskip("gguf")
    pytest.importorskip("transformers")
    pytest.importorskip("tokenizers")


def _convert(checkpoint: Path, out: Path, quant: str) -> Path:
    from cass.server.cli import main

    assert main(["model", "convert", str(checkpoint), "--quant", quant, "-o", str(out)]) == 0
    return out


@pytest.fixture(scope="session")
def checkpoints(libraries, tmp_path_factory) -> dict[str, Path]:
    """name -> checkpoint directory: random, answering (the hand port of saxpy), wrong (a port
    that compiles and runs but computes something else)."""
    from tiny_model import build_checkpoint

    root = tmp_path_factory.mktemp("checkpoints")
    return {
        "random": build_checkpoint(root / "random"),
        "answering": build_checkpoint(
            root / "answering", fenced((SAXPY / "saxpy.hip").read_text())
        ),
        "wrong": build_checkpoint(root / "wrong", fenced((SAXPY / "saxpy_wrong.hip").read_text())),
    }


@pytest.fixture(scope="session")
def ggufs(checkpoints, tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("gguf")
    return {
        name: _convert(folder, root / f"{name}-q8_0.gguf", "q8_0")
        for name, folder in checkpoints.items()
    }


@pytest.fixture
def saxpy(tmp_path) -> Path:
    """examples/verify/saxpy.cu with its H200 recording, in a folder of its own."""
    for name in ("saxpy.cu", "saxpy.cu.recorded.toml"):
        shutil.copy(SAXPY / name, tmp_path / name)
    return tmp_path / "saxpy.cu"
