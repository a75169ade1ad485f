"""`cass setup --rocm-libs`: rocPRIM, hipCUB and rocThrust installed into the cache from the shared
archive (never from a copy in this repository), reported by doctor, first on every HIP include path;
with none installed and no source named, nothing changes."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest
from cass.runner import rocm_libs, setup
from cass.runner.diagnostics import CassError

ARCHIVE = Path(__file__).resolve().parents[2].parent / "shared" / "deps" / "rocm-libs-5.2.3.tar.gz"
needs_archive = pytest.mark.skipif(
    not ARCHIVE.is_file(), reason=f"{ARCHIVE} is absent (a dependency kept beside the clone)"
)


@pytest.fixture
def empty_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("CASS_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv(rocm_libs.ENV_VAR, raising=False)
    return tmp_path / "cache"


def test_nothing_installed_and_no_source_changes_nothing(empty_cache: Path):
    assert rocm_libs.installed() is None and rocm_libs.include_args() == []
    assert not any(step.rocm_libs for step in setup.plan_setup())
    found, detail = rocm_libs.describe()
    assert not found and "cass setup --rocm-libs" in detail and "rocm-5.2.3" in detail


@needs_archive
def test_install_from_the_archive_records_versions_from_the_headers(empty_cache: Path):
    libs = rocm_libs.install(str(ARCHIVE))
    assert libs.versions == {"rocPRIM": "2.10.9", "hipCUB": "2.10.9", "rocThrust": "2.10.9"}
    assert libs.include_dir.is_relative_to(empty_cache)
    assert (libs.include_dir / "thrust" / "rocthrust_version.hpp").is_file()
    assert (libs.include_dir.parent / "licenses" / "rocPRIM-LICENSE.txt").is_file()
    assert rocm_libs.installed() == libs
    assert rocm_libs.include_args() == ["-isystem", str(libs.include_dir)]
    assert not rocm_libs.needs_install(str(ARCHIVE))  # set-up again only checks


@needs_archive
def test_the_environment_variable_plans_the_install(empty_cache: Path, monkeypatch):
    monkeypatch.setenv(rocm_libs.ENV_VAR, str(ARCHIVE))
    [step] = [s for s in setup.plan_setup() if s.rocm_libs]
    assert "rocThrust" in setup.run_step(step)
    assert not any(s.rocm_libs for s in setup.plan_setup())


@needs_archive
def test_install_from_a_folder_and_the_cli_and_doctor(empty_cache: Path, tmp_path: Path):
    with tarfile.open(ARCHIVE) as tar:
        tar.extractall(tmp_path / "prefix", filter="data")
    cli = [sys.executable, "-m", "cass.server.cli"]
    proc = subprocess.run(
        [*cli, "setup", "--rocm-libs", str(tmp_path / "prefix")],
        capture_output=True, text=True, timeout=600, check=False,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    shutil.rmtree(tmp_path / "prefix")  # the cache holds its own copy
    doctor = subprocess.run([*cli, "doctor"], capture_output=True, text=True, timeout=300)
    assert "rocThrust 2.10.9" in doctor.stdout.replace("\n", " ")


@needs_archive
def test_every_hip_build_puts_them_before_the_system_headers(empty_cache: Path, tmp_path: Path):
    from cass.runner.toolchain import hip_clang_command

    libs = rocm_libs.install(str(ARCHIVE))
    source = tmp_path / "v.hip"
    source.write_text("#include <rocprim/rocprim.hpp>\n")
    argv = [*hip_clang_command(), "--cuda-host-only", "-E", str(source)]
    proc = subprocess.run(argv, capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    assert f'"{libs.include_dir}/rocprim/rocprim.hpp"' in proc.stdout
    assert '"/usr/include/rocprim/' not in proc.stdout  # Debian's rocPRIM of ROCm 5.3.3


def test_bad_sources_are_one_clear_line(empty_cache: Path, tmp_path: Path):
    with pytest.raises(CassError, match="no such file or folder"):
        rocm_libs.install(str(tmp_path / "missing.tar.gz"))
    (tmp_path / "empty").mkdir()
    with pytest.raises(CassError, match="no include/ holding rocprim, hipcub and thrust"):
        rocm_libs.install(str(tmp_path / "empty"))
    (tmp_path / "junk.tar.gz").write_text("not an archive")
    with pytest.raises(CassError, match="not a readable tar archive"):
        rocm_libs.install(str(tmp_path / "junk.tar.gz"))
    with pytest.raises(CassError, match="only http"):
        rocm_libs.install("ftp://example.invalid/libs.tar.gz")


def _fake_prefix(folder: Path, version: int) -> Path:
    """An include/ with the three version headers (the only files installed() looks at)."""
    for lib, (sub, header, _) in rocm_libs.LIBRARIES.items():
        path = folder / "include" / header
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(
            "".join(
                f"#define {lib.upper()}_VERSION_{p} {version}\n"
                for p in ("MAJOR", "MINOR", "PATCH")
            )
        )
        (folder / "include" / sub / "core.hpp").write_text("// header\n")
    return folder


def test_the_install_record_is_read_again_when_it_changes(empty_cache: Path, tmp_path: Path):
    first = rocm_libs.install(str(_fake_prefix(tmp_path / "one", 1)))
    assert rocm_libs.installed() == first and first.versions["rocPRIM"] == "1.1.1"
    second = rocm_libs.install(str(_fake_prefix(tmp_path / "two", 2)))
    assert rocm_libs.installed() == second and second.versions["hipCUB"] == "2.2.2"
    assert rocm_libs.needs_install(str(tmp_path / "one")) and not rocm_libs.needs_install(
        str(tmp_path / "two")
    )
    shutil.rmtree(second.include_dir)  # removed behind cass's back: nothing installed
    assert rocm_libs.installed() is None and rocm_libs.include_args() == []
