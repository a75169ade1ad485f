"""The other two backends: an OpenAI-compatible llama.cpp server started here on loopback, and
transformers on the checkpoint directory itself."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
import urllib.request

import pytest
from cass.models.engine import TranslationRequest
from cass.models.llm.backend import ModelOptions
from cass.models.llm.engine import ModelEngine
from cass.models.llm.http_chat import api_base
from cass.runner.diagnostics import CassError
from conftest import SAXPY

pytestmark = pytest.mark.model
CUDA = (SAXPY / "saxpy.cu").read_text()
HIP = (SAXPY / "saxpy.hip").read_text()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(ggufs):
    pytest.importorskip("uvicorn")
    port = _free_port()
    command = [sys.executable, "-m", "llama_cpp.server", "--model", str(ggufs["answering"]),
               "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "2048"]  # fmt: skip
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(f"llama_cpp.server exited: {process.stderr.read().decode()[-2000:]}")
        try:
            urllib.request.urlopen(url + "/v1/models", timeout=1).close()
            break
        except OSError:
            time.sleep(0.2)
    yield url
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()


def test_http_engine_against_a_llama_cpp_server(server):
    engine = ModelEngine(server)
    translation = engine.translate(TranslationRequest("source", CUDA, "saxpy.cu"))
    assert translation.text == HIP and not translation.diagnostics
    assert engine.backend.name == "http" and engine.generations[-1].completion_tokens >= 1


def test_an_endpoint_that_is_down_is_a_clear_error():
    with pytest.raises(CassError, match="not reachable"):
        ModelEngine("http://127.0.0.1:9/v1", ModelOptions(timeout_s=5))


@pytest.mark.parametrize(
    "url", ["http://h:1", "http://h:1/", "http://h:1/v1", "http://h:1/v1/chat/completions"]
)
def test_api_base(url):
    assert api_base(url) == "http://h:1/v1"


def test_transformers_engine_on_the_checkpoint_directory(checkpoints):
    engine = ModelEngine(str(checkpoints["answering"]), ModelOptions(device="cpu", dtype="float32"))
    assert engine.backend.name == "transformers"
    translation = engine.translate(TranslationRequest("source", CUDA, "saxpy.cu"))
    assert translation.text == HIP and not translation.diagnostics


def test_transformers_random_model_reports_instead_of_porting(checkpoints):
    engine = ModelEngine(str(checkpoints["random"]), ModelOptions(max_tokens=48))
    translation = engine.translate(TranslationRequest("source", CUDA, "saxpy.cu"))
    assert translation.has_errors and engine.generations[-1].completion_tokens > 0
