"""CUDA math libraries: every name ported or reported (the name probe), library enumerator
arguments retyped, semantic differences reported, and the library rows true to AMD's headers."""

import subprocess
from pathlib import Path

import pytest
from cass.models.engine import Target
from cass.models.rules import port_unit
from cass.models.rules.lexer import lex
from cass.models.rules.probe import header_probe, hipify_probe, run_probe
from cass.models.rules.tables import FAMILIES, all_entries
from cass.runner import rocm_api_headers, toolchain

API = rocm_api_headers.installed()
needs_api_headers = pytest.mark.skipif(
    API is None, reason=f"hipBLAS/hipFFT/hipSOLVER headers not installed: {rocm_api_headers.FIX}"
)


def _port(text: str, hip_version: str = "5.2"):
    unit = port_unit(text, "k.cu", Target(hip_version=hip_version))
    return unit.render(), {(d.code, d.line) for d in unit.diagnostics}


def test_no_name_from_the_cuda_and_hip_library_headers_is_left_without_a_word():
    probe = header_probe(api_include=API.include_dir if API else None)
    assert {"runtime", "driver", "cuRAND", "cuSPARSE"} <= probe.keys()
    assert sum(len(v) for v in probe.values()) > 3000
    result = run_probe(probe)
    assert result.total("ported") > 2000
    assert result.silent == {}


def test_the_probe_finds_a_silent_name(monkeypatch):
    """The probe can fail: a name with no row and no CASS082 is counted as silent."""
    from cass.models.rules.passes import library_calls as libraries

    monkeypatch.setattr(libraries, "report_unknown_library_names", lambda unit: None)
    from cass.models.rules import engine

    pipeline = tuple(p for p in engine.PIPELINE if p.__name__ != "report_unknown_library_names")
    monkeypatch.setattr(engine, "PIPELINE", pipeline)
    result = run_probe({"cuBLAS": ["cublasSgemm", "cublasNoSuchRoutine"]})
    assert result.silent == {"cuBLAS": ["cublasNoSuchRoutine"]}
    assert result.counts["cuBLAS"]["ported"] == 1


def test_hipify_tables_are_read_by_their_hip_column(tmp_path):
    tables = tmp_path / "docs" / "tables"
    tables.mkdir(parents=True)
    (tables / "CUFFT_API_supported_by_HIP.md").write_text(
        "|**CUDA**|**A**|**D**|**C**|**R**|**HIP**|**A**|\n|:--|:-:|:-:|:-:|:-:|:--|:-:|\n"
        "|`cufftPlan1d`| | | | |`hipfftPlan1d`|1.7.0|\n"
        "|`cufftXtFree`| | | | | | |\n"
        "|`cufftMadeUp`| | | | |`hipfftNotInAnyHeader`|9.9|\n"
    )
    probe = hipify_probe(tables, api_include=API.include_dir if API else None)
    assert probe == ({"cuFFT": ["cufftPlan1d"]} if API else {"cuFFT": []})


def test_unknown_library_names_are_reported_where_used():
    text = (
        "#define CUDA_CHECK(x) x\n"
        "void cudaCheckThis(int v) {}\n"
        "void f(cublasHandle_t h, S s) {\n"
        "  cublasNoSuchRoutine(h);\n"
        "  int st = CUBLAS_STATUS_LICENSE_ERROR;\n"
        "  cudaError_t cudaStatus = cudaSuccess;\n"
        "  cudaCheckThis(1); CUDA_CHECK(0); s.cudaMember(); s.cublasThing = 1;\n"
        "  cuNotADriverCall(3);\n"
        "}\n"
    )
    out, diags = _port(text)
    found = {(c, line) for c, line in diags if c == "CASS082"}
    assert found == {("CASS082", 4), ("CASS082", 5), ("CASS082", 8)}
    assert "cublasNoSuchRoutine(h)" in out and "hipError_t cudaStatus = hipSuccess" in out


