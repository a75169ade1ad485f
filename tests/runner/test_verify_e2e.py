"""verify() end to end on this machine: a recorded NVIDIA reference against HIP ports run by the
cass RDNA3 emulator (real clang-16 builds, real emulated runs)."""

from __future__ import annotations

import shutil
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest
from cass.runner.backends import Unavailable, choose_backend
from cass.runner.recorded import record_path, write_record
from cass.runner.results import RunResult
from cass.runner.spec import RunSpec, load_run_spec
from cass.runner.verify import verify

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "verify"
BACKENDS = ("recorded", "emulator")
pytestmark = pytest.mark.toolchain


@pytest.fixture(scope="module")
def hip_backend() -> None:
    try:
        choose_backend("hip", "emulator")
    except Unavailable as exc:
        pytest.skip(exc.message)


@pytest.fixture()
def original(tmp_path: Path, hip_backend, saxpy_stdout) -> Path:
    """saxpy.cu with its recorded reference: the committed one from real hardware when it
    exists, else a record of the independently computed output."""
    source = tmp_path / "saxpy.cu"
    shutil.copy(EXAMPLES / "saxpy.cu", source)
    real = record_path(EXAMPLES / "saxpy.cu")
    if real.is_file():
        shutil.copy(real, record_path(source))
    else:
        result = RunResult(
            "nvidia", 0, saxpy_stdout(4096, 2.5), runtimes_s=(0.1,), info={"gpu": "computed"}
        )
        write_record(source, load_run_spec(source), result)
    return source


def _port(tmp_path: Path, name: str, old: str, new: str) -> Path:
    text = (EXAMPLES / "saxpy.hip").read_text()
    assert old in text
    path = tmp_path / name
    path.write_text(text.replace(old, new))
    return path


def test_correct_port_matches(original: Path):
    before = (original.read_bytes(), (EXAMPLES / "saxpy.hip").read_bytes())
    verdict = verify(original, EXAMPLES / "saxpy.hip", backends=BACKENDS)
    assert verdict.status == "match", verdict.message
    assert verdict.backends == BACKENDS
    assert (original.read_bytes(), (EXAMPLES / "saxpy.hip").read_bytes()) == before


def test_wrong_port_reports_the_first_differing_value(original: Path, saxpy_stdout):
    verdict = verify(original, EXAMPLES / "saxpy_wrong.hip", backends=BACKENDS)
    assert verdict.status == "mismatch"
    first = verdict.mismatches[0]
    assert (first.where, first.line) == ("stdout", 2)
    assert first.expected == saxpy_stdout(4096, 2.5).split()[8].rstrip(",")


def test_port_that_does_not_compile_points_at_its_line(original: Path, tmp_path: Path):
    port = _port(
        tmp_path,
        "broken.hip",
        "if (i < n) y[i]",
        "if (i < n) y[i] = undefined_fn(i);\n    if (i < n) y[i]",
    )
    verdict = verify(original, port, backends=BACKENDS)
    assert verdict.status == "error" and "does not compile" in verdict.message
    assert any(
        d.path == str(port) and d.line == 9 and "undefined_fn" in d.message
        for d in verdict.diagnostics
    )


def test_port_that_hangs_is_stopped(original: Path, tmp_path: Path):
    port = _port(
        tmp_path,
        "hang.hip",
        "    cudaFree(dx);".replace("cuda", "hip"),
        "    volatile int spin = 1;\n    while (spin) {}\n    hipFree(dx);",
    )
    spec = load_run_spec(original).replace(timeout_s=6)
    verdict = verify(original, port, spec, backends=BACKENDS)
    assert verdict.status == "error" and "timed out" in verdict.message


def test_port_that_floods_output_is_stopped(original: Path, tmp_path: Path):
    port = _port(
        tmp_path,
        "flood.hip",
        "    return 0;\n}",
        '    for (;;) printf("spam spam spam spam\\n");\n    return 0;\n}',
    )
    spec = load_run_spec(original).replace(max_output_bytes=100_000, timeout_s=60)
    verdict = verify(original, port, spec, backends=BACKENDS)
    assert verdict.status == "error" and "printed more than 100000 bytes" in verdict.message


def test_concurrent_verifies_do_not_collide(original: Path):
    with ThreadPoolExecutor(max_workers=2) as pool:
        good, bad = pool.map(lambda p: verify(original, p, backends=BACKENDS),
                             [EXAMPLES / "saxpy.hip", EXAMPLES / "saxpy_wrong.hip"])  # fmt: skip
    assert (good.status, bad.status) == ("match", "mismatch")


