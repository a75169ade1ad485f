"""The mapping tables: one TSV file per API family under `tables/`, loaded once.

Columns: `cuda  hip  status  since  note  checked`. `status` is one of
- `supported`: renamed 1:1 to `hip` (present since HIP version `since`);
- `rewritten`: a pass rewrites the construct (the `hip` column says into what);
- `unsupported`: no HIP counterpart known; reported as an error where used.
`checked` (generated tables) names the header that confirms the row (its HIP name declared
there, or for an unsupported row its absence), or says that no header here confirms it.
Lines starting with `#` are comments (generated tables say how to regenerate them).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

TABLE_DIR = Path(__file__).parent / "tables"
STATUSES = ("supported", "rewritten", "unsupported")
SCOPED_FAMILIES = frozenset(("headers", "cooperative_groups", "wmma"))


@dataclass(frozen=True)
class Family:
    name: str  # the TSV file's stem
    title: str
    headers: tuple[str, ...]  # installed HIP headers (under /usr/include) that define its names
    # the HIP library's header folder when Debian 12 does not package it (names unverified)
    unpackaged: str = ""
    # where `cass setup --rocm-api-headers` installs that folder instead (names checked there)
    api_headers: str = ""
    # a committed facts file of the library's public header (tables/facts/) that checks its names
    facts: str = ""


FAMILIES: tuple[Family, ...] = (
    Family("runtime", "CUDA runtime API", ("hip",)),
    Family("driver", "CUDA driver API", ("hip",)),
    Family("types", "Types, enums, macros and error codes", ("hip",)),
    Family("device", "Device functions and intrinsics", ("hip",)),
    Family("headers", "Headers", ()),
    Family("cublas", "cuBLAS -> hipBLAS", (), unpackaged="hipblas", api_headers="hipblas"),
    Family("curand", "cuRAND (host and device) -> hipRAND", ("hiprand",)),
    Family("cufft", "cuFFT -> hipFFT", (), unpackaged="hipfft", api_headers="hipfft"),
    Family("cusparse", "cuSPARSE -> hipSPARSE", ("hipsparse",)),
    Family(
        "cusolver", "cuSOLVER -> hipSOLVER", (), unpackaged="hipsolver", api_headers="hipsolver"
    ),
    Family("cub", "CUB -> hipCUB", (), unpackaged="hipcub"),
    Family("nccl", "NCCL -> RCCL", (), unpackaged="rccl"),
    Family("nvrtc", "NVRTC -> hipRTC", ("hip",)),
    Family("nvtx", "NVTX -> roctx", (), unpackaged="roctracer", facts="roctx.h@7910a996.ids"),
    Family("cudnn", "cuDNN -> MIOpen", (), unpackaged="miopen", facts="miopen.h@3f329dff.ids"),
    Family(
        "wmma",
        "nvcuda::wmma -> rocWMMA",
        (),
        unpackaged="rocwmma",
        facts="rocwmma.hpp@002e5aa5.ids",
    ),
    Family("cooperative_groups", "Cooperative groups", ("hip",)),
)


@lru_cache(maxsize=64)
def parse_version(text: str) -> tuple[int, int]:
    """'5.2' -> (5, 2); '7' and '7.x' -> (7, 0). ValueError on anything else."""
    parts = [("0" if p == "x" else p) for p in text.strip().lower().split(".")]
    if not 1 <= len(parts) <= 3 or not all(p.isdigit() for p in parts):
        raise ValueError(f"'{text}' is not a HIP version (expected e.g. 5.2, 6.2, 7.0 or 7.x)")
    return int(parts[0]), int(parts[1]) if len(parts) > 1 else 0


@dataclass(frozen=True)
class MappingEntry:
    """What cass knows about one CUDA name."""

    cuda: str
    hip: str
    status: str
    since: str  # HIP version that introduced `hip` ('' when unsupported)
    family: str
    note: str = ""
    checked: str = ""  # the header that confirms the row, or why none does

    def available_in(self, hip_version: str) -> bool:
        if self.status == "unsupported" or not self.since:
            return False
        return parse_version(self.since) <= parse_version(hip_version)


def _read_family(family: Family) -> list[MappingEntry]:
    path = TABLE_DIR / f"{family.name}.tsv"
    entries = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) < 4 or cols[2] not in STATUSES:
            raise ValueError(
                f"{path}:{number}: expected cuda<TAB>hip<TAB>status<TAB>since[<TAB>note]"
            )
        note = cols[4] if len(cols) > 4 else ""
        checked = cols[5] if len(cols) > 5 else ""
        entries.append(MappingEntry(cols[0], cols[1], cols[2], cols[3], family.name, note, checked))
    return entries


@lru_cache(maxsize=1)
def all_entries() -> tuple[MappingEntry, ...]:
    return tuple(e for family in FAMILIES for e in _read_family(family))


@lru_cache(maxsize=1)
def name_table() -> dict[str, MappingEntry]:
    """CUDA identifier -> entry; the first family listing a name wins. Headers and cooperative
    groups (plain words such as `reduce` that only mean CG when qualified) are looked up apart."""
    table: dict[str, MappingEntry] = {}
    for entry in all_entries():
        if entry.family not in SCOPED_FAMILIES:
            table.setdefault(entry.cuda, entry)
    return table


@cache
def family_table(family: str) -> dict[str, MappingEntry]:
    return {e.cuda: e for e in all_entries() if e.family == family}


def header_table() -> dict[str, MappingEntry]:
    return family_table("headers")


def header_entry(name: str) -> MappingEntry | None:
    """The entry for an included header: its own row, else the row of the nearest folder it lies
    in (a row named `cub/` covers every CUB header)."""
    table = header_table()
    if name in table:
        return table[name]
    folder = name
    while "/" in folder:
        folder = folder.rsplit("/", 1)[0]
        if (entry := table.get(folder + "/")) is not None:
            return entry
    return None


GUARDS = Family("guards", "CUDA header guards and version macros", ("hip", "hiprand", "hipsparse"))


@lru_cache(maxsize=1)
def guard_table() -> dict[str, MappingEntry]:
    """CUDA header-guard / version macro -> its HIP guard or value (`tables/guards.tsv`); kept
    apart from the name table: these are renamed only where a conditional directive tests them."""
    return {e.cuda: e for e in _read_family(GUARDS)}


def lookup(name: str) -> MappingEntry | None:
    """The entry for a CUDA name: an identifier (`cudaMalloc`), a header (`cuda_runtime.h`), a
    qualified CUB name (`cub::DeviceReduce`) or a cooperative-groups member (`cg::reduce`)."""
    if name.startswith(("cg::", "cooperative_groups::")):
        return family_table("cooperative_groups").get(name.split("::", 1)[1])
    if name.startswith(("wmma::", "nvcuda::wmma::")):
        return family_table("wmma").get(name.rsplit("::", 1)[1])
    return name_table().get(name) or header_entry(name)
