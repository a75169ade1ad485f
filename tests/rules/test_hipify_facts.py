"""Coverage next to HIPIFY, kept honest by committed facts (models/rules/tables/facts/):

- `hipify_<family>.tsv`: the CUDA names HIPIFY's published tables map, with their HIP names;
- `<header>@<tag>.ids`: the identifiers a HIP header of a release after 5.2 declares (read from
  AMD's repository at that tag with the engine's lexer; the file names repository, path, commit).

Every HIPIFY mapping has a cass row (mapped, or reported with a reason); every mapped row that
names a facts file has its HIP name in it; the HIP 5.2 rows compile against Debian's headers.
"""

from __future__ import annotations

import re
import subprocess
from functools import cache

import pytest
from cass.models.rules.tables import TABLE_DIR, all_entries, family_table

FACTS = TABLE_DIR / "facts"
HIP_52 = "HIP 5.2.3 headers (/usr/include/hip)"
FACTS_FILE = re.compile(r"\(tables/facts/([\w.@+-]+\.ids)\)")


def hipify_rows(family: str) -> list[tuple[str, str, str]]:
    rows = []
    for line in (FACTS / f"hipify_{family}.tsv").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            cuda, hip, added = line.split("\t")
            rows.append((cuda, hip, added))
    return rows


@cache
def facts_identifiers(name: str) -> frozenset[str]:
    lines = (FACTS / name).read_text(encoding="utf-8").splitlines()
    header = {k.strip(): v.strip() for k, _, v in (ln[1:].partition(":") for ln in lines[:8])}
    assert {"repository", "path", "commit", "tag"} <= header.keys(), name
    assert re.fullmatch(r"[0-9a-f]{40}", header["commit"]), name
    return frozenset(ln for ln in lines if ln and not ln.startswith("#"))


@pytest.mark.parametrize(
    ("family", "least"),
    [
        ("device", 500),
        ("curand", 100),
        ("runtime", 250),
        ("driver", 350),
        ("types", 1300),
        ("cusolver", 300),
        ("cublas", 900),
    ],
)
def test_hipify_facts_are_well_formed(family, least):
    rows = hipify_rows(family)
    assert len(rows) >= least
    assert len({cuda for cuda, _, _ in rows}) == len(rows)
    assert all(re.fullmatch(r"\d+\.\d+\.\d+", added) for _, _, added in rows)


FAMILIES = ["device", "curand", "runtime", "driver", "types", "cusolver", "cusparse", "cublas"]


@pytest.mark.parametrize("family", FAMILIES)
def test_every_name_hipify_maps_has_a_row(family):
    """In its own family's table, or in another's (cass keeps some runtime calls in types)."""
    table = {e.cuda: e for e in all_entries() if e.family not in ("headers", "cooperative_groups")}
    missing = [cuda for cuda, _, _ in hipify_rows(family) if cuda not in table]
    assert not missing
    for cuda, _, _ in hipify_rows(family):
        entry = table[cuda]
        assert entry.status != "unsupported" or entry.note, entry


@pytest.mark.parametrize("family", FAMILIES)
def test_rows_name_what_checked_them(family):
    """A mapped row either names the header that declares its HIP name or says none does; a
    row checked against a facts file has its HIP name in that file."""
    checked = 0
    for entry in family_table(family).values():
        if entry.status == "unsupported" or not entry.checked:
            continue
        match = FACTS_FILE.search(entry.checked)
        if match:
            assert entry.hip in facts_identifiers(match.group(1)), entry
            checked += 1
        elif not entry.checked.startswith(
            ("HIP 5.2.3", "hipRAND 5.2", "hipSPARSE 5.2", "hipSOLVER", "hipBLAS 0.51")
        ):
            assert entry.checked.startswith("no header here confirms it"), entry
    # families with a facts file of a later header must use it
    assert checked or family not in ("curand", "types", "cusolver", "cublas")