def test_missing_record_is_unverifiable_with_the_fix(tmp_path: Path, hip_backend):
    source = tmp_path / "saxpy.cu"
    shutil.copy(EXAMPLES / "saxpy.cu", source)
    verdict = verify(source, EXAMPLES / "saxpy.hip", RunSpec(args=("16",)), backends=BACKENDS)
    assert verdict.status == "unverifiable" and "cass verify --record" in verdict.message


SCALE_CU = r"""// cass: input_files = ["in.txt"] output_files = [{ path = "out.bin", format = "f32" }, "log.txt"]
// cass: stdin = "3.0\n"
#include <cstdio>
#include <cuda_runtime.h>
__global__ void scale(float* v, float s, int n) { int i = threadIdx.x; if (i < n) v[i] *= s; }
int main() {
    float s; if (scanf("%f", &s) != 1) return 2;
    FILE* in = fopen("in.txt", "r"); if (!in) { perror("in.txt"); return 3; }
    float h[8]; int n = 0; while (n < 8 && fscanf(in, "%f", &h[n]) == 1) ++n; fclose(in);
    float* d; cudaMalloc(&d, sizeof h); cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    scale<<<1, 32>>>(d, s, n); cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    FILE* out = fopen("out.bin", "wb"); fwrite(h, sizeof(float), n, out); fclose(out);
    FILE* log = fopen("log.txt", "w"); fprintf(log, "scaled %d values by %g\n", n, s); fclose(log);
    printf("done\n");
    return 0;
}
"""


def test_stdin_input_and_output_files(tmp_path: Path, hip_backend):
    source = tmp_path / "scale.cu"
    source.write_text(SCALE_CU)
    (tmp_path / "in.txt").write_text("1 2 3.5 -4\n")
    hip = SCALE_CU.replace("cuda_runtime.h", "hip/hip_runtime.h").replace("cuda", "hip")
    port = tmp_path / "scale.hip"
    port.write_text(hip)
    spec = load_run_spec(source)
    values = np.array([1, 2, 3.5, -4], dtype=np.float32) * np.float32(3.0)
    files = {"out.bin": values.tobytes(), "log.txt": b"scaled 4 values by 3\n"}
    write_record(
        source, spec, RunResult("nvidia", 0, "done\n", output_files=files, runtimes_s=(0.1,))
    )
    assert verify(source, port, backends=BACKENDS).status == "match"
    port.write_text(hip.replace("v[i] *= s", "v[i] *= s + (i == 2)"))
    verdict = verify(source, port, backends=BACKENDS)
    assert verdict.status == "mismatch"
    first = verdict.mismatches[0]
    assert (first.where, first.expected, first.actual) == ("file:out.bin", "10.5", "14.0")
    assert first.message.startswith("element [2] differs")


def test_port_that_crashes_on_the_device_shows_the_fault(original: Path, tmp_path: Path):
    port = _port(tmp_path, "fault.hip", "(n, a, dx, dy);", "(n, a, dx, (float*)16);")
    verdict = verify(original, port, backends=BACKENDS)
    assert verdict.status == "mismatch" and verdict.mismatches[0].where == "exit_code"
    assert "emulator fault" in verdict.message


def test_allocator_interposer_agrees_with_the_emulators_count(
    tmp_path: Path, hip_backend, monkeypatch
):
    """The preloaded hipMalloc/cudaMalloc interposer (used by the rocm and nvidia backends) on a
    real HIP program: the cass HIP runtime stands in for ROCm's libamdhip64 here."""
    from cass.runner.backends.base import run_measured
    from cass.runner.backends.emulator import EmulatorBackend

    monkeypatch.setenv("CASS_EMULATOR_PYTHON", __import__("sys").executable)
    exe = EmulatorBackend().build(EXAMPLES / "saxpy.hip", tmp_path)
    measured = run_measured([str(exe), "4096", "2.5"], RunSpec(), "rocm")
    emulated = EmulatorBackend().run(EXAMPLES / "saxpy.hip", exe, RunSpec(args=("4096", "2.5")))
    assert measured.exit_code == 0 and measured.device_peak_bytes == 2 * 4096 * 4
    assert emulated.device_peak_bytes == measured.device_peak_bytes


def test_a_missing_input_file_is_named_before_anything_runs(tmp_path: Path):
    source = tmp_path / "k.cu"
    source.write_text('// cass: input_files = ["data/in.txt"]\nint main() { return 0; }\n')
    verdict = verify(source, EXAMPLES / "saxpy.hip")
    assert verdict.status == "unverifiable"
    assert (
        f"input file(s) of the run spec not found: {tmp_path / 'data' / 'in.txt'}"
        in verdict.message
    )
