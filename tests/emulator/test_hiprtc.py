"""hipRTC on the emulator: options translated or refused, programs compiled by the real clang-16
for gfx1100 with their log and lowered names, and a whole program that compiles a templated kernel
at run time and launches it through the module API."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.runner.emulator import build_hip_program, hiprtc, run_program

PROGRAMS = Path(__file__).parent / "programs"

TEMPLATE = """
template <typename T>
__global__ void axpy(T a, const T* x, T* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
__device__ int counter;
"""

OPTIONS = [
    (("-DN=4", "--define-macro=M"), ["-DN=4", "-DM"]),
    (("-I", "inc", "--include-path=/x"), ["-Iinc", "-I/x"]),
    (("--std=c++17", "-std=c++14"), ["-std=c++17", "-std=c++14"]),
    (("--use_fast_math", "--fmad=false", "-G"), ["-ffast-math", "-ffp-contract=off", "-g"]),
    (("-O2", "--gpu-architecture=gfx1100", "-default-device"), ["-O2"]),
]


@pytest.mark.parametrize("options,expect", OPTIONS, ids=[" ".join(o) for o, _ in OPTIONS])
def test_options_become_clang_arguments(options, expect):
    args, _, error = hiprtc.translate_options(options)
    assert error is None and args == expect


def test_nvidia_architecture_and_unknown_options_are_refused_with_what_to_do():
    _, _, error = hiprtc.translate_options(("-arch=compute_90",))
    assert error and "NVIDIA architecture" in error and "--gpu-architecture=gfx1100" in error
    _, _, error = hiprtc.translate_options(("--no-such-option",))
    assert error == "option '--no-such-option' is not a hipRTC option"
    _, notes, error = hiprtc.translate_options(("-lineinfo", "--gpu-architecture=gfx90a"))
    assert error is None and len(notes) == 2 and "gfx90a" in notes[1]


def test_refused_option_is_hiprtc_invalid_option_with_a_log():
    done = hiprtc.compile_program(hiprtc.Program(TEMPLATE, options=("-arch=sm_80",)))
    assert done.status == hiprtc.INVALID_OPTION and "sm_80" in done.log and not done.code


@pytest.mark.toolchain
def test_name_expressions_give_lowered_names_of_kernels_and_variables():
    program = hiprtc.Program(
        TEMPLATE, "axpy.cu", name_expressions=("axpy<float>", "&axpy<double>", "counter")
    )
    done = hiprtc.compile_program(program)
    assert done.status == hiprtc.SUCCESS, done.log
    assert done.lowered == {
        "axpy<float>": "_Z4axpyIfEvT_PKS0_PS0_i",
        "&axpy<double>": "_Z4axpyIdEvT_PKS0_PS0_i",
        "counter": "counter",
    }
    assert done.code.startswith(b"\x7fELF")


@pytest.mark.toolchain
def test_compile_error_log_names_the_program_file_and_line():
    done = hiprtc.compile_program(
        hiprtc.Program("__global__ void k(float* y) {\n  y[0] = missing;\n}\n", "broken.cu")
    )
    assert done.status == hiprtc.COMPILATION and not done.code
    assert "broken.cu:2:10: error: use of undeclared identifier 'missing'" in done.log


@pytest.mark.toolchain
def test_an_invalid_name_expression_is_reported_as_that_expression():
    done = hiprtc.compile_program(hiprtc.Program(TEMPLATE, name_expressions=("axpy<int*>",)))
    assert done.status == hiprtc.COMPILATION
    assert "name expression 0: axpy<int*>" in done.log


@pytest.mark.toolchain
def test_in_memory_headers_are_found_and_cannot_escape_their_folder():
    source = '#include "v.h"\n__global__ void k(float* y) { y[0] = VALUE; }\n'
    done = hiprtc.compile_program(hiprtc.Program(source, headers=(("v.h", "#define VALUE 3\n"),)))
    assert done.status == hiprtc.SUCCESS, done.log
    done = hiprtc.compile_program(hiprtc.Program(source, headers=(("../v.h", ""),)))
    assert done.status == hiprtc.INVALID_INPUT and "../v.h" in done.log


@pytest.mark.toolchain
def test_program_compiles_at_run_time_and_launches_by_lowered_name(tmp_path):
    exe = build_hip_program(PROGRAMS / "hiprtc_program.hip", tmp_path / "rtc", extra_args=["-O2"])
    run = run_program(exe, timeout_s=120)
    assert run.exit_code == 0, run.stdout + run.stderr
    assert "lowered _Z4axpyIfEvT_PKS0_PS0_i _Z4axpyIdEvT_PKS0_PS0_i" in run.stdout
    assert "axpy<float>: 0 wrong" in run.stdout and "log: located" in run.stdout
    assert "hiprtc_program: PASS" in run.stdout


@pytest.mark.toolchain
def test_a_compile_past_its_limit_is_stopped_and_logged():
    done = hiprtc.compile_program(hiprtc.Program(TEMPLATE), timeout_s=0.05)
    assert done.status == hiprtc.COMPILATION and not done.code
    assert "took longer than 0.05 s and was stopped" in done.log
