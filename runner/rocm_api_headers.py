"""AMD's hipBLAS, hipFFT and hipSOLVER API headers (declarations only) in cass's cache.

Debian 12 packages none of the three, and PyPI has none. Their public headers let a port that
calls them compile here against AMD's real declarations, and let the rules engine check every
cuBLAS/cuFFT/cuSOLVER row against them. `cass setup --rocm-api-headers PATH_OR_URL` (or
`$CASS_ROCM_API_HEADERS`) installs them from an archive, a folder or a URL holding
`include/{hipblas,hipfft,hipsolver}` with their version headers: a ROCm 5.2 prefix (`/opt/rocm`),
the upstream repositories at tag `rocm-5.2.3` installed with CMake, or an archive of that
`include/` (the flat `hipblas.h` layout of ROCm 5.2 is kept beside the per-library folders):

    install(source) -> ApiHeaders(include_dir, versions, source)   # into cache_dir()/rocm-api-headers
    installed() -> ApiHeaders | None
    include_args() -> ["-isystem", DIR] or []                       # for builds that call them

Linking and running need an implementation: the real libraries on an AMD GPU; on the emulator,
cass's reference implementations for emulated verification (`cass.runner.emulated_libraries`).
"""

from __future__ import annotations

import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cass.runner.diagnostics import CassError
from cass.runner.outputs import staged_dir
from cass.runner.rocm_libs import UPSTREAM_TAG, HeaderInstall, _normalise, _source_folder

ENV_VAR = "CASS_ROCM_API_HEADERS"
# library -> (its folder under include/, its version header, the version macros' stem)
LIBRARIES: dict[str, tuple[str, str, str]] = {
    "hipBLAS": ("hipblas", "hipblas/hipblas-version.h", "hipblasVersion"),
    "hipFFT": ("hipfft", "hipfft/hipfft-version.h", "hipfftVersion"),
    "hipSOLVER": ("hipsolver", "hipsolver/internal/hipsolver-version.h", "hipsolverVersion"),
}
FIX = (
    "cass setup --rocm-api-headers PATH_OR_URL (an archive or folder holding include/hipblas, "
    "include/hipfft and include/hipsolver: a ROCm 5.2 install such as /opt/rocm, or ROCm/hipBLAS, "
    f"ROCm/hipFFT and ROCm/hipSOLVER at tag {UPSTREAM_TAG} installed by CMake)"
)


@dataclass(frozen=True)
class ApiHeaders:
    include_dir: Path
    versions: dict[str, str]
    source: str

    def header(self, library: str) -> Path:
        """The main header of `hipblas`, `hipfft` or `hipsolver`."""
        return self.include_dir / library / f"{library}.h"


HEADERS: HeaderInstall[ApiHeaders] = HeaderInstall(
    "rocm-api-headers",
    ENV_VAR,
    tuple(header for _, header, _ in LIBRARIES.values()),
    FIX,
    ApiHeaders,
)
installed = HEADERS.installed
include_args = HEADERS.include_args
configured_source = HEADERS.configured_source
needs_install = HEADERS.needs_install
describe = HEADERS.describe
find_include_dir = HEADERS.find_include_dir


def root() -> Path:
    return HEADERS.root()


def header_version(header: Path, stem: str) -> str:
    """`MAJOR.MINOR.PATCH` from `#define <stem>Major 0` ... (hipBLAS's own version header)."""
    text = header.read_text(encoding="utf-8", errors="replace")
    parts = [re.search(rf"#define\s+{stem}{p}\s+(\d+)", text) for p in ("Major", "Minor", "Patch")]
    if not all(parts):
        raise CassError(f"{header}: no {stem}Major/Minor/Patch defines; not a version header")
    return ".".join(m.group(1) for m in parts if m)


def read_versions(include_dir: Path) -> dict[str, str]:
    return {lib: header_version(include_dir / h, stem) for lib, (_, h, stem) in LIBRARIES.items()}


def install(source: str) -> ApiHeaders:
    """Copy the three libraries' headers (and the flat ROCm 5.2 layout, and licences) from
    `source` into the cache, then record where they are."""
    normal = _normalise(source)
    if "://" not in source and not Path(source).expanduser().exists():
        raise CassError(f"{source}: no such file or folder; {FIX}")
    with tempfile.TemporaryDirectory(prefix="cass-rocm-api-headers-") as name:
        include_dir = find_include_dir(_source_folder(source, Path(name)))
        if include_dir is None:
            raise CassError(
                f"{source}: no include/ holding hipblas, hipfft and hipsolver with their "
                f"version headers; {FIX}"
            )
        versions = read_versions(include_dir)
        target = root() / "-".join(f"{lib.lower()}{v}" for lib, v in versions.items())
        _publish(include_dir, target)
    return HEADERS.write_record(target / "include", versions, normal)


def _publish(include_dir: Path, target: Path) -> None:
    """The whole include/ (per-library folders and the flat headers) and the licences beside it,
    copied into a private folder that then replaces `target`."""
    with staged_dir(target, replace=True) as staging:
        shutil.copytree(include_dir, staging / "include")
        licences = include_dir.parent / "licenses"
        if licences.is_dir():
            shutil.copytree(licences, staging / "licenses")
