"""cass's reference implementations for emulated verification.

The cass RDNA3 emulator has no rocBLAS, and Debian's rocRAND/rocSPARSE hold no gfx1100 code. So
a port that calls a HIP math library is built, for the emulator only, with cass's own
implementation of the part of that library's API it covers: HIP source compiled for gfx1100 with
the program (`build_hip_program` adds it), checked against numpy in tests/emulator. On an AMD GPU
the real libraries are linked instead; a verdict that used one of these says so.

    needed(source_text) -> tuple[Reference, ...]   # the implementations a HIP program calls
    Reference.source, .covers                      # the HIP file (or header folder), what it has
    Reference.compile_args                         # what the emulator build adds for it

Covered today: hipBLAS (`hipblas.hip`), hipFFT (`hipfft.hip`), hipRAND's host API
(`hiprand.hip`), hipSPARSE's generic SpMV and SpMM (`hipsparse.hip`), hipSOLVER's common dense
solvers (`hipsolver.hip`) and rocWMMA, a header-only library, as a header of our own
(`include/rocwmma/rocwmma.hpp`, first on the include path) on gfx11's WMMA builtins. hipRAND's
device API needs nothing here: Debian's hiprand_kernel.h (rocRAND's header-only generators)
compiles for gfx1100 as it is. MIOpen's common layer operations (`miopen.hip`) are declared by a
header of our own (`include/miopen/miopen.h`: AMD's names, enumerator values and signatures,
declaring only what `miopen.hip` implements), since no MIOpen header or package is available here.
roctx (`roctx.hip`) likewise has its header in `include/roctracer/` (Debian has no roctracer).
hipRTC (NVRTC's counterpart) is not here: the emulator runtime implements it (RUNTIME_PROVIDED).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).parent
INCLUDE = HERE / "include"  # header-only libraries: this folder goes first on the include path
TITLE = "cass's reference implementations for emulated verification"


@dataclass(frozen=True)
class Reference:
    library: str
    source: Path
    covers: str  # what of the library's API it implements
    include: re.Pattern[str]  # an #include that makes a program need it
    task_library: str  # the benchmark's name for the CUDA library (task.toml `libraries`)
    header: str  # the HIP header it needs, found through `hip_clang_command`'s include path
    include_dir: Path | None = None  # a folder of cass's own headers for it, searched first

    @property
    def include_args(self) -> tuple[str, ...]:
        """Its header folder for a compile of the program's device side alone (no host code)."""
        if self.source.is_dir():
            return ("-I", str(self.source))
        return ("-I", str(self.include_dir)) if self.include_dir else ()

    @property
    def compile_args(self) -> tuple[str, ...]:
        """A HIP source compiled with the program, or a header folder searched before any other."""
        if self.source.is_dir():
            return ("-I", str(self.source))
        headers = ("-I", str(self.include_dir)) if self.include_dir else ()
        return (*headers, str(self.source))


