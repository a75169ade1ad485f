"""The model engine over llama.cpp: prompt -> generation -> extraction, failures as diagnostics,
long inputs split, cancellation, token accounting; the registry and auto."""

from __future__ import annotations

import threading

import pytest
from cass.models.engine import TranslationRequest
from cass.models.llm.backend import ModelOptions, Sampling, generate
from cass.models.llm.engine import AutoEngine, ModelEngine
from cass.models.registry import get_engine
from cass.runner.diagnostics import CassError, Severity
from conftest import SAXPY

pytestmark = pytest.mark.model
CUDA = (SAXPY / "saxpy.cu").read_text()


@pytest.fixture(scope="module")
def answering(ggufs):
    return ModelEngine(str(ggufs["answering"]))


@pytest.fixture(scope="module")
def random_model(ggufs):
    return ModelEngine(str(ggufs["random"]), ModelOptions(max_tokens=96))


def test_answering_model_ports_through_the_published_prompt(answering):
    translation = answering.translate(TranslationRequest("source", CUDA, "saxpy.cu"))
    assert translation.text == (SAXPY / "saxpy.hip").read_text()
    assert translation.diagnostics == () and translation.engine == "model"
    used = answering.generations[-1]
    assert used.finish == "stop" and used.completion_tokens > 10 and used.prompt_tokens > 100


def test_random_model_fails_with_a_located_error(random_model):
    translation = random_model.translate(TranslationRequest("source", CUDA, "saxpy.cu"))
    assert translation.has_errors
    codes = {d.code for d in translation.diagnostics}
    assert codes & {"model-no-code", "model-loop", "model-truncated"}
    assert all(d.path == "saxpy.cu" and d.line == 1 for d in translation.diagnostics)


def test_long_input_is_split_at_kernel_boundaries(ggufs):
    engine = ModelEngine(str(ggufs["answering"]), ModelOptions(context=512))
    kernels = "".join(
        f"__global__ void k{i}(float* y) {{ y[{i}] = {i}.0f * y[{i}]; }}\n" for i in range(40)
    )
    translation = engine.translate(TranslationRequest("source", kernels, "many.cu"))
    split_note = [d for d in translation.diagnostics if d.code == "model-split"]
    assert split_note and split_note[0].severity is Severity.INFO
    pieces = len(engine.generations)
    assert pieces > 1 and f"{pieces} pieces" in split_note[0].message
    assert translation.text.count("#include <hip/hip_runtime.h>") == 1  # repeated includes dropped


def test_a_function_longer_than_the_context_is_reported(ggufs):
    engine = ModelEngine(str(ggufs["answering"]), ModelOptions(context=256))
    body = "".join(f"    y[{i}] = {i}.0f;\n" for i in range(300))
    translation = engine.translate(
        TranslationRequest(
            "source", f"// big\n__global__ void big(float* y) {{\n{body}}}\n", "big.cu"
        )
    )
    assert [d.code for d in translation.diagnostics] == ["model-too-long"]
    assert "big at line 1" in translation.diagnostics[0].message and translation.text == ""


def test_cancellation_stops_the_stream(random_model):
    cancel = threading.Event()
    seen = []

    def on_piece(piece):
        seen.append(piece)
        if len(seen) == 3:
            cancel.set()

    messages = [{"role": "user", "content": "hello"}]
    result = generate(
        random_model.backend,
        messages,
        Sampling(temperature=1.0, max_tokens=200),
        cancel=cancel,
        on_piece=on_piece,
    )
    assert result.finish == "cancelled" and result.completion_tokens == 3 and len(seen) == 3


def test_registry_builds_model_engines_and_needs_a_model(ggufs, monkeypatch, tmp_path):
    from cass.models.llm import catalog

    assert get_engine("model", model=str(ggufs["answering"])).name == "model"
    monkeypatch.delenv("CASS_MODEL", raising=False)
    assert (
        get_engine("model").backend.model_id == catalog.BUNDLED.file
    )  # no model named: the bundled one
    monkeypatch.setattr(catalog, "BUNDLED_DIR", tmp_path)  # an install without the bundled model
    with pytest.raises(CassError, match="needs a model"):
        get_engine("model")
    with pytest.raises(CassError, match="no such model file"):
        get_engine("model", model="/nowhere/model.gguf")


def test_auto_keeps_a_clean_rules_port_and_never_loads_the_model():
    auto = AutoEngine("/nowhere/model.gguf")
    translation = auto.translate(TranslationRequest("source", CUDA, "saxpy.cu"))
    assert not translation.has_errors and "hipMalloc" in translation.text and auto._engine is None


INLINE_PTX = """#include <cstdio>
__device__ float fast(float x) {
    float r;
    asm("ex2.approx.ftz.f32 %0, %1;" : "=f"(r) : "f"(x));
    return r;
}
__global__ void scale(float* y) { y[threadIdx.x] *= 2.0f; }
"""


def test_auto_sends_only_the_failing_function_to_the_model(answering):
    auto = AutoEngine("unused", model_engine=answering)
    before = len(answering.generations)
    translation = auto.translate(TranslationRequest("source", INLINE_PTX, "fast.cu"))
    assert len(answering.generations) == before + 1  # one function, one request
    assert any(d.code == "model-ported" and "fast" in d.message for d in translation.diagnostics)
    assert "__global__ void scale" in translation.text  # the rules port of the rest is kept


def test_auto_delivers_the_rules_port_when_the_model_is_down():
    auto = AutoEngine("http://127.0.0.1:9")
    translation = auto.translate(TranslationRequest("source", INLINE_PTX, "fast.cu"))
    warning = [d for d in translation.diagnostics if d.code == "model-unavailable"]
    assert (
        warning
        and "not reachable" in warning[0].message
        and "__global__ void scale" in translation.text
    )


def test_the_editors_port_to_hip_uses_the_model(ggufs):
    from cass.server.lsp import engines
    from cass.server.lsp.settings import Settings

    settings = Settings(engine="model", model_path=str(ggufs["answering"]))
    translation = engines.translate_source(CUDA, "saxpy.cu", settings)
    assert translation.text == (SAXPY / "saxpy.hip").read_text() and translation.engine == "model"
    assert engines.engine_version("model", str(ggufs["answering"])).endswith(
        "llama_cpp:answering-q8_0.gguf"
    )
