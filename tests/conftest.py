"""Fixtures shared by several test folders."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
# A dependency, never copied into the repository: ../shared/deps beside the clone (CI has it).
ROCM_LIBS_ARCHIVE = REPO.parent / "shared" / "deps" / "rocm-libs-5.2.3.tar.gz"


@pytest.fixture(scope="session")
def rocm_libs_include() -> Path:
    """The include folder of rocPRIM/hipCUB/rocThrust that every HIP build uses: the copy `cass
    setup --rocm-libs` installed, else installed here from ROCM_LIBS_ARCHIVE as set-up would."""
    from cass.runner import rocm_libs

    libs = rocm_libs.installed()
    if libs is None:
        if not ROCM_LIBS_ARCHIVE.is_file():
            pytest.skip(
                f"rocPRIM/hipCUB/rocThrust are not installed and {ROCM_LIBS_ARCHIVE} is absent: "
                "run `cass setup --rocm-libs PATH_OR_URL`"
            )
        libs = rocm_libs.install(str(ROCM_LIBS_ARCHIVE))
    return libs.include_dir
