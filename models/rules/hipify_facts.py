"""Rows for the names HIPIFY maps that the HIP 5.2 headers alone would leave out.

Two kinds of committed facts (tables/facts/), both read from public repositories:

- `hipify_<family>.tsv`: the CUDA names ROCm/HIPIFY's published tables (docs/tables/*.md) map,
  with the HIP name and the HIP version HIPIFY gives for it (`cuda  hip  hip_added`);
- `<name>.ids`: the identifiers in the code of one AMD header at one commit (HIP 6.x/7.x,
  hipSOLVER, hipSPARSE, hipRAND after 5.2), extracted with the engine's lexer from the text the
  repository tools return. Its `#` lines name the repository, path, commit and release tag.

`cass tables generate` adds, for every HIPIFY mapping a family's table leaves unmapped, a row:
its HIP name in the HIP 5.2 headers here -> `since 5.2`, checked there; else in a facts file ->
`since` HIPIFY's version, checked against that file; else the row says no header here confirms
it. Names HIPIFY dates at or before 5.2 that Debian's 5.2 headers lack stay reported.

    cass tables facts TEXT --repository R --path P --commit C --tag T --label L \
        -o models/rules/tables/facts/NAME.ids   # write a facts file from a header's text
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path

from cass.models.rules.lexer import lex

Row = tuple[str, str, str, str, str]  # hip, status, since, note, checked
FACTS_DIR = Path(__file__).parent / "tables" / "facts"
NOT_CHECKED = "no header here confirms it"
NOT_CONFIRMED = NOT_CHECKED + " (HIPIFY maps it: HIP {version})"
_FIELDS = ("repository", "path", "commit", "tag", "label")


def hipify_mappings(family: str) -> list[tuple[str, str, str]]:
    """(cuda, hip, HIP version) for every name HIPIFY maps in `family` (none: no facts file)."""
    path = FACTS_DIR / f"hipify_{family}.tsv"
    if not path.is_file():
        return []
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line or line.startswith("#"):
            continue
        cols = line.split("\t")
        if len(cols) != 3:
            raise ValueError(f"{path}:{number}: expected cuda<TAB>hip<TAB>hip_added")
        rows.append((cols[0], cols[1], cols[2]))
    return rows


@cache
def header_facts() -> dict[str, tuple[str, frozenset[str]]]:
    """facts file name -> (its label, the identifiers it lists)."""
    facts = {}
    for path in sorted(FACTS_DIR.glob("*.ids")):
        lines = path.read_text(encoding="utf-8").splitlines()
        fields = dict(
            (key.strip(), value.strip())
            for key, _, value in (ln[1:].partition(":") for ln in lines if ln.startswith("#"))
        )
        names = frozenset(ln for ln in lines if ln and not ln.startswith("#"))
        facts[path.name] = (fields.get("label", path.stem), names)
    return facts


def _version(text: str) -> tuple[int, int]:
    """'6.2.0' (HIPIFY's spelling) -> (6, 2)."""
    major, minor = text.split(".")[:2]
    return int(major), int(minor)


def hipify_row(hip: str, version: str, installed: set[str], checked_52: str) -> Row:
    """The row for one HIPIFY mapping whose HIP name `installed` (the 5.2 headers) may hold."""
    if hip in installed:
        return hip, "supported", "5.2", "", checked_52
    since = "{}.{}".format(*_version(version))
    if _version(version) <= (5, 2):
        note = f"HIPIFY maps it to {hip} (HIP {since}), which the HIP 5.2 headers here lack"
        return "", "unsupported", "", note, "absent from " + checked_52
    return hip, "supported", since, "", _facts_check(hip) or NOT_CONFIRMED.format(version=since)


def _facts_check(hip: str) -> str:
    """'label (tables/facts/NAME.ids)' of the first facts file that lists `hip`, else ''."""
    for name, (label, names) in header_facts().items():
        if hip in names:
            return f"{label} (tables/facts/{name})"
    return ""


# HIPIFY renames these, but the HIP call is not the CUDA one under another name: reported.
TEXTURE_REFERENCES = "texture references: use texture objects (HIP deprecates the reference API)"
REPORTED: dict[str, str] = {
    **dict.fromkeys(
        ("cudaGetDriverEntryPoint", "cuGetProcAddress"),
        "hipGetProcAddress (HIP 6.2) takes a HIP version argument CUDA's call lacks: rewrite "
        "the call",
    ),
    **dict.fromkeys(
        (
            "cudaBindTextureToMipmappedArray",
            "surfaceReference",
        ),
        TEXTURE_REFERENCES,
    ),
}


# HIPIFY renames these too, but the HIP call differs in what it accepts: a CASS012 note.
DIFFERS: dict[str, str] = dict.fromkeys(
    (
        "cuLinkCreate",
        "cuLinkCreate_v2",
        "cuLinkAddData",
        "cuLinkAddData_v2",
        "cuLinkAddFile",
        "cuLinkAddFile_v2",
        "cuLinkComplete",
    ),
    "differs: hipRTC links AMD bitcode and code objects: PTX, cubin and fatbin inputs do not load",
)


# cuSPARSE's generic API took const descriptors in CUDA 12 (HIPIFY: changed in 12.0), hipSPARSE in
# 6.0: a plain note on those rows (code that declares cusparseConst*Descr_t is reported there).
CONST_DESCRIPTORS = (
    "CUDA 12 takes const descriptors (cusparseConst*Descr_t) here, hipSPARSE from HIP 6.0; before "
    "6.0 the call takes non-const descriptors"
)
GENERIC_CONST = tuple(
    "cusparse" + name
    for name in (
        "Axpby DenseToSparse_analysis DenseToSparse_bufferSize DenseToSparse_convert DestroyDnMat "
        "DestroyDnVec DestroySpMat DestroySpVec DnMatGetStridedBatch Gather SDDMM SDDMM_bufferSize "
        "SDDMM_preprocess Scatter SpGEMM_compute SpGEMM_copy SpGEMM_workEstimation "
        "SpGEMMreuse_compute SpGEMMreuse_copy SpGEMMreuse_nnz SpGEMMreuse_workEstimation SpMM "
        "SpMM_bufferSize SpMM_preprocess SpMV SpMV_bufferSize SpMatGetAttribute SpMatGetFormat "
        "SpMatGetIndexBase SpMatGetSize SpMatGetStridedBatch SpSM_analysis SpSM_bufferSize "
        "SpSM_solve SpSV_analysis SpSV_bufferSize SpSV_solve SpVV SpVV_bufferSize "
        "SpVecGetIndexBase SparseToDense SparseToDense_bufferSize"
    ).split()
)
NOTES: dict[str, str] = dict.fromkeys(GENERIC_CONST, CONST_DESCRIPTORS)


# HIPIFY maps CUDA's per-dimension device attributes (MaxSurface2DWidth, ...Height) to one HIP
# attribute that stands for the whole size.
SHARED_ATTRIBUTE = (
    "differs: HIP has one attribute, {hip}, for every dimension CUDA asks apart (width, height, "
    "depth): its value is not this dimension's"
)


def _attribute_group(cuda: str) -> str:
    """'runtime' / 'driver' for a per-dimension device attribute (MaxSurface2DHeight), else ''."""
    if not re.search(r"(?i)width|height|depth|pitch", cuda):
        return ""
    if cuda.startswith("cudaDevAttr"):
        return "runtime"
    return "driver" if cuda.startswith("CU_DEVICE_ATTRIBUTE_") else ""


# cuBLAS: HIPIFY's cuBLASLt names go to hipBLASLt, a library of its own (ROCm 5.5+, no header
# here), and its `_64` names to hipBLAS 2's ILP64 routines: a note on the row, so that a target
# before HIPIFY's version gets a located diagnostic (CASS011) and a later one a noted rename.
CUBLASLT = (
    "cuBLASLt maps to hipBLASLt, a separate ROCm library (HIPIFY: HIP {since}; not in HIP 5.2): "
    "link hipblaslt"
)
ILP64 = (
    "ILP64 form: 64-bit sizes need hipBLAS 2.x's _64 routines (HIPIFY: HIP {since}); hipBLAS "
    "0.51 declares none"
)
# Hand-written cuBLAS reasons that HIPIFY's later hipBLAS versions contradict (hipBLAS 2 has math
# modes): HIPIFY's mapping replaces them, dated to its version.
SUPERSEDED = ("math modes have no hipBLAS equivalent",)


# HIPIFY's `_v2` hipBLAS names are hipBLAS 2's hipComplex spellings: hipBLAS 3 (ROCm 7.0) takes
# hipComplex under the plain names (the 2025 hipblas.h of tables/facts declares no `_v2`).
HIPBLAS_V2 = (
    "differs: {hip} is hipBLAS 2's spelling (HIP 6.x); hipBLAS 3 (ROCm 7.0) names it {plain}"
)


def _family_note(family: str, cuda: str, since: str, hip: str = "") -> str:
    """The note a family gives a HIPIFY row by its CUDA and HIP names ('' for none)."""
    if family != "cublas":
        return ""
    if cuda.startswith(("cublasLt", "CUBLASLT_")):
        return CUBLASLT.format(since=since)
    notes = []
    if re.search(r"_v2(_64)?$", hip):  # first: a `differs:` note is reported where used
        notes.append(HIPBLAS_V2.format(hip=hip, plain=re.sub(r"_v2(?=_64$|$)", "", hip)))
    if cuda.endswith("_64"):
        notes.append(ILP64.format(since=since))
    return "; ".join(notes)


def _reported(cuda: str) -> str:
    """Why a HIPIFY mapping is reported instead of renamed ('' when it is renamed)."""
    return REPORTED.get(cuda, "")


def _replaceable(row: Row | None) -> bool:
    """A row HIPIFY's mapping may replace: none, or one reported only for want of a 5.2 name
    (hand-written reasons such as texture references stay)."""
    return row is None or (
        row[1] == "unsupported" and (row[3].startswith("no counterpart") or row[3] in SUPERSEDED)
    )


def add_hipify_rows(
    family: str, rows: dict[str, Row], installed: set[str], checked_52: str
) -> dict[str, Row]:
    """`rows` plus a row for every HIPIFY mapping of `family` they leave unmapped."""
    extended = dict(rows)
    mappings = hipify_mappings(family)
    targets = Counter((_attribute_group(c), h) for c, h, _ in mappings if _attribute_group(c))
    for cuda, hip, version in mappings:
        if not _replaceable(rows.get(cuda)):
            continue
        if reason := _reported(cuda):
            extended[cuda] = ("", "unsupported", "", reason, NOT_CHECKED)
            continue
        row = hipify_row(hip, version, installed, checked_52)
        shared = targets[(_attribute_group(cuda), hip)] > 1 and _attribute_group(cuda)
        note = DIFFERS.get(cuda) or (SHARED_ATTRIBUTE.format(hip=hip) if shared else "")
        note = note or _family_note(family, cuda, row[2], row[0])
        if note and row[1] != "unsupported":
            row = (row[0], row[1], row[2], note, row[4])
        extended[cuda] = row
    return extended


def _installed(include: Path, api_include: Path | None) -> dict[str, tuple[set[str], str]]:
    """family -> (identifiers its HIP 5.2 headers here declare, the label naming them)."""
    from cass.models.rules import library_tables
    from cass.models.rules.libraries import code_identifiers

    ident = re.compile(r"[A-Za-z_]\w*")
    hiprand = [p for p in (include / "hiprand").glob("*.h") if "nvcc" not in p.name]
    found = {
        "curand": (code_identifiers(hiprand, ident), library_tables.CURAND_CHECKED),
        "cusparse": (
            code_identifiers([include / "hipsparse" / "hipsparse.h"], ident),
            library_tables.CUSPARSE_CHECKED,
        ),
    }
    if api_include is not None:
        from cass.runner.rocm_api_headers import read_versions

        solver = [api_include / f"hipsolver/internal/hipsolver-{h}.h" for h in ("types", "compat")]
        label = f"hipSOLVER {read_versions(api_include)['hipSOLVER']} headers (rocm-api-headers)"
        found["cusolver"] = (code_identifiers(solver, ident), label)
        blas = f"hipBLAS {read_versions(api_include)['hipBLAS']} header (rocm-api-headers)"
        found["cublas"] = (code_identifiers([api_include / "hipblas/hipblas.h"], ident), blas)
    return found


def extend_tables(
    tables: dict[str, dict[str, Row]],
    hip: tuple[set[str], str],
    include: Path,
    api_include: Path | None,
) -> None:
    """Add HIPIFY's mappings to the generated `tables` (in place): runtime, driver and types
    are checked against `hip` (the HIP headers' identifiers and their label), the libraries
    against their own headers."""
    installed = _installed(include, api_include)
    # mypy takes the tables/ folder for a namespace package here
    from cass.models.rules.tables import all_entries, guard_table  # type: ignore[attr-defined]

    hand_written = {e.cuda for e in all_entries() if e.family not in tables}  # device, ...
    hand_written |= guard_table().keys()  # __CUDACC__ & co. are renamed only in directives
    for family, rows in tables.items():
        names, label = installed.get(family, hip)
        if family not in installed and family not in ("runtime", "driver", "types"):
            continue
        elsewhere = {
            cuda
            for other, other_rows in tables.items()
            if other != family
            for cuda, row in other_rows.items()
            if row[1] != "unsupported"
        }
        added = add_hipify_rows(family, rows, names, label)
        # cuBLAS's table lists CUDA's library data types (CUDA_R_8I, cudaDataType_t) that cass
        # keeps in `types`: HIPIFY's mapping goes to that row where it may replace it
        for cuda in [c for c in added if c not in rows and family == "cublas"]:
            owner = next((t for t in tables.values() if t is not rows and cuda in t), None)
            if owner is not None:
                row = added.pop(cuda)
                if _replaceable(owner[cuda]) and cuda not in hand_written:
                    owner[cuda] = row
        rows.update(
            {c: r for c, r in added.items() if c in rows or c not in elsewhere | hand_written}
        )
        if family == "cublas":  # its hand-written rows past hipBLAS 0.51 are checked too
            for cuda, (name, status, since, note, checked) in list(rows.items()):
                if status != "unsupported" and checked.startswith(NOT_CHECKED):
                    rows[cuda] = (name, status, since, note, _facts_check(name) or checked)
        for cuda, note in NOTES.items():
            if cuda in rows and rows[cuda][1] != "unsupported" and not rows[cuda][3]:
                name, status, since, _, checked = rows[cuda]
                rows[cuda] = (name, status, since, note, checked)


def identifiers(text: str) -> list[str]:
    """The identifiers in the code of a header's text (comments and strings left out)."""
    return sorted({t.text for t in lex(text).code if t.kind == "ident"})


def facts_text(text: str, fields: dict[str, str]) -> str:
    header = "".join(f"# {key}: {fields[key]}\n" for key in _FIELDS)
    note = "# identifiers in the code of that text, read with cass's lexer\n"
    return header + note + "".join(f"{name}\n" for name in identifiers(text))


def write_facts(text_path: Path, fields: dict[str, str], output: Path, force: bool = False) -> None:
    """Write the facts file of a header's text (`cass tables facts`); CassError for a short
    commit, an unreadable text or an existing output without `force`."""
    from cass.runner.diagnostics import CassError
    from cass.runner.outputs import write_output

    if not re.fullmatch(r"[0-9a-f]{40}", fields["commit"]):
        raise CassError(f"--commit {fields['commit']}: give the full 40-digit commit")
    try:
        text = text_path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        raise CassError(f"{text_path}: cannot read it ({exc.strerror}); check the path") from None
    write_output(output, facts_text(text, fields), inputs=[text_path], force=force)