def test_gemm_ex_data_types_follow_the_hipblas_of_the_target():
    text = (
        "void f(cublasHandle_t h, float *a) {\n"
        "  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_T, 4, 4, 4, a, a, CUDA_R_32F, 4, a, CUDA_R_32F,"
        " 4, a, a, CUDA_R_32F, 4, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);\n"
        "}\n"
    )
    out, diags = _port(text)
    assert out.count("HIPBLAS_R_32F") == 4 and "HIP_R_32F" not in out
    assert ("CASS083", 2) in diags
    out7, _ = _port(text, "7.0")
    assert out7.count("HIP_R_32F") == 3 and "HIPBLAS_COMPUTE_32F" in out7


def test_cusolver_arguments_get_hipsolver_enumerators():
    text = "void f(cusolverDnHandle_t h, float *a, int *w) {\n  cusolverDnSpotrf_bufferSize(h, CUBLAS_FILL_MODE_UPPER, 4, a, 4, w);\n}\n"
    out, diags = _port(text)
    assert "hipsolverDnSpotrf_bufferSize(h, HIPSOLVER_FILL_MODE_UPPER" in out
    assert ("CASS083", 2) in diags


@pytest.mark.parametrize(
    ("name", "differs"),
    [
        ("CURAND_RNG_PSEUDO_XORWOW", True),
        ("CURAND_RNG_PSEUDO_PHILOX4_32_10", True),
        ("CURAND_RNG_QUASI_SOBOL32", False),
        ("cublasSetPointerMode", True),
        ("cublasHandle_t", True),
        ("cublasCgemm", True),  # complex arguments
        ("cublasScopy", False),  # real: S + copy, not the complex Sc prefix of cublasScasum
        ("cublasScasum", True),
    ],
)
def test_semantic_differences_are_warnings_not_silent_renames(name, differs):
    _, diags = _port(f"void f() {{ g({name}); }}\n")
    assert (("CASS012", 1) in diags) is differs


def test_trmm_and_workspace_rules_are_errors_for_hip_52():
    _, diags = _port("void f() { cublasStrmm(h); cublasSetWorkspace(h, p, n); }\n")
    assert ("CASS011", 1) in diags and ("CASS010", 1) in diags


def _header_names(folder: Path) -> frozenset[str]:
    names: set[str] = set()
    for path in folder.rglob("*.h"):
        names.update(
            t.text for t in lex(path.read_text(errors="replace")).code if t.kind == "ident"
        )
    return frozenset(names)


@needs_api_headers
@pytest.mark.parametrize("family", [f for f in FAMILIES if f.api_headers], ids=lambda f: f.name)
def test_every_library_name_emitted_for_52_is_in_amds_header(family):
    known = _header_names(API.include_dir / family.api_headers)
    emitted = [
        e.hip
        for e in all_entries()
        if e.family == family.name and e.status != "unsupported" and e.available_in("5.2")
    ]
    assert len(emitted) > 80
    assert [h for h in emitted if h not in known] == []
    checked = [e for e in all_entries() if e.family == family.name and e.available_in("5.2")]
    assert all(e.checked.startswith(("hip", "no header")) for e in checked)


@needs_api_headers
def test_a_cublas_cusolver_cufft_port_compiles_against_amds_headers(tmp_path):
    source = (
        "#include <cublas_v2.h>\n#include <cusolverDn.h>\n#include <cufft.h>\n"
        "int main() {\n  cublasHandle_t h; cublasCreate(&h); float a = 1, *x = 0;\n"
        "  cublasSaxpy(h, 4, &a, x, 1, x, 1);\n"
        "  cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, 2, 2, 2, &a, x, CUDA_R_32F, 2, x, CUDA_R_32F,"
        " 2, &a, x, CUDA_R_32F, 2, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT);\n"
        "  cusolverDnHandle_t s; cusolverDnCreate(&s); int lw;\n"
        "  cusolverDnSpotrf_bufferSize(s, CUBLAS_FILL_MODE_LOWER, 2, x, 2, &lw);\n"
        "  cufftHandle p; cufftPlan1d(&p, 8, CUFFT_C2C, 1); cufftDestroy(p);\n"
        "  cublasDestroy_v2(h); return 0;\n}\n"
    )
    out, diags = _port(source)
    assert not [c for c, _ in diags if c in ("CASS010", "CASS011", "CASS082")]
    hip = tmp_path / "k.hip"
    hip.write_text(out)
    cmd = [*toolchain.hip_clang_command("gfx1100"), "-fsyntax-only", str(hip)]
    proc = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
