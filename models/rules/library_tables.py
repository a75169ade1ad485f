"""The library tables `cass tables generate` writes from the HIP libraries'
headers: cuRAND and cuSPARSE from Debian's hipRAND/hipSPARSE, cuBLAS, cuFFT and cuSOLVER from the
hipBLAS/hipFFT/hipSOLVER headers `cass setup --rocm-api-headers` installs (`libraries.py` holds
the hand knowledge). Each row's last column names the header that checked it."""

from __future__ import annotations

import re
from pathlib import Path

from cass.models.rules import libraries
from cass.models.rules.libraries import code_identifiers

_LIBRARY_ARTIFACTS = re.compile(
    r"(_hcc|_nvcc|_EXPORTS|_st|^hiprand_kernel|^hipranddevice|^hiprandhost|_version|_name|_H_?|EXPORT|DEPRECATED)$"
)


CURAND_CHECKED = "hipRAND 5.2 headers (/usr/include/hiprand)"
CUSPARSE_CHECKED = "hipSPARSE 5.2 header (/usr/include/hipsparse)"
# rocRAND's cuRAND-compatibility table (rocRAND docs, "cuRAND compatibility"): only Sobol32 and
# Sobol64 produce cuRAND's numbers for the same seed, dimensions and offset.
_SAME_SEQUENCE = ("SOBOL32", "SOBOL64")
CURAND_SEQUENCE_NOTE = (
    "differs: rocRAND's {g} does not produce cuRAND's sequence for the same seed (only Sobol32 "
    "and Sobol64 do): compare statistics, not values"
)


def _curand_note(cuda: str) -> str:
    generator = re.match(r"CURAND_RNG_(?:PSEUDO|QUASI)_(\w+)$", cuda)
    if generator and generator.group(1) not in (*_SAME_SEQUENCE, "TEST"):
        return CURAND_SEQUENCE_NOTE.format(g=generator.group(1))
    if re.match(r"curand(State\w*|_init)$", cuda) and "Sobol" not in cuda:
        return CURAND_SEQUENCE_NOTE.format(g="device generator")
    return ""


def curand_rows(include: Path) -> dict[str, libraries.Row]:
    """hipRAND mirrors cuRAND's names: every hipRAND name gives its cuRAND original; names that
    hipRAND's NVIDIA-platform wrappers call but the AMD headers lack are `unsupported`."""
    amd = [p for p in (include / "hiprand").glob("*.h") if "nvcc" not in p.name]
    hip = {
        h
        for h in code_identifiers(amd, re.compile(r"hiprand\w+|HIPRAND_\w+"))
        if not _LIBRARY_ARTIFACTS.search(h)
    }
    wrappers = sorted((include / "hiprand").glob("*nvcc*.h"))
    cuda = {
        c
        for c in code_identifiers(wrappers, re.compile(r"curand\w+|CURAND_\w+"))
        if not _LIBRARY_ARTIFACTS.search(c)
    }
    rows: dict[str, libraries.Row] = {}
    for h in hip:
        name = "cu" + h[3:] if h.startswith("hip") else "CU" + h[3:]
        rows[name] = (h, "supported", "5.2", _curand_note(name), CURAND_CHECKED)
    for name in cuda - rows.keys():
        note = "no counterpart in the hipRAND 5.2 headers"
        rows[name] = ("", "unsupported", "", note, "absent from " + CURAND_CHECKED)
    return rows


# hipSPARSE names whose cuSPARSE original is spelt differently (CUDA 13's cusparse.h)
_CUSPARSE_SPELLING = {"HIPSPARSE_ORDER_COLUMN": "CUSPARSE_ORDER_COL"}


def cusparse_rows(include: Path) -> dict[str, libraries.Row]:
    """hipSPARSE mirrors cuSPARSE's names: every hipSPARSE name gives its cuSPARSE original."""
    hip = code_identifiers(
        [include / "hipsparse" / "hipsparse.h"], re.compile(r"hipsparse[A-Z]\w*|HIPSPARSE_\w+")
    )
    hip = {h for h in hip if not _LIBRARY_ARTIFACTS.search(h)}
    return {
        _CUSPARSE_SPELLING.get(h, "cu" + h[3:] if h.startswith("hip") else "CU" + h[3:]): (
            h,
            "supported",
            "5.2",
            "",
            CUSPARSE_CHECKED,
        )
        for h in hip
    }


def api_tables(api_include: Path | None) -> dict[str, dict[str, libraries.Row]]:
    """cuBLAS, cuFFT and cuSOLVER rows from the hipBLAS/hipFFT/hipSOLVER headers at
    `api_include` (none: the tables stay as committed)."""
    if api_include is None:
        return {}
    from cass.runner.rocm_api_headers import read_versions

    versions = read_versions(api_include)

    def names(*headers: str) -> set[str]:
        return code_identifiers([api_include / h for h in headers], re.compile(r"[A-Za-z_]\w*"))

    blas = f"hipBLAS {versions['hipBLAS']} header (rocm-api-headers)"
    fft = f"hipFFT {versions['hipFFT']} headers (rocm-api-headers)"
    solver = f"hipSOLVER {versions['hipSOLVER']} headers (rocm-api-headers)"
    solver_headers = [f"hipsolver/internal/{h}.h" for h in ("hipsolver-types", "hipsolver-compat")]
    return {
        "cublas": libraries.cublas_rows(api_include, names("hipblas/hipblas.h"), blas),
        "cufft": libraries.cufft_rows(names("hipfft/hipfft.h", "hipfft/hipfftXt.h"), fft),
        "cusolver": libraries.cusolver_rows(names(*solver_headers), solver),
    }
