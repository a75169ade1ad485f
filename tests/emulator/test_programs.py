"""Whole HIP programs compiled by clang-16 for gfx1100, linked against the cass HIP runtime and
run on the emulator; each program checks its results against a CPU reference itself."""

from __future__ import annotations

import os
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from cass.runner.emulator import FAULT_EXIT_CODE, build_hip_program, run_program

pytestmark = pytest.mark.toolchain

PROGRAMS = Path(__file__).parent / "programs"
SELF_CHECKING = [
    "vector_add",
    "reduction",
    "histogram",
    "warp_ops",
    "double_math",
    "constant_dynamic",
    "grids",
    "streams_events",
    "jacobi",
    "math_ops",
    "grid_sync",
]
BUILDS = [(name, "-O2") for name in SELF_CHECKING] + [
    ("device_printf", "-O2"),
    ("out_of_bounds", "-O2"),
    ("vector_add", "-O0"),
    ("reduction", "-O3"),
]


@pytest.fixture(scope="module")
def executables(tmp_path_factory) -> dict[tuple[str, str], Path]:
    out = tmp_path_factory.mktemp("programs")

    def build(item):
        name, opt = item
        return item, build_hip_program(
            PROGRAMS / f"{name}.hip", out / f"{name}{opt}", extra_args=[opt]
        )

    with ThreadPoolExecutor(max_workers=min(2, os.cpu_count() or 1)) as pool:
        return dict(pool.map(build, BUILDS))


@pytest.mark.parametrize(
    "name,opt",
    [b for b in BUILDS if b[0] in SELF_CHECKING],
    ids=[f"{n}{o}" for n, o in BUILDS if n in SELF_CHECKING],
)
def test_program_matches_cpu_reference(executables, name, opt):
    run = run_program(executables[(name, opt)], timeout_s=240)
    assert run.exit_code == 0, run.stdout + run.stderr
    assert f"{name}: PASS" in run.stdout
    assert run.stats.kernel_launches >= 1 and run.stats.instructions > 0
    assert 0 < run.stats.lane_utilisation <= 1


@pytest.mark.parametrize("opt", ["-O2"])
def test_device_printf_through_hostcall(executables, opt):
    run = run_program(executables[("device_printf", opt)], timeout_s=120)
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == "before" and lines[-1] == "after"
    expected = {
        f"block {b} thread {t} value {100 + t} {0.5 * t:.2f} ok" for b in range(2) for t in range(3)
    }
    assert set(lines[1:-1]) == expected


def test_out_of_bounds_write_is_reported(executables):
    run = run_program(executables[("out_of_bounds", "-O2")], timeout_s=120)
    assert run.exit_code == FAULT_EXIT_CODE
    assert "not reached" not in run.stdout
    (report,) = run.fault_reports
    assert report["kind"] == "memory" and report["kernel"] == "_Z7overrunPii"
    assert report["workgroup"] == "(0,0,0)" and report["instruction"].startswith("global_store")
    assert int(report["address"], 16) > 0 and "hipMalloc #1" in report["nearest"]
    assert "after the end of" in report["nearest"]


def test_program_arguments_and_timeout(executables, tmp_path):
    exe = executables[("vector_add", "-O2")]
    run = run_program(exe, ["3"], timeout_s=120)
    assert run.exit_code == 0 and run.stats.lane_instructions < 5000
    hung = run_program(exe, ["1000"], timeout_s=0.01)
    assert hung.timed_out and hung.exit_code != 0


def test_module_api_and_managed_memory(tmp_path):
    from cass.runner.toolchain import hip_clang_command

    code_object = tmp_path / "kernel.co"
    subprocess.run(
        [
            *hip_clang_command(),
            "--cuda-device-only",
            "-O2",
            "-o",
            str(code_object),
            str(PROGRAMS / "module_kernel.hip"),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    exe = build_hip_program(PROGRAMS / "module_managed.hip", tmp_path / "module_managed")
    run = run_program(exe, [str(code_object)], timeout_s=120)
    assert run.exit_code == 0, run.stdout + run.stderr
    assert "device gfx1100 warp 32" in run.stdout and "module_managed: PASS" in run.stdout


def test_missing_runtime_function_fails_loudly_by_name(tmp_path):
    src = tmp_path / "texture.hip"
    src.write_text(
        "#include <hip/hip_runtime.h>\nint main() { hipMipmappedArray_t a = nullptr;\n"
        "  hipFreeMipmappedArray(a); return 0; }\n"
    )
    run = run_program(build_hip_program(src, tmp_path / "texture"), timeout_s=60)
    assert run.exit_code != 0 and "hipFreeMipmappedArray is not implemented" in run.stderr


def test_endless_kernel_hits_its_time_budget(tmp_path):
    src = tmp_path / "spin.hip"
    src.write_text(
        "#include <hip/hip_runtime.h>\n"
        "__global__ void spin(volatile int* f) { while (*f == 0) {} }\n"
        "int main() { int* f; hipMalloc(&f, 4); hipMemset(f, 0, 4);\n"
        "  spin<<<1, 32>>>(f); hipDeviceSynchronize(); return 0; }\n"
    )
    exe = build_hip_program(src, tmp_path / "spin", extra_args=["-O2"])
    env = dict(os.environ, CASS_EMULATOR_KERNEL_TIMEOUT_S="1")
    run = run_program(exe, timeout_s=120, env=env)
    assert run.exit_code == FAULT_EXIT_CODE
    (report,) = run.fault_reports
    assert report["kind"] == "timeout" and report["kernel"] == "_Z4spinPVi"


def test_compile_error_names_the_file_and_line(tmp_path):
    from cass.runner.diagnostics import CassError

    src = tmp_path / "broken.hip"
    src.write_text("#include <hip/hip_runtime.h>\n__global__ void k() { undefined_call(); }\n")
    with pytest.raises(CassError) as info:
        build_hip_program(src, tmp_path / "broken")
    assert "broken.hip:2:" in info.value.message
