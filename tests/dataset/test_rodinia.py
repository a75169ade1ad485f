"""Real multi-file CUDA through the same pipeline: Rodinia's pathfinder and nn, read from
../shared/corpus/rodinia-cuda.tar.gz (skipped where the archive is absent; never copied here)."""

from __future__ import annotations

import tarfile
from pathlib import Path

import pytest

pytestmark = pytest.mark.toolchain
CORPUS = Path(__file__).resolve().parents[3] / "shared" / "corpus" / "rodinia-cuda.tar.gz"


@pytest.mark.skipif(
    not CORPUS.is_file(), reason=f"{CORPUS} is absent (the Rodinia corpus lives beside the clone)"
)
def test_rodinia_applications_go_through_the_pipeline(tmp_path):
    import datasets
    from cass.models.dataset.pipeline import BuildOptions, build

    with tarfile.open(CORPUS) as archive:
        members = [
            m
            for m in archive.getmembers()
            if "/cuda/pathfinder/" in m.name or "/cuda/nn/" in m.name
        ]
        archive.extractall(tmp_path, members=members, filter="data")
    apps = tmp_path / "rodinia-cuda" / "cuda"
    stats = build(
        BuildOptions([str(apps / "pathfinder"), str(apps / "nn")], tmp_path / "out", workers=2)
    )
    rows = {r["id"]: r for r in datasets.load_dataset(str(tmp_path / "out"), "programs", split="train").to_list()
            + (datasets.load_dataset(str(tmp_path / "out"), "programs", split="test").to_list()
               if list((tmp_path / "out" / "data").glob("programs-test-*")) else [])}  # fmt: skip
    assert set(rows) == {"pathfinder/pathfinder.cu", "nn/nn_cuda.cu"}
    path = rows["pathfinder/pathfinder.cu"]
    assert (
        path["cuda_compile_status"] == "ok"
        and path["hip_compile_status"] == "ok"
        and path["kernels"] == 1
    )
    assert path["verification"] == "not-run"  # a real program runs only against an NVIDIA record
    nn = rows[
        "nn/nn_cuda.cu"
    ]  # cudaThreadSynchronize: gone from CUDA 13, ported by the rules engine
    assert (
        nn["cuda_compile_status"] == "error" and "cudaThreadSynchronize" in nn["cuda_compile_error"]
    )
    assert nn["hip_compile_status"] == "ok" and "hipDeviceSynchronize" in nn["hip"]
    assert stats["stages"]["compiled-nvidia"] == 1 and stats["stages"]["compiled-amd"] == 2
