"""The rules engine's diagnostic codes: stable names, default severity, what they mean.

`docs/rules-diagnostics.md` is generated from this table (`cass tables docs`);
each code's `anchor` is its heading there.
"""

from __future__ import annotations

from dataclasses import dataclass

from cass.runner.diagnostics import Severity

E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO  # noqa: E741 - the table's severity column


@dataclass(frozen=True)
class DiagnosticCode:
    code: str
    title: str
    severity: Severity
    explanation: str

    @property
    def anchor(self) -> str:
        return f"docs/rules-diagnostics.md#{self.code.lower()}"


_TABLE: tuple[tuple[str, Severity, str, str], ...] = (
    (
        "CASS001",
        E,
        "unterminated comment",
        "A `/*` comment has no closing `*/`; everything after it is comment. Close the comment.",
    ),
    (
        "CASS002",
        E,
        "unterminated literal",
        "A string or character literal has no closing quote on its line. Close the literal.",
    ),
    (
        "CASS003",
        E,
        "NUL byte or stray character",
        "The source contains a NUL byte or a character that is not C++; remove it.",
    ),
    (
        "CASS004",
        E,
        "unbalanced kernel launch brackets",
        "A `<<<` has no matching `>>>` (or the reverse) in the same statement.",
    ),
    (
        "CASS010",
        E,
        "no HIP equivalent",
        (
            "The CUDA name has no HIP counterpart known to cass; it is left unchanged and the port "
            "will not compile until the code is rewritten by hand."
        ),
    ),
    (
        "CASS011",
        E,
        "needs a newer HIP",
        (
            "The HIP counterpart exists only in a newer HIP than the target; the CUDA name is left "
            "unchanged. Port for a newer HIP with `--hip-version` or rewrite the call."
        ),
    ),
    (
        "CASS012",
        W,
        "renamed, behaviour differs",
        "The name maps 1:1 but its behaviour on AMD differs in a way the code may depend on.",
    ),
    (
        "CASS013",
        W,
        "CUDA name built by token pasting",
        (
            "A macro builds CUDA identifiers with `##`; cass cannot see the names it produces, so the "
            "expansions are not translated. Spell the names out."
        ),
    ),
    (
        "CASS014",
        E,
        "CUDA header without HIP equivalent",
        "The included header has no HIP counterpart for the target; the include is kept.",
    ),
    (
        "CASS020",
        I,
        "warp intrinsic rewritten for the target HIP",
        (
            "A `*_sync` warp intrinsic, `__activemask` or `__syncwarp` was rewritten to what the "
            "target HIP version provides (HIP 5.2 has none of them; 6.x gates them behind "
            "HIP_ENABLE_WARP_SYNC_BUILTINS), with 64-bit masks."
        ),
    ),
    (
        "CASS021",
        W,
        "warp mask is not the full warp",
        (
            "The mask is not a constant full-warp mask. HIP 5.2's mask-free intrinsics act on the "
            "active lanes, which is faithful only when the mask names exactly the active lanes."
        ),
    ),
    (
        "CASS022",
        I,
        "ballot widened to 64 bits",
        (
            "HIP ballots and lane masks are 64-bit on every target; a 32-bit variable receiving one "
            "was widened so that no lane is truncated (and `__popc`/`__ffs` on it became "
            "`__popcll`/`__ffsll`)."
        ),
    ),
    (
        "CASS023",
        W,
        "ballot truncated to 32 bits",
        (
            "A ballot or lane mask is stored in a 32-bit variable cass could not widen; on wave64 "
            "targets lanes 32-63 are lost. Use `unsigned long long`."
        ),
    ),
    (
        "CASS030",
        W,
        "warp-size assumption rewritten",
        (
            "Code that hard-codes a 32-lane warp (`& 31`, `% 32`, `/ 32`, `>> 5`, a 16-start shuffle "
            "tree) was rewritten in terms of `warpSize` for a wave64 target."
        ),
    ),
    (
        "CASS031",
        E,
        "warp-size assumption on a wave64 target",
        (
            "The code assumes 32 lanes per warp in a way cass cannot rewrite (a `[32]` per-lane "
            "array, a 32-bit lane mask); it is wrong on wave64 targets (gfx9xx). On wave32 (RDNA, "
            "gfx10xx/gfx11xx) it is correct as written."
        ),
    ),
    (
        "CASS032",
        E,
        "warpSize used as a constant expression",
        (
            "From HIP 7.0 `warpSize` is no longer `constexpr`; array bounds and template arguments "
            "using it do not compile. Use a constant (64 is safe on every target) or query it at run time."
        ),
    ),
    (
        "CASS040",
        I,
        "__CUDA_ARCH__ guard rewritten",
        (
            "HIP-Clang defines no `__CUDA_ARCH__`; the guard now tests `__HIP_DEVICE_COMPILE__` and "
            "compares with the configured CUDA-capability equivalent, so device blocks stay."
        ),
    ),
    (
        "CASS041",
        W,
        "device block inactive on the target",
        (
            "A `__CUDA_ARCH__` comparison selects a capability above the AMD equivalent: the block is "
            "skipped on the AMD device pass. Check that a fallback exists."
        ),
    ),
    (
        "CASS042",
        W,
        "CUDA version macro given a value",
        (
            "`CUDA_VERSION` / `CUDART_VERSION` do not exist under HIP; they were replaced by the CUDA "
            "API level cass maps from, so version checks keep choosing the modern branch."
        ),
    ),
    (
        "CASS043",
        I,
        "compiler macro mapped",
        "`__NVCC__` / `__CUDACC__` became `__HIP__` (defined by HIP-Clang in every HIP pass).",
    ),
    (
        "CASS050",
        I,
        "inline PTX translated",
        "An inline PTX `asm` statement was replaced by equivalent HIP builtins.",
    ),
    (
        "CASS051",
        E,
        "inline PTX not translatable",
        (
            "AMD GPUs cannot run PTX; this `asm` uses instructions cass does not translate. Rewrite "
            "it with HIP builtins."
        ),
    ),
    (
        "CASS060",
        I,
        "call rewritten for a different HIP signature",
        (
            "The HIP function differs in arguments (3-argument `cudaGraphInstantiate`, "
            "`cudaMallocHost` flags, `HIP_SYMBOL` for symbol arguments); the call was adapted."
        ),
    ),
    (
        "CASS061",
        W,
        "__launch_bounds__ minimum blocks converted to waves per EU",
        (
            "CUDA's second `__launch_bounds__` argument is the minimum resident blocks per SM; HIP "
            "passes its second argument to `amdgpu_waves_per_eu`, the minimum waves per SIMD. cass "
            "converts: ceil(minBlocks * ceil(maxThreads / waveSize) / 4), 4 being the SIMDs of a "
            "CDNA CU or an RDNA WGP, capped at the SIMD's wave slots (16 RDNA, 8 CDNA); bounds "
            "spelled with macros become the same constant expression (uncapped). The register "
            "budget it implies differs from NVIDIA's: measure."
        ),
    ),
    (
        "CASS062",
        W,
        "compute capability used as a feature check",
        (
            "AMD devices report gfx-derived major/minor numbers unrelated to CUDA compute capability; "
            "a check such as `prop.major >= 7` means something else on AMD."
        ),
    ),
    (
        "CASS063",
        E,
        "loads NVIDIA binary code",
        (
            "The module load names a PTX/cubin/fatbin file; AMD GPUs cannot load it. Build a HIP code "
            "object (.hsaco / .co) instead."
        ),
    ),
    (
        "CASS064",
        W,
        "device limit HIP 5.2 sets otherwise",
        (
            "HIP 5.2 has no `hipDeviceSetLimit`. For a limit it needs no call for (the stack, sized "
            "when the kernel is compiled; the printf FIFO, which AMD's hostcall printf does not "
            "have) the call becomes `hipSuccess` and its value is still evaluated. HIP 6 has "
            "`hipDeviceSetLimit(hipLimitStackSize, ...)`."
        ),
    ),
    (
        "CASS065",
        W,
        "memory type HIP 5.x reports otherwise",
        (
            "HIP 5.x has no `hipMemoryTypeManaged`: it reports managed memory as "
            "`hipMemoryTypeDevice` with `isManaged` set. `cudaMemoryTypeManaged` becomes "
            "`hipMemoryTypeUnified`, which compiles but which HIP 5.x never returns."
        ),
    ),
    (
        "CASS066",
        W,
        "__launch_bounds__ cluster argument dropped",
        (
            "CUDA's third `__launch_bounds__` argument (maximum thread-block cluster size) has no "
            "HIP counterpart, and HIP 5.2's `__launch_bounds__` macro does not compile with three "
            "arguments; it is dropped."
        ),
    ),
    (
        "CASS067",
        W,
        "dynamic shared memory above the LDS limit",
        (
            "`cudaFuncAttributeMaxDynamicSharedMemorySize` asks for more shared memory than one "
            "workgroup can have on the target (64 KiB on gfx1100, gfx90a, gfx942; 160 KiB on "
            "gfx950). The call maps 1:1, but the launch fails at run time."
        ),
    ),
    (
        "CASS068",
        W,
        "argument evaluation order differs after the port",
        (
            "Several arguments of one call call the same zero-argument function (a random-number "
            "generator, a counter). C++ leaves the order of argument evaluation unspecified: GCC, "
            "nvcc's host compiler, evaluates right to left and clang left to right, so the port "
            "gets the values in other arguments. Call the function into named variables first."
        ),
    ),
    (
        "CASS070",
        E,
        "dynamic parallelism",
        "A kernel is launched from device code; HIP does not support dynamic parallelism.",
    ),
    (
        "CASS071",
        E,
        "surface reference",
        (
            "Surface references (`surface<...>`) were removed in CUDA 12 and HIP has none; use "
            "surface objects (`cudaSurfaceObject_t`). Texture references port: HIP still has "
            "them (deprecated)."
        ),
    ),
    (
        "CASS072",
        E,
        "libcu++ (cuda::)",
        (
            "`cuda::` / `<cuda/...>` (libcu++) has no HIP counterpart in ROCm's HIP; use `std::` / "
            "HIP atomics or ROCm's libhipcxx."
        ),
    ),
    (
        "CASS073",
        E,
        "warp matrix (wmma/mma)",
        (
            "`nvcuda::wmma` maps to rocWMMA only where the target has it (gfx908/gfx90a from "
            "ROCm 5.2, gfx11 from 5.5, gfx940-942 from 6.0, gfx12 from 6.4) and only for the "
            "fragment shapes and types rocWMMA implements there (16x16x16 half/bf16/int8 on "
            "gfx11): anything else is reported at its use; port for another target or rewrite."
        ),
    ),
    (
        "CASS074",
        E,
        "numeric type without HIP equivalent for the target",
        "The type (bf16, fp8) has no CUDA-compatible HIP counterpart in the target HIP version.",
    ),
    (
        "CASS075",
        E,
        "device-side cudaDeviceSynchronize",
        (
            "`cudaDeviceSynchronize()` called in a `__global__` or `__device__` function waits for "
            "child kernels (dynamic parallelism's device runtime, removed in CUDA 12). HIP has no "
            "device runtime: `hipDeviceSynchronize` is host-only. Synchronise on the host after "
            "the launch, or use `__syncthreads()` for a barrier inside the kernel."
        ),
    ),
    (
        "CASS076",
        E,
        "project file not ported",
        (
            "A file of a ported project uses CUDA but could not be read as source (not UTF-8, or "
            "too large); it is copied unchanged. Convert it to UTF-8 and port the project again."
        ),
    ),
    (
        "CASS077",
        I,
        "CUDA header guard mapped",
        (
            "Code tested a CUDA header's include guard or version macro (`#ifdef __DRIVER_TYPES_H__`, "
            "`#ifdef CUBLAS_API_H_`); HIP headers never define it, so the helpers it guards would "
            "vanish. It now tests the guard of the HIP header the port includes, or a value "
            "(`tables/guards.tsv`)."
        ),
    ),
    (
        "CASS078",
        W,
        "CUDA header guard without HIP equivalent",
        (
            "Code tests a CUDA header's include guard that no HIP header defines (a library HIP "
            "lacks, or one cass does not know): the code it guards now reads as if the header "
            "were not included. Test the HIP header's guard instead, or define the macro."
        ),
    ),
    (
        "CASS079",
        W,
        "build setting without HIP equivalent",
        (
            "A Makefile or CMake file of a ported project uses an nvcc option, CUDA library or "
            "CMake construct cass cannot write for HIP (separate device linking, the CUDA device "
            "runtime, NPP, nvJPEG, `cuda_add_*`): the build file keeps it; port it by hand."
        ),
    ),
    (
        "CASS080",
        E,
        "cudaDeviceProp member HIP lacks",
        (
            "Code reads a `cudaDeviceProp` member that HIP 5.x's `hipDeviceProp_t` does not have "
            "(`deviceOverlap`, `asyncEngineCount`, `sharedMemPerMultiprocessor`, ...): renaming the "
            "struct alone leaves a port that does not compile. Query the value with "
            "`hipDeviceGetAttribute` where HIP has the attribute, or use a value chosen for AMD "
            "GPUs; HIP 6 added most of these members."
        ),
    ),
    (
        "CASS081",
        I,
        "spaced launch brackets joined",
        (
            "A kernel launch written `kernel << < grid, block >> > (args)` compiles with nvcc but "
            "not with clang, which reads only `<<<` and `>>>` as launch brackets: cass joins them."
        ),
    ),
    (
        "CASS082",
        W,
        "CUDA library name without a mapping",
        (
            "A cuBLAS, cuRAND, cuFFT, cuSPARSE, cuSOLVER, cuDNN, NVRTC, NVTX, cuTENSOR or NCCL "
            "name, a driver enumerator (`CU_...`) or a `cu*`/`cuda*` call that no mapping table "
            "lists and the file does not declare itself: it is left unchanged and the port will "
            "not compile until it is rewritten. Look it up in docs/rules-support-matrix.md."
        ),
    ),
    (
        "CASS083",
        I,
        "library enumerator argument retyped",
        (
            "hipBLAS before 2.0 types the data-type and compute-type arguments of its `Ex` "
            "routines `hipblasDatatype_t` (`HIPBLAS_R_32F`, other values than `HIP_R_32F`), and "
            "hipSOLVER has its own fill-mode/operation/side enumerators: literals in those "
            "argument lists are written as the HIP library expects them."
        ),
    ),
    (
        "CASS084",
        E,
        "CUDA Samples helper header not found",
        (
            "A file of the project includes a helper header of NVIDIA's CUDA Samples "
            "(`helper_cuda.h`, `helper_timer.h`, `cutil.h`, ...) that is in no folder of the "
            "project or of its include path: the port cannot build without it. Copy it into the "
            "project (it uses CUDA itself and is then ported with it), or port the samples' "
            "`Common/` folder with `cass port` and add it to the build's include path."
        ),
    ),
    (
        "CASS085",
        I,
        "cuDNN call adapted to MIOpen",
        (
            "MIOpen's call takes the cuDNN call's arguments in another order, without one of "
            "them, or with one more (`cudnnSoftmaxForward` -> `miopenSoftmaxForward_V2` with the "
            "algorithm and mode last, `cudnnPoolingForward` -> `miopenPoolingForward` with "
            "do_backward=false): the call is rewritten, and the message says what changed."
        ),
    ),
    (
        "CASS086",
        E,
        "cuDNN call MIOpen cannot take as written",
        (
            "The cuDNN call has no mechanical MIOpen form here: a convolution run without the "
            "find step MIOpen requires, a tensor format or convolution mode MIOpen lacks, a mode "
            "that is not a literal. It is left unchanged; the message names the MIOpen route."
        ),
    ),
    (
        "CASS087",
        W,
        "warp-matrix code ported to rocWMMA",
        (
            "`nvcuda::wmma` became `rocwmma` (same fragment, load/store/mma/fill calls), but "
            "something the code may rely on differs: a fragment belongs to a whole wavefront "
            "(64 lanes on CDNA targets, where CUDA's warp is 32), or an element type needs "
            "rocWMMA's spelling."
        ),
    ),
    (
        "CASS088",
        E,
        "asynchronous-copy pipeline without HIP equivalent",
        (
            "`cuda::pipeline`, `cuda::barrier` and `cuda::memcpy_async` (libcu++) and the "
            "`__mbarrier` primitives have no HIP counterpart (AMD GPUs have no asynchronous "
            "global-to-shared copy engine). Copy synchronously and put `__syncthreads()` where "
            "the consumer waits, or use `cooperative_groups::memcpy_async` + `cg::wait`, which "
            "cass rewrites."
        ),
    ),
    (
        "CASS089",
        I,
        "asynchronous copy made synchronous",
        (
            "`__pipeline_memcpy_async` copies at once (each thread its own bytes, so a thread "
            "that waits for its own copies sees the same data); `__pipeline_commit` and "
            "`__pipeline_wait_prior` have nothing left to do."
        ),
    ),
    (
        "CASS090",
        W,
        "file that is not UTF-8 ported byte for byte",
        (
            "A project file holds bytes that are not UTF-8 (Latin-1 comments, say). It is ported "
            "anyway: those bytes are carried through unchanged, and only the CUDA around them is "
            "rewritten. The location names the first such byte; saving the file as UTF-8 removes "
            "the warning."
        ),
    ),
    (
        "CASS091",
        W,
        "NVRTC program text not in this file",
        (
            "`nvrtcCreateProgram` compiles a program text when the program runs; after the port "
            "hipRTC compiles it as HIP. cass ports that text where the file holds it as a string "
            "literal (in the call, or as the initializer of the variable the call names); this "
            "one comes from elsewhere (a file read at run time, a string built by the program). "
            "Port the CUDA in it where it is written: `cass port` on that file, or move the text "
            "into a literal here."
        ),
    ),
    (
        "CASS092",
        W,
        "NVRTC option naming an NVIDIA architecture",
        (
            "An option string of a file that calls `nvrtcCompileProgram` names an NVIDIA "
            "architecture (`--gpu-architecture=compute_90`, `-arch=sm_80`). hipRTC compiles for "
            "an AMD GPU: a whole option becomes `--gpu-architecture=` the port's target (`cass "
            "port --arch`, gfx1100 by default); one the program completes at run time "
            '(`"-arch=sm_" + ...`) is left as it is and must be changed to pass the AMD GPU\'s '
            "gfx name (`hipDeviceProp_t::gcnArchName`)."
        ),
    ),
    (
        "CASS093",
        W,
        "NVRTC option with another or no hipRTC spelling",
        (
            "hipRTC passes its options to clang, so an NVRTC option string of a file that calls "
            "`nvrtcCompileProgram` is respelled where clang has the same option (info: "
            "`--use_fast_math` -> `-ffast-math`, `--fmad=false` -> `-ffp-contract=off`, "
            "`--std=c++17` -> `-std=c++17`, `--define-macro=`/`--include-path=` -> `-D`/`-I`, "
            "`-G` -> `-g`), and reported where it has none (`-default-device`, `-lineinfo`, "
            "`--maxrregcount=`): remove those."
        ),
    ),
    (
        "CASS094",
        W,
        "case label of an error code HIP does not have",
        (
            "A `case` of a switch over error codes names a CUDA error (`cudaErrorTextureNotBound`, "
            "`CUDA_ERROR_TOO_MANY_PEERS`) the target HIP has no counterpart of. No HIP call "
            "returns it, so the case cannot match on HIP: its label becomes a hipError_t value "
            "HIP does not use (2047 down), distinct per name, and every other case is kept. CUDA "
            "Samples' `_cudaGetErrorEnum` (helper_cuda.h) is such a switch. Where the code needs "
            "the case, port for a newer HIP (`--hip-version`) if the message names one."
        ),
    ),
    (
        "CASS096",
        W,
        "shift whose amount can be the full width",
        (
            "In device code, a shift by `32 - e` or `64 - e` (`dw << 32 - bit`) shifts by the "
            "value's whole width when `e` is 0. PTX clamps the amount, so on NVIDIA GPUs the "
            "result is 0 (or the sign bits, for a signed value shifted right), and code relies "
            "on it; AMD GPUs take the amount modulo the width, so the value comes back "
            "unshifted. C++ leaves the shift undefined, the port compiles, and its output "
            "changes. Where `e` can be 0, guard the shift (`bit ? dw << 32 - bit : 0`: the quick "
            "fix, offered for a left shift of an operand that stands alone without calls or "
            "increments); a 64-bit value shifted by `32 - e` is safe. Amounts from constants "
            "only (upper-case names) are not reported."
        ),
    ),
    (
        "CASS095",
        W,
        "interop header without a HIP equivalent, not used",
        (
            "The file includes a CUDA graphics-interop header HIP does not provide "
            "(`cuda_gl_interop.h`, `cuda_egl_interop.h`, `cuda_vdpau_interop.h`, "
            "`cuda_d3d*_interop.h`) but calls none of its functions: the include is removed. A "
            "file that calls them gets CASS014 (and CASS010 for each call) instead."
        ),
    ),
)

DIAGNOSTIC_CODES: dict[str, DiagnosticCode] = {
    code: DiagnosticCode(code, title, severity, explanation)
    for code, severity, title, explanation in _TABLE
}
