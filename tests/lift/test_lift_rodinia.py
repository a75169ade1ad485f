"""benchmarks/lift_rodinia.py on an application of Rodinia's shape (not the corpus): a main file
that `#include`s its kernel file, a header in a subfolder, a CUDA file with no kernel. Real nvcc,
cuobjdump and the lift engine; the lifted code object is what the run embeds."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.runner.toolchain import has_tool

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(
    not (has_tool("nvcc") and has_tool("cuobjdump") and has_tool("llc-16")),
    reason="needs nvcc, cuobjdump and llc-16 (`cass setup`)",
)

KERNEL = """#include "scale.h"
__global__ void scale(float *x, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) x[i] = x[i] * SCALE + 1.0f;
}
"""
MAIN = """#include "kernel.cu"
int main() { float *x; cudaMalloc(&x, 64); scale<<<1, 16>>>(x, 16); cudaThreadSynchronize(); }
"""


@pytest.fixture(scope="module")
def lr(benchmark_script):
    return benchmark_script("lift_rodinia")


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tree = tmp_path_factory.mktemp("corpus")
    app = tree / "cuda" / "toy"
    (app / "inc").mkdir(parents=True)
    (tree / "cuda" / "util").mkdir()
    (app / "inc" / "scale.h").write_text("#define SCALE 2.0f\n")
    (app / "kernel.cu").write_text(KERNEL)
    (app / "main.cu").write_text(MAIN)
    (app / "host_only.cu").write_text("int answer() { return 42; }\n")
    return app


def test_included_kernel_files_are_counted_through_their_includer(lr, app: Path):
    assert lr.included_sources(app) == {(app / "kernel.cu").resolve()}


def test_every_kernel_lifts_and_a_file_without_kernels_is_no_failure(lr, app: Path, tmp_path: Path):
    row = lr.lift_app(app.parents[1], app, "sm_80", tmp_path / "work")
    assert (row["kernels"], row["lifted"], row["reason"]) == (1, 1, "")
    assert set(row["files"]) == {"main.cu", "host_only.cu"}  # kernel.cu through main.cu
    assert row["files"]["main.cu"]["kernels"] == ["_Z5scalePfi"]
    assert row["files"]["host_only.cu"]["kernels"] == []
    assert row["slowest"] == "main.cu" and row["instructions"] > 5 and row["lift_cpu_s"] > 0
    # what the run embeds: the lifted code object, the host compiled without device code
    device = lr.lifted_device_args(row, tmp_path / "build")
    args = device("main.cu")
    assert args[0] == "--cuda-host-only" and Path(args[-1]).stat().st_size > 0
    assert device("host_only.cu") == ()


def test_a_file_nvcc_rejects_gives_its_located_reason(lr, app: Path, tmp_path: Path):
    broken = app.parent / "broken"
    broken.mkdir()
    (broken / "bad.cu").write_text("__global__ void k() { undeclared(); }\n")
    row = lr.lift_app(app.parents[1], broken, "sm_80", tmp_path / "work")
    assert row["kernels"] == 0
    assert row["reason"].startswith("bad.cu: nvcc: cuda/broken/bad.cu(1)")
    assert "undeclared" in row["reason"]


def test_a_program_in_a_subfolder_gets_its_flags_and_lifted_kernels(lr, tmp_path: Path):
    """leukocyte's shape: the lifted folder is the application's (leukocyte/), the run table's
    program and its sources live in leukocyte/CUDA/ with an include folder beside it."""
    tree = tmp_path / "corpus"
    folder = tree / "cuda" / "leukocyte"
    (folder / "CUDA").mkdir(parents=True)
    (folder / "meschach_lib").mkdir()
    flags = lr.nvcc_flags(tree, folder, folder / "CUDA" / "k.cu", tmp_path / "c.h")
    assert f"-I{(folder / 'meschach_lib').resolve()}" in flags and "-DOUTPUT" in flags
    row = {
        "files": {"CUDA/k.cu": {"compiled": True, "kernels": ["k"], "lifted": [], "reason": "x"}}
    }
    device = lr.lifted_device_args(row, tmp_path / "build", Path("CUDA"))
    with pytest.raises(LookupError, match="k.cu: not every kernel lifted"):
        device("k.cu")  # found under CUDA/, where the lift row keeps it
    assert device("other.cu") == ()


TEXREF = """texture<float, 1, cudaReadModeElementType> t_in;
__global__ void twice(float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = 2.0f * tex1Dfetch(t_in, i);
}
"""


def test_own_headers_and_include_folders_reach_nvcc(lr, app: Path, tmp_path: Path):
    """cfd's `#include <helper_cuda.h>`: cass's minimal header; `--include` folders follow."""
    uses = app.parent / "uses_helpers"
    uses.mkdir()
    (uses / "k.cu").write_text("#include <helper_cuda.h>\n#include <helper_timer.h>\n"
                               "__global__ void k(int *x) { x[0] = 1; }\n"
                               "void go(int *x) { StopWatchInterface *t = 0; sdkCreateTimer(&t);\n"
                               "  k<<<1, 1>>>(x); getLastCudaError(\"k\"); }\n")  # fmt: skip
    row = lr.lift_app(app.parents[1], uses, "sm_90", tmp_path / "work")
    assert (row["kernels"], row["lifted"], row["nvcc"]) == (1, 1, ["13.0"]), row["reason"]
    flags = lr.nvcc_flags(app.parents[1], uses, uses / "k.cu", tmp_path / "c.h", (tmp_path,))
    assert flags.index(f"-I{tmp_path}") < flags.index(f"-I{lr.OWN_HEADERS}")


def test_texture_references_are_refused_by_nvcc_13(lr, app: Path, tmp_path: Path):
    old = app.parent / "texref13"
    old.mkdir()
    (old / "t.cu").write_text(TEXREF)
    row = lr.lift_app(app.parents[1], old, "sm_80", tmp_path / "work")
    assert row["kernels"] == 0 and "texture is not a template" in row["reason"]
    assert row["reason"].startswith("t.cu: nvcc: ") and row["nvcc"] == []


def test_texture_references_lift_through_the_legacy_nvcc(
    lr, app: Path, tmp_path: Path, legacy_nvcc: str
):
    """With --legacy-nvcc the file nvcc 13 refuses is compiled by CUDA 11; the row says so."""
    old = app.parent / "texref11"
    old.mkdir()
    (old / "t.cu").write_text(TEXREF)
    toolkit = Path(legacy_nvcc).parents[1]
    for arch in ("sm_80", "sm_90"):
        row = lr.lift_app(app.parents[1], old, arch, tmp_path / arch, toolkit)
        assert (row["kernels"], row["lifted"], row["nvcc"], row["reason"]) == (
            1, 1, ["11.8"], ""), row  # fmt: skip
        assert row["files"]["t.cu"]["nvcc"] == "11.8"
