"""CUDA math-library calls: enumerator arguments the HIP libraries type differently, and CUDA
library names no table knows (reported, never left unchanged without a word).

- `cublasGemmEx` & co. take `cudaDataType` (`CUDA_R_32F`) and `cublasComputeType_t`; hipBLAS
  before 2.0 takes `hipblasDatatype_t` for both (`HIPBLAS_R_32F`, other values than HIP's
  `HIP_R_32F`). Before HIP 7 the literals in those argument lists become hipBLAS's.
- cuSOLVER takes cuBLAS's fill-mode/operation/side enumerators; hipSOLVER has its own
  (`HIPSOLVER_FILL_MODE_LOWER`), which C++ does not convert from hipBLAS's.
"""

from __future__ import annotations

import re

from cass.models.rules import tables
from cass.models.rules.unit import Unit

_EX_CALLS = re.compile(
    r"^cublas(Gemm(Strided)?BatchedEx|GemmEx|[SC]gemmEx|AxpyEx|Dot[cu]?Ex|Nrm2Ex|RotEx|ScalEx)"
    r"(_64)?$"
)
_DATA_TYPE = re.compile(r"^CUDA_([RC])_(16F|16BF|32F|64F|8I|8U|32I|32U)$")
_COMPUTE = {
    "CUBLAS_COMPUTE_16F": "HIPBLAS_R_16F",
    "CUBLAS_COMPUTE_32F": "HIPBLAS_R_32F",
    "CUBLAS_COMPUTE_32F_PEDANTIC": "HIPBLAS_R_32F",
    "CUBLAS_COMPUTE_32F_FAST_16F": "HIPBLAS_R_32F",
    "CUBLAS_COMPUTE_32F_FAST_16BF": "HIPBLAS_R_32F",
    "CUBLAS_COMPUTE_32F_FAST_TF32": "HIPBLAS_R_32F",
    "CUBLAS_COMPUTE_64F": "HIPBLAS_R_64F",
    "CUBLAS_COMPUTE_32I": "HIPBLAS_R_32I",
}
_SOLVER_ENUMS = re.compile(r"^CUBLAS_(FILL_MODE_(LOWER|UPPER)|OP_[NTC]|SIDE_(LEFT|RIGHT))$")

# CUDA library names: what a table must know, else CASS082.
_LIBRARY_NAME = re.compile(
    r"^(cublas(Lt|Xt)?|curand|cufft(Xt)?|cusparse|cusolver(Dn|Sp|Rf|Mg)?|cudnn|nvrtc|nvtx"
    r"|cutensor|nccl)[A-Z_]\w*$"
    r"|^(CUBLAS(LT)?|CURAND|CUFFT|CUSPARSE|CUSOLVER|CUDNN|NVRTC|NVTX|CUTENSOR|NCCL)_\w+$"
    r"|^CU_[A-Z0-9_]+$"
)
_DRIVER_CALL = re.compile(r"^cu(da)?[A-Z]\w*$")
_NOT_DECLARATORS = frozenset(
    "const volatile static extern inline typedef using template typename return case else do "
    "throw sizeof new delete goto decltype alignof constexpr register struct class enum union "
    "__host__ __device__ __global__ __forceinline__ defined ifdef ifndef undef if elif".split()
)


def rewrite_library_enum_arguments(unit: Unit) -> None:
    """Enumerator literals in cuBLAS `Ex` and cuSOLVER argument lists, typed as the HIP
    library expects them."""
    before_7 = tables.parse_version(unit.target.hip_version) < (7, 0)
    calls = [n for n in unit.index if _EX_CALLS.match(n) or n.startswith("cusolverDn")]
    for i in unit.positions(calls):
        if unit.next_text(i) != "(" or unit.code[i].kind != "ident":
            continue
        found = unit.call_args(i + 1)
        if found is None:
            continue
        solver = unit.code[i].text.startswith("cusolverDn")
        for first, last in found[0]:
            for j in range(first, last + 1):
                if solver:
                    _solver_enum(unit, j)
                elif before_7:
                    _blas_data_type(unit, j)


def _blas_data_type(unit: Unit, j: int) -> None:
    tok = unit.code[j]
    data = _DATA_TYPE.match(tok.text)
    new = f"HIPBLAS_{data.group(1)}_{data.group(2)}" if data else _COMPUTE.get(tok.text)
    if new is None or unit.is_edited(tok):
        return
    unit.replace(tok.start, tok.end, new)
    detail = ""
    if "FAST" in tok.text or "PEDANTIC" in tok.text:
        detail = "; its precision hint has no hipBLAS counterpart (plain fp32 compute)"
    unit.report(
        "CASS083",
        tok.start,
        tok.end,
        f"`{tok.text}` -> `{new}`: hipBLAS before 2.0 types this argument hipblasDatatype_t"
        + detail,
    )


def _solver_enum(unit: Unit, j: int) -> None:
    tok = unit.code[j]
    if not _SOLVER_ENUMS.match(tok.text) or unit.is_edited(tok):
        return
    new = "HIPSOLVER_" + tok.text[len("CUBLAS_") :]
    unit.replace(tok.start, tok.end, new)
    unit.report(
        "CASS083",
        tok.start,
        tok.end,
        f"`{tok.text}` -> `{new}`: hipSOLVER has its own enumerators (C++ does not convert "
        "hipBLAS's); a variable of cublasFillMode_t/cublasOperation_t passed here needs the "
        "hipSOLVER type too",
    )


def _declared_here(unit: Unit, positions: list[int]) -> bool:
    """The file declares the name itself: `#define NAME`, `Type NAME`, `struct NAME {`."""
    for i in positions:
        prev = unit.code[i - 1] if i else None
        if prev is None:
            continue
        if prev.text == "define" and prev.pp != -1:
            return True
        if prev.kind == "ident" and prev.text not in _NOT_DECLARATORS:
            return True
        if prev.text in ("struct", "class", "enum", "union") and unit.next_text(i) in ("{", ":"):
            return True
    return False


def report_unknown_library_names(unit: Unit) -> None:
    """A CUDA library name (cuBLAS, cuRAND, cuFFT, cuSPARSE, cuSOLVER, cuDNN, NVRTC, NVTX,
    cuTENSOR, NCCL, driver enumerators) or a `cu*`/`cuda*` call no table lists, and that the file
    does not declare itself, is reported where it is used."""
    table, guards = tables.name_table(), tables.guard_table()
    for name, found in unit.index.items():
        if name in table or name in guards:
            continue
        library = bool(_LIBRARY_NAME.match(name))
        if not library and not _DRIVER_CALL.match(name):
            continue
        positions = [i for i in found if unit.code[i].kind == "ident"]
        if not positions or _declared_here(unit, positions):
            continue
        if not library:  # a cu*/cuda* name counts only where it is called
            positions = [i for i in positions if unit.next_text(i) == "("]
        seen: set[int] = set()
        for i in positions:
            tok = unit.code[i]
            line = unit.position(tok.start)[0]
            if line in seen or unit.is_edited(tok) or unit.prev_text(i) in (".", "->", "::"):
                continue
            seen.add(line)
            unit.report(
                "CASS082",
                tok.start,
                tok.end,
                f"`{name}` is a CUDA library name cass has no mapping for; it is left "
                "unchanged: find its HIP counterpart (docs/rules-support-matrix.md) or rewrite it",
            )
