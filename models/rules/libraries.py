"""The CUDA math libraries' rows (cuBLAS, cuFFT, cuSOLVER), generated from AMD's headers.

hipBLAS, hipFFT and hipSOLVER's cuSOLVER-compatibility API keep cuBLAS's, cuFFT's and cuSOLVER's
names with `hip` in front, so each HIP name a header declares (read with the engine's lexer: a
comment does not count) gives the CUDA name it stands for. Names the HIP libraries add that the
CUDA libraries lack (hipBLAS's batched level-1/2 routines, its own data types) are left out by the
rules below; names the CUDA libraries have under other spellings, and the semantic differences
a rename would hide, are hand knowledge in this module. Every row says what checked it: the
header that declares its HIP name, or that no header here confirms it.

    cass tables generate --api-headers DIR   # DIR: the rocm-api-headers include/
"""

from __future__ import annotations

import re
from pathlib import Path

from cass.models.rules.lexer import lex

Row = tuple[str, str, str, str, str]  # hip, status, since, note, checked


def code_identifiers(paths: list[Path], pattern: re.Pattern[str]) -> set[str]:
    """Identifiers matching `pattern` in the code of `paths` (the HIP headers), read with the
    engine's lexer: a name a header only mentions in a comment or a string is no declaration."""
    names: set[str] = set()
    for path in paths:
        lexed = lex(path.read_text(encoding="utf-8", errors="replace"))
        names.update(t.text for t in lexed.code if t.kind == "ident" and pattern.fullmatch(t.text))
    return names


NOT_CHECKED = "no header here confirms it"

# ---------------------------------------------------------------- cuBLAS

# hipBLAS names that exist in cuBLAS only under another name, or not at all.
_HIPBLAS_ONLY = re.compile(
    r"^hipblas(Datatype_t|Complex|DoubleComplex|Half|Bfloat16|Int8|Int8Complex|Stride|Bfdot\w*"
    r"|StatusToString|Xtrmm|\w*Trtri\w*|[SDCZ](getrf|getrs|geqrf|gels|getri)"
    r"|[SDCZ]trtri|[CZ]spr|H(axpy|dot)"  # hipBLAS's own: HIPIFY's cuBLAS table has none
    r"|\w*TrsmEx|\w*TrsmBatchedEx|\w*TrsmStridedBatchedEx)$"
    r"|^HIPBLAS_([RC]_\d+[FIUB]|SIDE_BOTH|ON_[CN]|CLANG_STATIC|DEPRECATED_MSG|EXPORT|H"
    r"|STATUS_HANDLE_IS_NULLPTR|STATUS_INVALID_ENUM|STATUS_UNKNOWN)$"
)
# The only batched forms cuBLAS has (hipBLAS batches nearly every routine).
_CUBLAS_BATCHED = re.compile(
    r"^hipblas([SDCZH]gemm(Strided)?Batched|[SDCZ]gemv(Strided)?Batched|[SDCZ]trsmBatched"
    r"|[SDCZ](getrf|getrs|getri|geqrf|gels)Batched|Gemm(Strided)?BatchedEx)$"
)
# cuBLAS routines that keep a `_v2` spelling (cublas_api.h: the v1 API's names).
_V2 = re.compile(
    r"^cublas(Create|Destroy|GetVersion|SetStream|GetStream|GetPointerMode|SetPointerMode"
    r"|[SDCZ]|[SD]c|[SD]z|Cs|Zd|I[sdcz])(nrm2|dot|dotu|dotc|scal|axpy|copy|swap|amax|amin|asum"
    r"|rot|rotg|rotm|rotmg|gemv|gbmv|trmv|tbmv|tpmv|trsv|tpsv|tbsv|symv|hemv|sbmv|hbmv|spmv|hpmv"
    r"|ger|geru|gerc|syr|her|spr|hpr|syr2|her2|spr2|hpr2|gemm|symm|hemm|syrk|herk|syr2k|her2k"
    r"|trmm|trsm)?$"
)
# cuBLAS routines with an ILP64 `_64` form (cuBLAS 12): BLAS routines and the Ex extensions, not
# the handle, copy and mode helpers, types, or rotg/rotmg (HIPIFY's table lists none of those).
_ILP64 = re.compile(
    r"^cublas(?!Create|Destroy|[SG]et|\w*_t$|\w*rotm?g(_v2)?$)(I?[SDCZH]|Sc|Dz|Cs|Zd|\w+Ex$)"
)
_COMPLEX = re.compile(r"^cublas(?:[CZ](?!reate)[a-z]|I[cz]a|(?:Sc|Dz)(?:asum|nrm2))")