def test_identity_device_rows_keep_their_name():
    """HIPIFY's identity mappings (`sinf`, `__ldg`, ...) stay identity rows in cass."""
    table = family_table("device")
    for cuda, hip, _ in hipify_rows("device"):
        entry = table[cuda]
        if cuda == hip and entry.status == "supported":
            assert entry.hip == cuda, entry


@pytest.mark.toolchain
def test_hip52_device_rows_are_declared_by_debians_headers(tmp_path):
    """Each device row checked against HIP 5.2 names something Debian's headers declare: a
    `using ::name;` of every one compiles for gfx1100 with clang-16."""
    from cass.runner.toolchain import hip_clang_command

    names = sorted(
        {e.hip for e in family_table("device").values() if e.checked == HIP_52 and e.hip}
    )
    assert len(names) > 350
    source = tmp_path / "declared.hip"
    source.write_text(
        "#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>\n"
        + "".join(f"namespace n{i} {{ using ::{name}; }}\n" for i, name in enumerate(names))
    )
    done = subprocess.run(
        [*hip_clang_command("gfx1100"), "-fsyntax-only", str(source)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]


def test_kept_device_names_with_other_semantics_are_reported(port_snippet):
    """A rounding suffix HIP 5.2 ignores is a diagnostic even though the name is kept."""
    out, codes = port_snippet(
        "__global__ void k(float *o, int i, __half h) {\n"
        "  o[0] = __int2float_rd(i) + __half2int_ru(h) + sinf(o[1]);\n}\n"
    )
    assert "__int2float_rd(i)" in out and "sinf(o[1])" in out
    messages = [d.message for d in codes.get("CASS012", [])]
    assert any("__int2float_rd" in m and "round-to-nearest" in m for m in messages)
    assert any("__half2int_ru" in m and "truncates" in m for m in messages)
    assert not any("sinf" in m for m in messages)


def test_a_name_newer_than_the_target_is_reported_then_renamed_for_its_version(port_snippet):
    snippet = "void f(curandGenerator_t g) { curandGetDirectionVectors32(0, 0); }\n"
    out, codes = port_snippet(snippet)
    assert "curandGetDirectionVectors32" in out
    assert any("HIP 6.0" in d.message for d in codes["CASS011"])
    out, codes = port_snippet(snippet, hip_version="6.2")
    assert "hiprandGetDirectionVectors32(0, 0)" in out and "CASS011" not in codes


def test_facts_files_are_written_from_a_headers_text_with_the_lexer(tmp_path, capsys):
    from cass.server.cli import main

    text = tmp_path / "h.h"
    text.write_text("// hipNotDeclared in a comment\ntypedef int hipFoo_t; /* hipBar */\n")
    out = tmp_path / "h.ids"
    args = ["tables", "facts", str(text), "--repository", "ROCm/x", "--path", "h.h"]
    args += ["--commit", "a" * 40, "--tag", "rocm-6.2.0", "--label", "x", "-o", str(out)]
    assert main(args) == 0
    lines = out.read_text().splitlines()
    assert "# commit: " + "a" * 40 in lines and "hipFoo_t" in lines
    assert "hipNotDeclared" not in lines and "hipBar" not in lines
    capsys.readouterr()
    assert main(args) != 0  # an existing facts file is kept without --force
    assert "--force" in capsys.readouterr().err
    assert main([*args, "--force"]) == 0
    short = [a if a != "a" * 40 else "abc" for a in args]
    assert main([*short, "--force"]) != 0
    assert "40-digit" in capsys.readouterr().err


def test_hipify_renames_that_differ_are_reported(port_snippet):
    """cuLink* becomes hipRTC's linker (with a note: no PTX); binding a texture reference to a
    mipmapped array stays reported (the other texture-reference calls port)."""
    out, codes = port_snippet(
        "void f(CUlinkState s) {\n"
        "  cuLinkComplete(s, 0, 0);\n  cudaBindTextureToMipmappedArray(0, 0, 0);\n"
        "  cudaBindTextureToArray(0, 0, 0);\n}\n",
        hip_version="6.2",
    )
    assert "hiprtcLinkComplete(s, 0, 0)" in out and "hiprtcLinkState s" in out
    assert any("PTX" in d.message for d in codes["CASS012"])
    assert [d.line for d in codes["CASS010"]] == [3]
    assert "texture references" in codes["CASS010"][0].message
    assert "hipBindTextureToArray(0, 0, 0)" in out


SAMPLE_52 = """#include <cuda.h>
#include <cuda_runtime.h>
#include <curand_kernel.h>
#include <cusolverDn.h>
__global__ void k(float *o, unsigned long long seed) {
  curandState s;
  curand_init(seed, 0, 0, &s);
  o[threadIdx.x] = (float)curand(&s) + __int2float_rd(3) + norm3df(1.f, 2.f, 2.f);
}
int main() {
  cudaExtent e = make_cudaExtent(4, 4, 1);
  cudaPitchedPtr p = make_cudaPitchedPtr(0, 0, 0, 0);
  size_t lim = 0;
  cuCtxGetLimit(&lim, CU_LIMIT_MALLOC_HEAP_SIZE);
  CUdeviceptr d;
  cuMemAlloc_v2(&d, 16);
  cuMemFree_v2(d);
  int lo, hi;
  cuCtxGetStreamPriorityRange(&lo, &hi);
  cusolverStatus_t st = CUSOLVER_STATUS_IRS_INTERNAL_ERROR;
  curandGenerator_st *g = 0;
  (void)e; (void)p; (void)st; (void)g;
  return 0;
}
"""


@pytest.mark.toolchain
def test_a_sample_of_the_new_hip52_rows_compiles(tmp_path, port_snippet, hip_compile):
    """Runtime, driver, device, cuRAND and cuSOLVER rows added from HIPIFY's tables, ported
    and compiled for gfx1100 against Debian's HIP 5.2 and the hipSOLVER 1.4 headers."""
    out, codes = port_snippet(SAMPLE_52)
    assert "CASS010" not in codes and "CASS011" not in codes and "CASS082" not in codes
    for hip in (
        "make_hipPitchedPtr",
        "hipDeviceGetLimit(&lim, hipLimitMallocHeapSize)",
        "hipMalloc(&d, 16)",
        "HIPSOLVER_STATUS_INTERNAL_ERROR",
        "hiprand(&s)",
    ):
        assert hip in out
    source = tmp_path / "sample.hip"
    source.write_text(out)
    done = hip_compile(source, "-fsyntax-only")
    assert done.returncode == 0, done.stderr[-2000:]


def test_cusparse_generic_calls_note_const_descriptors_and_const_types_need_hip6(port_snippet):
    entry = family_table("cusparse")["cusparseSpMV"]
    assert entry.hip == "hipsparseSpMV" and "const descriptors" in entry.note
    out, codes = port_snippet("void f(cusparseConstDnVecDescr_t x, bsrsv2Info_t i) {}\n")
    assert any("HIP 6.0" in d.message for d in codes["CASS011"])
    out, codes = port_snippet("void f(cusparseConstDnVecDescr_t x) {}\n", hip_version="6.2")
    assert "hipsparseConstDnVecDescr_t x" in out and "CASS011" not in codes


def test_per_dimension_attributes_hip_folds_into_one_are_reported(port_snippet):
    out, codes = port_snippet(
        "void f(int *v) { cudaDeviceGetAttribute(v, cudaDevAttrMaxSurface2DHeight, 0); }\n"
    )
    assert "hipDeviceAttributeMaxSurface2D" in out
    assert any("every dimension" in d.message for d in codes["CASS012"])


def test_cublas_ilp64_and_cublaslt_names_are_diagnosed_before_their_hip_version(port_snippet):
    """HIPIFY's `_64` and cuBLASLt mappings are no silent renames: for HIP 5.2 a located CASS011
    naming HIPIFY's version, for that version the rename with its note (CASS012 for ILP64)."""
    snippet = (
        "void f(cublasHandle_t h, cublasLtMatrixTransformDesc_t d, const float *const *a,\n"
        "       float *const *c, long n) {\n"
        "  cublasSgemmBatched_64(h, CUBLAS_OP_N, CUBLAS_OP_N, n, n, n, 0, a, n, a, n, 0, c, n, 2);\n"
        "  cublasSetMathMode(h, CUBLAS_DEFAULT_MATH);\n}\n"
    )
    entry = family_table("cublas")["cublasSgemmBatched_64"]
    assert (entry.hip, entry.since) == ("hipblasSgemmBatched_64", "6.3") and "ILP64" in entry.note
    out, codes = port_snippet(snippet)
    messages = [d.message for d in codes["CASS011"]]
    assert "cublasSgemmBatched_64(" in out
    assert any("cublasSgemmBatched_64" in m and "6.3" in m for m in messages)
    assert any("cublasLtMatrixTransformDesc_t" in m and "6.0" in m for m in messages)
    assert any("cublasSetMathMode" in m and "6.1" in m for m in messages)
    out, codes = port_snippet(snippet, hip_version="6.3")
    assert "hipblasSgemmBatched_64(h, HIPBLAS_OP_N" in out and "hipblasSetMathMode(h" in out
    assert "hipblasLtMatrixTransformDesc_t d" in out and "CASS011" not in codes


def test_hipify_v2_hipblas_names_are_reported_where_used(port_snippet):
    """HIPIFY writes hipBLAS 2's `_v2` spellings, which hipBLAS 3 (ROCm 7.0) drops: renamed for
    their version with a CASS012 naming the hipBLAS 3 name."""
    out, codes = port_snippet(
        "void f(cublasHandle_t h, long n, const void *x, long *r) {\n"
        "  cublasIcamax_64(h, n, 0, 1, r);\n}\n",
        hip_version="6.3",
    )
    assert "hipblasIcamax_v2_64(h, n, 0, 1, r)" in out
    messages = [d.message for d in codes["CASS012"]]
    assert any("hipBLAS 3" in m and "hipblasIcamax_64" in m for m in messages)


def test_cublas_rows_hipify_adds_are_checked_against_the_hipblas_header():
    """A HIPIFY cuBLAS name hipBLAS 0.51 declares (the legacy CUBLAS_OP_HERMITAN spelling) is a
    5.2 row checked there; later names a facts file lists (compute types, math modes) name it,
    hand-written rows too; library data types cass keeps in `types` are mapped there."""
    op = family_table("cublas")["CUBLAS_OP_HERMITAN"]
    assert (op.hip, op.since, op.checked) == (
        "HIPBLAS_OP_C",
        "5.2",
        "hipBLAS 0.51.0 header (rocm-api-headers)",
    )
    for cuda in ("CUBLAS_COMPUTE_64F_PEDANTIC", "CUBLAS_COMPUTE_16F", "cublasSetMathMode"):
        assert "(tables/facts/" in family_table("cublas")[cuda].checked, cuda
    i8 = family_table("types")["CUDA_R_8I"]
    assert (i8.hip, i8.since) == ("HIP_R_8I", "5.7")
    assert "CUDA_R_8I" not in family_table("cublas")


def test_cublas_ilp64_rows_only_for_names_cublas_has(port_snippet):
    """No `_64` row for the handle, copy and mode helpers, types or rotg (cuBLAS has no
    cublasCreate_64; hipBLAS no hipblasSetMatrix_64), nor rows for hipBLAS's own routines:
    such a call is a located CASS082, never a rename to a function hipBLAS lacks."""
    table = family_table("cublas")
    for cuda in ("cublasCreate_64", "cublasSetMatrix_64", "cublasSrotg_64", "cublasHaxpy"):
        assert cuda not in table, cuda
    assert table["cublasSaxpy_64"].hip == "hipblasSaxpy_64"
    out, codes = port_snippet(
        "void f(long n, const void *a, void *b) { cublasSetMatrix_64(n, n, 4, a, n, b, n); }\n",
        hip_version="6.3",
    )
    assert "cublasSetMatrix_64(" in out
    assert any("cublasSetMatrix_64" in d.message for d in codes["CASS082"])
