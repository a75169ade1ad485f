"""`cass setup --rocm-api-headers`: hipBLAS, hipFFT and hipSOLVER headers installed into the cache
from the shared archive (never from a copy in this repository), versions read from their own
version headers, on every HIP include path; bad sources are one line naming them."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cass.runner import rocm_api_headers, setup, toolchain
from cass.runner.diagnostics import CassError

ARCHIVE = (
    Path(__file__).resolve().parents[2].parent / "shared" / "deps" / "rocm-api-headers-5.2.3.tar.gz"
)
needs_archive = pytest.mark.skipif(
    not ARCHIVE.is_file(), reason=f"{ARCHIVE} is absent (a dependency kept beside the clone)"
)


@pytest.fixture
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CASS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv(rocm_api_headers.ENV_VAR, raising=False)
    return tmp_path / "cache"


def test_nothing_installed_and_no_source_changes_nothing(empty_cache: Path):
    assert rocm_api_headers.installed() is None and rocm_api_headers.include_args() == []
    assert not any(step.rocm_api_headers for step in setup.plan_setup())
    found, detail = rocm_api_headers.describe()
    assert not found and "--rocm-api-headers" in detail


def test_a_missing_or_wrong_source_is_one_line(empty_cache: Path, tmp_path: Path):
    with pytest.raises(CassError, match=r"nowhere: no such file or folder; cass setup --rocm-api"):
        rocm_api_headers.install(str(tmp_path / "nowhere"))
    (tmp_path / "empty" / "include").mkdir(parents=True)
    with pytest.raises(CassError, match=r"no include/ holding hipblas, hipfft and hipsolver"):
        rocm_api_headers.install(str(tmp_path / "empty"))


@needs_archive
def test_install_from_the_archive_then_a_port_compiles_against_it(empty_cache: Path, tmp_path):
    steps = setup.plan_setup(api_headers_source=str(ARCHIVE))
    assert [s.rocm_api_headers for s in steps if s.rocm_api_headers] == [str(ARCHIVE)]
    headers = rocm_api_headers.install(str(ARCHIVE))
    assert headers.versions == {"hipBLAS": "0.51.0", "hipFFT": "1.0.8", "hipSOLVER": "1.4.0"}
    assert (headers.include_dir.parent / "licenses" / "hipBLAS-LICENSE.md").is_file()
    assert rocm_api_headers.installed() == headers
    assert not rocm_api_headers.needs_install(str(ARCHIVE))
    program = tmp_path / "k.hip"
    program.write_text(
        "#include <hipblas.h>\n#include <hipfft/hipfft.h>\n#include <hipsolver/hipsolver.h>\n"
        "int main() { hipblasHandle_t h; return hipblasCreate(&h) == HIPBLAS_STATUS_SUCCESS; }\n"
    )
    cmd = [*toolchain.hip_clang_command("gfx1100"), "-fsyntax-only", str(program)]
    assert str(headers.include_dir) in cmd
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