CUBLAS_NOTES: dict[str, tuple[str, str, str]] = {
    # cuda: (status, since, note); status '' keeps what the header gave
    "cublasHandle_t": (
        "",
        "",
        "differs: hipblasHandle_t is void* (cuBLAS: struct cublasContext*): overloads on the "
        "handle type or forward declarations of cublasContext do not port",
    ),
    "cublasSetPointerMode": (
        "",
        "",
        "differs: with HIPBLAS_POINTER_MODE_DEVICE alpha/beta and scalar results are device "
        "pointers as in cuBLAS; host-mode scalar results still synchronise the stream",
    ),
    "cublasGemmEx": (
        "rewritten",
        "",
        "data-type arguments: cudaDataType's CUDA_R_32F becomes hipBLAS 0.51's HIPBLAS_R_32F "
        "(hipblasDatatype_t, other values), the compute type too (hipblasComputeType_t from "
        "hipBLAS 2, ROCm 6.0)",
    ),
}
CUBLAS_EXTRA: dict[str, Row] = {
    "cublasGetStatusString": ("hipblasStatusToString", "supported", "5.2", "", ""),
    "cublasContext": ("", "unsupported", "", "hipblasHandle_t is an opaque void*", NOT_CHECKED),
    "cublasSetWorkspace": (
        "",
        "unsupported",
        "",
        "workspace rules differ: rocBLAS sizes and owns its device workspace; remove the call "
        "(and the buffer) for hipBLAS",
        NOT_CHECKED,
    ),
    "cublasSetMathMode": ("", "unsupported", "", "math modes have no hipBLAS equivalent", ""),
    "cublasGetMathMode": ("", "unsupported", "", "math modes have no hipBLAS equivalent", ""),
    "cublasMath_t": ("", "unsupported", "", "math modes have no hipBLAS equivalent", ""),
    "CUBLAS_DEFAULT_MATH": ("", "unsupported", "", "math modes have no hipBLAS equivalent", ""),
    "CUBLAS_TENSOR_OP_MATH": ("", "unsupported", "", "math modes have no hipBLAS equivalent", ""),
    "CUBLAS_PEDANTIC_MATH": ("", "unsupported", "", "math modes have no hipBLAS equivalent", ""),
    "CUBLAS_TF32_TENSOR_OP_MATH": (
        "",
        "unsupported",
        "",
        "math modes have no hipBLAS equivalent",
        "",
    ),
    "CUBLAS_GEMM_DEFAULT_TENSOR_OP": (
        "HIPBLAS_GEMM_DEFAULT",
        "supported",
        "5.2",
        "differs: tensor-op algorithm hint has no AMD meaning; the default algorithm is used",
        "",
    ),
    "cublasComputeType_t": (
        "hipblasComputeType_t",
        "supported",
        "6.0",
        "hipblasComputeType_t arrived with hipBLAS 2 (ROCm 6.0)",
        NOT_CHECKED,
    ),
    "cublasLoggerConfigure": ("", "unsupported", "", "cuBLAS logging has no hipBLAS API", ""),
    "cublasSetLoggerCallback": ("", "unsupported", "", "cuBLAS logging has no hipBLAS API", ""),
    "cublasGetCudartVersion": ("", "unsupported", "", "no hipBLAS counterpart", ""),
    "cublasGetVersion": ("", "unsupported", "", "hipBLAS 0.51 has no hipblasGetVersion", ""),
    "cublasGetProperty": ("", "unsupported", "", "hipBLAS 0.51 has no hipblasGetProperty", ""),
}
for _name in ("16F", "32F", "32F_FAST_16F", "32F_FAST_16BF", "32F_FAST_TF32", "64F", "32I"):
    CUBLAS_EXTRA[f"CUBLAS_COMPUTE_{_name}"] = (
        f"HIPBLAS_COMPUTE_{_name}",
        "supported",
        "6.0",
        "hipblasComputeType_t arrived with hipBLAS 2 (ROCm 6.0); for HIP 5.2 a cublasGemmEx "
        "argument becomes the hipblasDatatype_t of the same precision",
        NOT_CHECKED,
    )
for _n in range(24):
    CUBLAS_EXTRA[f"CUBLAS_GEMM_ALGO{_n}"] = (
        "HIPBLAS_GEMM_DEFAULT",
        "supported",
        "5.2",
        "differs: cuBLAS algorithm choices have no AMD meaning; the default algorithm is used",
        "",
    )