REFERENCES: tuple[Reference, ...] = (
    Reference(
        "hipBLAS",
        HERE / "hipblas.hip",
        "handle/stream/pointer mode, Set/Get Vector/Matrix, S/D axpy, dot, nrm2, scal, copy, "
        "asum, iamax, gemv, gemm, gemmBatched, gemmStridedBatched, GemmEx, GemmBatchedEx, "
        "GemmStridedBatchedEx (f16/f32/f64 data, f32/f64 compute)",
        re.compile(r"^\s*#\s*include\s*[<\"](hipblas/)?hipblas\.h[>\"]", re.MULTILINE),
        "cublas",
        "hipblas/hipblas.h",
    ),
    Reference(
        "hipFFT",
        HERE / "hipfft.hip",
        "plans of rank 1-3 (Plan1d/2d/3d/Many, Create + MakePlan*, batches, strides), C2C/Z2Z, "
        "R2C/D2Z, C2R/Z2D (in place too), as direct DFTs summed in double precision",
        re.compile(r"^\s*#\s*include\s*[<\"](hipfft/)?hipfft\.h[>\"]", re.MULTILINE),
        "cufft",
        "hipfft/hipfft.h",
    ),
    Reference(
        "hipRAND",
        HERE / "hiprand.hip",
        "host API: XORWOW, Philox-4x32-10 and Sobol32 (2 dimensions) generators; uniform, "
        "normal and log-normal floats and doubles, raw 32-bit words; device and host output "
        "(statistics, not cuRAND's numbers, except Sobol32)",
        re.compile(r"^\s*#\s*include\s*[<\"](hiprand/)?hiprand\.h[>\"]", re.MULTILINE),
        "curand",
        "hiprand/hiprand.h",
    ),
    Reference(
        "hipSPARSE",
        HERE / "hipsparse.hip",
        "handle/stream/pointer mode, CSR and COO matrices (32/64-bit indices, f32/f64), dense "
        "vectors and matrices (row or column order), SpMV_bufferSize and SpMV (non-transposed), "
        "SpMM_bufferSize, SpMM_preprocess and SpMM (A non-transposed, B as is or transposed)",
        re.compile(r"^\s*#\s*include\s*[<\"](hipsparse/)?hipsparse\.h[>\"]", re.MULTILINE),
        "cusparse",
        "hipsparse/hipsparse.h",
    ),
    Reference(
        "hipSOLVER",
        HERE / "hipsolver.hip",
        "handle and stream; S/D getrf (partial or no pivoting) and getrs (N/T), potrf and potrs "
        "(lower/upper), geqrf, ormqr (left/right, N/T) and orgqr, syevd (Jacobi; eigenvectors "
        "up to sign); their bufferSize queries; devInfo as cuSOLVER sets it",
        re.compile(r"^\s*#\s*include\s*[<\"](hipsolver/)?hipsolver\.h[>\"]", re.MULTILINE),
        "cusolver",
        "hipsolver/hipsolver.h",
    ),
    Reference(
        "rocWMMA",
        INCLUDE,
        "fragment (matrix_a, matrix_b, accumulator; row_major, col_major), fill_fragment, "
        "load_matrix_sync and store_matrix_sync (with layout_t mem_row_major/mem_col_major), "
        "mma_sync, synchronize_workgroup; 16x16x16 blocks of f16 (__half, _Float16) or bf16 inputs "
        "with f32 or same-type accumulators, int8/uint8 inputs with int32 accumulators; gfx11's "
        "v_wmma_* instructions",
        re.compile(r"^\s*#\s*include\s*[<\"]rocwmma/rocwmma\.hpp[>\"]", re.MULTILINE),
        "wmma",
        "rocwmma/rocwmma.hpp",
    ),
    Reference(
        "MIOpen",
        HERE / "miopen.hip",
        "handle/stream; tensor descriptors of 3-5 dimensions (half/float/double, strided); "
        "convolution descriptors of 1-3 spatial dimensions (padding, stride, dilation, groups); "
        "output dims, workspace queries and find steps; convolution forward, backward data and "
        "weights, forward/backward bias; pooling forward (max, average excluding or including "
        "padding); activation forward and backward (ReLU, logistic, tanh, clipped ReLU, ELU, "
        "leaky ReLU, soft ReLU, abs, power); softmax forward and backward (fast/accurate/log, "
        "instance/channel); OpTensor (add/mul/min/max, B broadcast); batch norm (spatial/per "
        "activation): forward inference, forward training with running and saved statistics, "
        "backward",
        re.compile(r"^\s*#\s*include\s*[<\"]miopen/miopen\.h[>\"]", re.MULTILINE),
        "cudnn",
        "miopen/miopen.h",
        INCLUDE,  # include/miopen/miopen.h: cass's own declarations (no MIOpen header here)
    ),
    Reference(
        "roctx",
        HERE / "roctx.hip",
        "roctxMarkA, roctxRangePushA/Pop (per-thread levels), roctxRangeStartA/Stop (process-wide "
        "ids), the version queries; nothing is recorded, and each call goes to stderr when "
        "CASS_ROCTX_TRACE is set",
        re.compile(r"^\s*#\s*include\s*[<\"]roctracer/roctx\.h[>\"]", re.MULTILINE),
        "nvtx",
        "roctracer/roctx.h",
        INCLUDE,  # include/roctracer/roctx.h: AMD's ROC-TX 1.0 API (Debian has no roctracer)
    ),
)

# Libraries the emulator runtime implements itself (task.toml name -> its HIP header): hipRTC
# compiles with the real clang-16 (cass.runner.emulator.hiprtc), so a build adds nothing for it.
RUNTIME_PROVIDED = {"nvrtc": "hip/hiprtc.h"}
HIPRTC_INCLUDE = re.compile(r"^\s*#\s*include\s*[<\"]hip/hiprtc\.h[>\"]", re.MULTILINE)
HIPRTC_NOTE = (
    "hipRTC ran in the emulator runtime: the program text compiled by clang-16 for gfx1100"
)


def provided() -> frozenset[str]:
    """The benchmark's library names the emulator can run, given the headers installed here."""
    from cass.runner import rocm_api_headers

    headers = rocm_api_headers.installed()
    folders = [headers.include_dir] if headers else []
    folders += [Path("/usr/include"), INCLUDE]  # Debian's hipRAND; cass's own headers
    found = {
        ref.task_library for ref in REFERENCES if any((f / ref.header).is_file() for f in folders)
    }
    system = Path("/usr/include")
    found |= {lib for lib, header in RUNTIME_PROVIDED.items() if (system / header).is_file()}
    return frozenset(found)


def needed(source_text: str) -> tuple[Reference, ...]:
    """The reference implementations a HIP program's source includes the library of."""
    return tuple(ref for ref in REFERENCES if ref.include.search(source_text))


def describe(refs: tuple[Reference, ...]) -> str:
    """One line for a verdict or a report: which libraries ran as cass's own code."""
    if not refs:
        return ""
    return f"{', '.join(r.library for r in refs)} ran as {TITLE}, not AMD's library"
