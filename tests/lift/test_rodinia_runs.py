"""benchmarks/port_rodinia.py's pieces for the texture-reference applications (kmeans, mummergpu):
their generated inputs and the driver-library link stub a CUDA 11 build of mummergpu links with."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="module")
def pr(benchmark_script):
    return benchmark_script("port_rodinia")


def test_kmeans_points_are_kmeans_text_input(pr, tmp_path: Path):
    pr.prepare_run_dir("kmeans", tmp_path)
    rows = [line.split() for line in (tmp_path / "points.txt").read_text().splitlines()]
    assert len(rows) == 400 and {len(r) for r in rows} == {7}  # id + 6 features
    assert [int(r[0]) for r in rows] == list(range(1, 401))
    again = tmp_path / "again"
    pr.prepare_run_dir("kmeans", again)
    assert (again / "points.txt").read_bytes() == (tmp_path / "points.txt").read_bytes()


def test_mummer_inputs_are_fasta_with_an_aperiodic_reference(pr, tmp_path: Path):
    pr.prepare_run_dir("mummergpu", tmp_path)
    header, ref = (tmp_path / "ref.fa").read_text().split()
    assert header == ">ref" and len(ref) == 2000 and set(ref) == set("ACGT")
    assert ref[:1024] != ref[1024:2048]  # the generator's low bits would repeat every 1024
    lines = (tmp_path / "qry.fa").read_text().splitlines()
    names, reads = lines[0::2], lines[1::2]
    assert names == [f">q{k}" for k in range(60)]
    assert all(24 <= len(r) <= 48 for r in reads)
    exact = [r for k, r in enumerate(reads) if k % 5 != 4 and k % 3 != 0]
    assert exact and all(r in ref for r in exact)


def test_driver_stub_links_under_the_driver_library_name(pr, tmp_path: Path):
    flags = pr.driver_stub(["cuMemGetInfo_v2"], tmp_path / "stub")
    assert flags == [f"-L{tmp_path / 'stub'}", "-lcuda"]
    lib = tmp_path / "stub" / "libcuda.so"
    dynamic = subprocess.run(["readelf", "-dW", str(lib)], capture_output=True, text=True).stdout
    assert "(SONAME)" in dynamic and "[libcuda.so.1]" in dynamic
    symbols = subprocess.run(["nm", "-D", str(lib)], capture_output=True, text=True).stdout
    assert " T cuMemGetInfo_v2" in symbols
    assert pr.driver_stub([], tmp_path / "none") == []