# cuBLASLt -> hipBLASLt (ROCm 6.0; no hipBLASLt header here)
for _name in (
    "Create",
    "Destroy",
    "Matmul",
    "MatmulDescCreate",
    "MatmulDescDestroy",
    "MatmulDescSetAttribute",
    "MatmulDescGetAttribute",
    "MatrixLayoutCreate",
    "MatrixLayoutDestroy",
    "MatrixLayoutSetAttribute",
    "MatrixLayoutGetAttribute",
    "MatmulPreferenceCreate",
    "MatmulPreferenceDestroy",
    "MatmulPreferenceSetAttribute",
    "MatmulAlgoGetHeuristic",
    "Handle_t",
    "MatmulDesc_t",
    "MatrixLayout_t",
    "MatmulPreference_t",
    "MatmulHeuristicResult_t",
    "MatmulAlgo_t",
    "Epilogue_t",
):
    CUBLAS_EXTRA[f"cublasLt{_name}"] = (
        f"hipblasLt{_name}",
        "supported",
        "6.0",
        "cuBLASLt maps to hipBLASLt, which ROCm ships from 6.0 (not in HIP 5.2)",
        NOT_CHECKED,
    )


def cublas_name(hip: str) -> str:
    return ("cu" + hip[3:]) if hip.startswith("hip") else ("CU" + hip[3:])


def _keep_hipblas(hip: str) -> bool:
    if _HIPBLAS_ONLY.search(hip) or hip.startswith(("HIPBLAS_VERSION", "hipblasVersion")):
        return False
    if "Batched" in hip:
        return bool(_CUBLAS_BATCHED.match(hip))
    return True


def _trmm_row(cuda: str, hip: str, checked: str) -> Row:
    note = (
        "cuBLAS's trmm writes a separate C (ldc); hipBLAS 0.51's overwrites B: the call does "
        "not port 1:1 before hipBLAS 2 (ROCm 6.0)"
    )
    return hip, "supported", "6.0", note, checked


def cublas_rows(header: Path, names: set[str], checked: str) -> dict[str, Row]:
    """Rows for every cuBLAS name whose hipBLAS name `names` (hipblas.h's code) holds, their
    `_v2` and ILP64 `_64` spellings, and the hand-written extras."""
    rows: dict[str, Row] = {}
    for hip in sorted(n for n in names if re.match(r"hipblas[A-Z]|HIPBLAS_", n)):
        if not _keep_hipblas(hip):
            continue
        cuda = cublas_name(hip)
        row: Row = (hip, "supported", "5.2", "", checked)
        if re.match(r"cublas[SDCZ]trmm$", cuda):
            row = _trmm_row(cuda, hip, checked)
        elif _COMPLEX.match(cuda):
            note = (
                "differs: complex arguments are hipblasComplex/hipblasDoubleComplex in hipBLAS "
                "0.51 (cuBLAS: cuComplex): cast the pointers"
            )
            row = (hip, "supported", "5.2", note, checked)
        rows[cuda] = row
    for cuda, row in list(rows.items()):
        if _V2.match(cuda):
            rows[cuda + "_v2"] = row
        if _ILP64.match(cuda) and "Batched" not in cuda:
            ilp = (
                row[0] + "_64",
                "supported",
                "6.2",
                "ILP64 form: hipBLAS 2.x (ROCm 6.2 and later) declares the _64 routines, "
                "hipBLAS 0.51 none",
                NOT_CHECKED,
            )
            rows[cuda + "_64"] = ilp
            if _V2.match(cuda):
                rows[cuda + "_v2_64"] = ilp
    for cuda, extra in CUBLAS_EXTRA.items():
        hip, status, since, note, check = extra
        rows[cuda] = (hip, status, since, note, check or (checked if hip in names else ""))
    for cuda, (status, since, note) in CUBLAS_NOTES.items():
        if cuda in rows:
            old = rows[cuda]
            rows[cuda] = (old[0], status or old[1], since or old[2], note, old[4])
    return {c: _unsupported_check(r, checked) for c, r in rows.items()}


def _unsupported_check(row: Row, checked: str) -> Row:
    """An unsupported row's check is that the library's header lacks a counterpart."""
    if row[1] == "unsupported" and not row[4]:
        return (*row[:4], "absent from " + checked.split(" (", 1)[0])
    if row[1] != "unsupported" and not row[4]:
        return (*row[:4], NOT_CHECKED)
    return row


# ---------------------------------------------------------------- cuFFT

