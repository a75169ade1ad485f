"""The assembly level's plumbing, end to end: SASS in, device assembly out, the rules engine's
host code around it, run on the emulator. No SASS lifter is registered yet, so the device
assembly here comes from an engine that compiles the rules port with clang for gfx1100: it
proves the splice (code object -> offload bundle -> host object) with real tools."""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

import pytest
from cass.models import registry
from cass.models.bench.harness import RunConfig, evaluate
from cass.models.bench.tasks import discover_tasks
from cass.models.engine import Translation, TranslationRequest
from cass.runner.recorded import write_record
from cass.runner.results import RunResult
from cass.runner.spec import load_run_spec

pytestmark = pytest.mark.toolchain


class ClangDeviceEngine:
    """Assembly-level engine for the test: clang's own RDNA3 output for the task's kernels."""

    name, version = "clang-device", "test"

    def translate(self, request: TranslationRequest) -> Translation:
        from cass.models.workflow.porting import translate_source
        from cass.runner.compile import compile_file

        assert request.level == "assembly" and "Function :" in request.text  # it was given SASS
        start = time.perf_counter()
        with tempfile.TemporaryDirectory() as work:
            hip = Path(work) / "main.hip"
            hip.write_text(translate_source(Path(request.path), "rules").text)
            text = compile_file(hip, ["rdna3"], out_dir=work).texts["rdna3"]
        return Translation(text, (), self.name, time.perf_counter() - start)


@pytest.fixture
def clang_device_engine(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(registry.ENGINES, "clang-device", ClangDeviceEngine)
    return "clang-device"


def test_translated_device_code_runs_inside_the_host_port(
    tasks_root: Path, make_task, tiny_stdout: str, tmp_path: Path, clang_device_engine: str
) -> None:
    folder = make_task(tasks_root, "sorting", "tiny")
    write_record(folder / "main.cu", load_run_spec(folder / "main.cu"),
                 RunResult(backend="nvidia", exit_code=0, stdout=tiny_stdout, info={"gpu": "reference fixture"}))  # fmt: skip
    [task] = discover_tasks(tasks_root)
    result = evaluate(
        task, clang_device_engine, RunConfig(level="assembly", out_dir=tmp_path / "out")
    )
    assert (result.status, result.translated, result.compiled, result.matched) == (
        "pass",
        True,
        True,
        True,
    ), result.message


def test_engines_without_an_assembly_level_and_bad_assembly_are_reported(
    tasks_root: Path, make_task, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_task(tasks_root, "sorting", "tiny")
    [task] = discover_tasks(tasks_root)
    config = RunConfig(level="assembly", out_dir=tmp_path / "out")
    rules = evaluate(task, "rules", config)  # the rules engine translates source only
    assert rules.status == "translate-error" and not rules.translated

    class GarbageEngine(ClangDeviceEngine):
        def translate(self, request: TranslationRequest) -> Translation:
            return Translation("v_not_an_instruction v0\n", (), "garbage", 0.0)

    monkeypatch.setitem(registry.ENGINES, "garbage", GarbageEngine)
    garbage = evaluate(task, "garbage", config)
    assert garbage.status == "compile-error" and garbage.translated and not garbage.compiled


def test_a_program_without_kernels_of_its_own_is_unverifiable_at_the_assembly_level(
    tmp_path: Path,
) -> None:
    """Its GPU work is all library calls (cuSOLVER's dense solvers): the cubin holds no kernel,
    so nothing can be lifted, which is not a translation error."""
    from cass.models.bench.assembly import step_sass
    from cass.models.bench.attempt import Attempt
    from cass.models.bench.tasks import Task
    from cass.runner.toolchain import has_tool

    if not has_tool("nvcc") or not has_tool("cuobjdump"):
        pytest.skip("needs nvcc and cuobjdump (the SASS)")
    (tmp_path / "main.cu").write_text('#include <cstdio>\nint main() { puts("host only"); }\n')
    task = Task("host_only", "demo", "", (), (), {}, tmp_path)
    config = RunConfig(engines=("lift",), level="assembly", sass_arch="sm_90", out_dir=tmp_path)
    attempt = Attempt(task, "lift", config)
    step_sass(attempt)
    assert attempt.result is not None and attempt.result.status == "unverifiable"
    assert "no kernel of its own" in attempt.result.message
