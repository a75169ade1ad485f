"""The name probe: does `cass port` port or report every CUDA API name, or leave some unchanged
without a word?

A probe file uses each name once, on a line of its own (`NAME(0);`). After the port each line is
`ported` (the name was rewritten), `diagnosed` (a diagnostic points at that line) or `silent`
(unchanged, nothing said): the failure this probe exists to find. Names come from real headers:

- `header_probe()`: every runtime and driver name the CUDA headers here declare (functions,
  types, enumerators, `_v2` spellings), and the CUDA counterpart of every name the HIP library
  headers declare (hipRAND, hipSPARSE; hipBLAS, hipFFT, hipSOLVER's `hipsolverDn` API), hipBLAS's
  batched extensions included (names a CUDA user could write even where CUDA lacks them);
- `hipify_probe(DIR)`: the names HIPIFY's published tables (`docs/tables/*_supported_by_HIP.md`
  of a ROCm/HIPIFY checkout) map to a HIP name that the HIP 5.2 headers here declare.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from cass.models.engine import Target
from cass.models.rules.engine import port_unit
from cass.models.rules.generate import (
    driver_names,
    hip_names,
    runtime_names,
    versioned_functions,
)
from cass.models.rules.libraries import code_identifiers as _code_identifiers

LIBRARY_HEADERS = {
    "cuRAND": (("hiprand/hiprand.h", "hiprand/hiprand_kernel.h"), r"hiprand\w+|HIPRAND_\w+"),
    "cuSPARSE": (("hipsparse/hipsparse.h",), r"hipsparse[A-Z]\w*|HIPSPARSE_\w+"),
}
API_HEADERS = {
    "cuBLAS": (("hipblas/hipblas.h",), r"hipblas[A-Z]\w*|HIPBLAS_\w+"),
    "cuFFT": (("hipfft/hipfft.h", "hipfft/hipfftXt.h"), r"hipfft[A-Z]\w*|HIPFFT_\w+"),
    "cuSOLVER": (("hipsolver/internal/hipsolver-compat.h",), r"hipsolverDn\w+"),
}
_ARTIFACT = re.compile(r"(_H_?|_EXPORT|_VERSION\w*|Version\w*|_DEPRECATED\w*|_hcc|_nvcc)$")
# HIPIFY table file stem -> probe label
HIPIFY_TABLES = {
    "CUDA_Runtime_API_functions_supported_by_HIP": "runtime",
    "CUDA_Driver_API_functions_supported_by_HIP": "driver",
    "CUBLAS_API_supported_by_HIP": "cuBLAS",
    "CURAND_API_supported_by_HIP": "cuRAND",
    "CUFFT_API_supported_by_HIP": "cuFFT",
    "CUSPARSE_API_supported_by_HIP": "cuSPARSE",
    "CUSOLVER_API_supported_by_HIP": "cuSOLVER",
    "CUDA_RTC_API_supported_by_HIP": "NVRTC",
    "CUDA_Device_API_supported_by_HIP": "device",
}


@dataclass
class ProbeResult:
    counts: dict[str, Counter] = field(default_factory=dict)  # label -> ported/diagnosed/silent
    silent: dict[str, list[str]] = field(default_factory=dict)

    def total(self, outcome: str) -> int:
        return sum(c[outcome] for c in self.counts.values())


def _cuda_name(hip: str) -> str:
    return ("cu" + hip[3:]) if hip.startswith("hip") else ("CU" + hip[3:])


def header_probe(
    cuda_include: Path = Path("/usr/local/cuda/include"),
    hip_include: Path = Path("/usr/include"),
    api_include: Path | None = None,
) -> dict[str, list[str]]:
    """Probe names by library, from the CUDA headers and the HIP library headers found."""
    rt_funcs, rt_types = runtime_names(cuda_include)
    drv_funcs, drv_types = driver_names(cuda_include)
    probe = {
        "runtime": sorted(rt_funcs | rt_types),
        "driver": sorted(drv_funcs | drv_types | set(versioned_functions(cuda_include))),
    }
    sources = [(hip_include, LIBRARY_HEADERS)]
    if api_include is not None:
        sources.append((api_include, API_HEADERS))
    for root, libraries in sources:
        for label, (headers, pattern) in libraries.items():
            paths = [root / h for h in headers if (root / h).is_file()]
            hip = _code_identifiers(paths, re.compile(pattern))
            probe[label] = sorted({_cuda_name(h) for h in hip if not _ARTIFACT.search(h)})
    return probe


def hipify_probe(tables: Path, hip_include: Path = Path("/usr/include"), api_include=None):
    """Names HIPIFY's tables map to a HIP name the HIP 5.2 headers here declare, by library."""
    known = set(hip_names(hip_include / "hip"))
    for folder in ("hiprand", "hipsparse"):
        known |= _code_identifiers(list((hip_include / folder).glob("*.h")), re.compile(r"\w+"))
    if api_include is not None:
        known |= _code_identifiers(list(api_include.rglob("*.h")), re.compile(r"\w+"))
    probe: dict[str, list[str]] = {}
    for stem, label in HIPIFY_TABLES.items():
        path = tables / f"{stem}.md"
        if not path.is_file():
            continue
        names = set()
        for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
            cells = line.split("|")
            if len(cells) > 6 and cells[1].startswith("`") and cells[6].startswith("`"):
                cuda, hip = cells[1].strip("`"), cells[6].strip("`")
                if hip in known and re.fullmatch(r"[A-Za-z_]\w*", cuda):
                    names.add(cuda)
        probe[label] = sorted(names)
    return probe


def run_probe(probe: dict[str, list[str]], target: Target | None = None) -> ProbeResult:
    """Port one probe file holding every name; classify each name's line."""
    head = "void probe() {\n"
    lines, owners, offsets, offset = [], [], [], len(head)
    for label, names in probe.items():
        for name in names:
            lines.append(f"{name}(0);\n")
            owners.append((label, name))
            offsets.append(offset)
            offset += len(lines[-1])
    unit = port_unit(head + "".join(lines) + "}\n", "probe.cu", target or Target())
    index = {unit.code[i].start: i for i in range(len(unit.code))}
    diagnosed = {d.line for d in unit.diagnostics}
    result = ProbeResult()
    for number, ((label, name), start) in enumerate(zip(owners, offsets, strict=True)):
        if unit.is_edited(unit.code[index[start]]):
            outcome = "ported"  # renamed or rewritten (a warning may say how it differs)
        elif number + 2 in diagnosed:
            outcome = "diagnosed"
        else:
            outcome = "silent"
        result.counts.setdefault(label, Counter())[outcome] += 1
        if outcome == "silent":
            result.silent.setdefault(label, []).append(name)
    return result