CUFFT_NOTES: dict[str, str] = {
    "cufftExecC2R": "differs: like cuFFT's, an out-of-place c2r may overwrite its input",
    "cufftExecZ2D": "differs: like cuFFT's, an out-of-place c2r may overwrite its input",
    "cufftSetCompatibilityMode": "differs: hipFFT accepts only the FFTW-padding mode",
}
CUFFT_EXTRA: dict[str, Row] = {
    "cufftXtMalloc": ("", "unsupported", "", "multi-GPU cuFFT Xt API is not in hipFFT 1.0", ""),
    "cufftXtFree": ("", "unsupported", "", "multi-GPU cuFFT Xt API is not in hipFFT 1.0", ""),
    "cufftXtMemcpy": ("", "unsupported", "", "multi-GPU cuFFT Xt API is not in hipFFT 1.0", ""),
    "cufftXtSetGPUs": ("", "unsupported", "", "multi-GPU cuFFT Xt API is not in hipFFT 1.0", ""),
    "cufftXtExecDescriptor": ("", "unsupported", "", "multi-GPU Xt API is not in hipFFT 1.0", ""),
    "cufftXtMakePlanMany": ("", "unsupported", "", "not in hipFFT 1.0", ""),
    "cufftXtExec": ("", "unsupported", "", "not in hipFFT 1.0", ""),
    "CUFFT_INVERSE": ("HIPFFT_BACKWARD", "supported", "5.2", "", ""),
}
_HIPFFT_ONLY = re.compile(
    r"^(HIPFFT_(EXPORT|H_|MAJOR_VERSION|MINOR_VERSION|PATCH_LEVEL)|hipfftHandle_t"
    r"|hipfftLibraryPropertyType(_t)?)$"
)


def cufft_rows(names: set[str], checked: str) -> dict[str, Row]:
    rows: dict[str, Row] = {}
    for hip in sorted(n for n in names if re.match(r"hipfft[A-Z]|HIPFFT_", n)):
        if _HIPFFT_ONLY.match(hip):
            continue
        cuda = cublas_name(hip)
        rows[cuda] = (hip, "supported", "5.2", CUFFT_NOTES.get(cuda, ""), checked)
    for cuda, (hip, status, since, note, check) in CUFFT_EXTRA.items():
        rows[cuda] = (hip, status, since, note, check or (checked if hip in names else ""))
    return {c: _unsupported_check(r, checked) for c, r in rows.items()}


# ---------------------------------------------------------------- cuSOLVER

CUSOLVER_TYPES = {
    "cusolverStatus_t": "hipsolverStatus_t",
    "cusolverEigMode_t": "hipsolverEigMode_t",
    "cusolverEigType_t": "hipsolverEigType_t",
    "gesvdjInfo_t": "hipsolverGesvdjInfo_t",
    "syevjInfo_t": "hipsolverSyevjInfo_t",
}
CUSOLVER_NOTES = {
    "cusolverDnCreate": (
        "differs: hipSOLVER's compatibility API (same argument lists) may be slower on "
        "rocSOLVER; fill-mode/operation arguments become hipSOLVER's enumerators"
    ),
}
# The 64-bit generic API (cusolverDnXgetrf, ...), cusolverRf* and cusolverSp* arrived in later
# hipSOLVERs: their rows come from HIPIFY's mappings (hipify_facts.py) with the HIP version.
CUSOLVER_EXTRA: dict[str, Row] = {
    "cusolverDnXsyevd": ("", "unsupported", "", "64-bit generic API not in hipSOLVER 1.4", ""),
    "cusolverDnIRSXgesv": (
        "",
        "unsupported",
        "",
        "iterative refinement solvers have no hipSOLVER equivalent",
        "",
    ),
}


def cusolver_rows(names: set[str], checked: str) -> dict[str, Row]:
    rows: dict[str, Row] = {}
    for hip in sorted(n for n in names if n.startswith("hipsolverDn")):
        cuda = "cu" + hip[3:]
        rows[cuda] = (hip, "supported", "5.2", CUSOLVER_NOTES.get(cuda, ""), checked)
    for hip in sorted(n for n in names if re.match(r"HIPSOLVER_(STATUS|EIG)_", n)):
        rows["CU" + hip[3:]] = (hip, "supported", "5.2", "", checked)
    for cuda, hip in CUSOLVER_TYPES.items():
        if hip in names:
            rows[cuda] = (hip, "supported", "5.2", "", checked)
    rows.update(CUSOLVER_EXTRA)
    return {c: _unsupported_check(r, checked) for c, r in rows.items()}
