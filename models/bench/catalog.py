"""The benchmark's vocabulary, as data: domains, features, libraries, result statuses.

Every `task.toml` is checked against these tables; reports and plots take their row order and
labels from them.
"""

from __future__ import annotations

from cass.runner.backends.emulator import TIME_SCALE as EMULATOR_TIME_SCALE

DOMAINS: dict[str, str] = {
    "linear_algebra": "linear algebra",
    "reduction_scan": "reduction and scan",
    "sorting": "sorting",
    "graph": "graph algorithms",
    "image_processing": "image processing",
    "signal_processing": "signal processing",
    "physics_simulation": "physics simulation",
    "ml_operators": "machine-learning operators",
    "crypto_hashing": "cryptography and hashing",
    "monte_carlo": "Monte Carlo",
    "sparse_linear_algebra": "sparse linear algebra",
    "data_structures": "data structures",
    "numerical_methods": "numerical methods",
    "statistics": "statistics",
    "string_processing": "string processing",
    "geometry_graphics": "geometry and graphics",
    "dynamic_programming": "dynamic programming",
    "finance": "finance",
    "memory_operations": "memory operations",
}

FEATURES: frozenset[str] = frozenset(
    [
        "shared_memory",
        "dynamic_shared_memory",
        "constant_memory",
        "templates",
        "structs",
        "grid_2d",
        "grid_3d",
        "streams",
        "events",
        "pinned_memory",
        "managed_memory",
        "cooperative_groups",
        "warp_shuffle",
        "warp_vote",
        "warp_size_32",
        "atomics_int",
        "atomics_float",
        "atomics_cas",
        "atomics_64",
        "fast_math",
        "double_precision",
        "half_precision",
        "launch_bounds",
        "device_printf",
        "inline_ptx",
        "curand",
        "cublas",
        "thrust",
        "cub",
        "multi_kernel",
        "texture_free",
        "texture_objects",
        "math_library",
        "bit_manipulation",
        "recursion",
        "function_pointers",
        "unified_addressing",
        "memcpy_async",
        "vector_types",
    ]
)

# library -> (link flags for nvcc, the header that proves the HIP counterpart is installed)
LIBRARIES: dict[str, tuple[tuple[str, ...], str]] = {
    "curand": (("-lcurand",), "hiprand/hiprand.h"),
    "cublas": (("-lcublas",), "hipblas/hipblas.h"),
    "cufft": (("-lcufft",), "hipfft/hipfft.h"),
    "cusparse": (("-lcusparse",), "hipsparse/hipsparse.h"),
    "cusolver": (("-lcusolver",), "hipsolver/hipsolver.h"),
    "nvrtc": (("-lnvrtc", "-lcuda"), "hip/hiprtc.h"),  # its programs load code with the driver API
    "nvtx": ((), "roctracer/roctx.h"),  # NVTX3 is header-only
    "cudnn": (("-lcudnn",), "miopen/miopen.h"),
    "thrust": ((), "thrust/system/hip/vector.h"),
    "cub": ((), "hipcub/hipcub.hpp"),
    "wmma": ((), "rocwmma/rocwmma.hpp"),  # mma.h: header-only on both sides
}

# Libraries each port backend can provide. The emulator links only the cass HIP runtime; a ROCm
# machine provides a library when its HIP header is installed (checked at run time).
BACKEND_LIBRARIES: dict[str, frozenset[str] | None] = {
    "emulator": frozenset(),
    "rocm": None,  # None: probe the ROCm include folders
}
ROCM_INCLUDE_DIRS = ("/opt/rocm/include", "/usr/include")

# A task's timeout_s is sized for a real GPU; a port backend that runs slower gets this multiple
# (unless `cass bench run --timeout` sets one limit for every run).
TIMEOUT_SCALE: dict[str, float] = {"emulator": EMULATOR_TIME_SCALE, "rocm": 1.0}

# status -> (meaning, counts as a pass). Order is the order of report columns.
STATUSES: dict[str, tuple[str, bool]] = {
    "pass": ("the port's output matches the NVIDIA reference", True),
    "mismatch": ("the port ran, but its output differs from the reference", False),
    "runtime-error": ("the port built but crashed, faulted or timed out", False),
    "compile-error": ("the port does not compile", False),
    "translate-error": ("the engine failed or reported errors", False),
    "unsupported-library": ("the task needs a library the backend does not provide", False),
    "no-reference": ("no fresh NVIDIA reference is recorded for the task", False),
    "unverifiable": (
        "the backend is unavailable here, the original failed, or (a Thrust/CUB program at the assembly level) "
        "only the HIP library's kernels ran, none lifted",
        False,
    ),
}

# Which levels each registered engine translates (`--engine all` takes those of the chosen level);
# an engine missing here is tried at both levels.
ENGINE_LEVELS: dict[str, tuple[str, ...]] = {
    "rules": ("source",),
    "auto": ("source",),
    "model": ("source", "assembly"),
    "lift": ("assembly",),
}

RUN_KEYS = frozenset({
    "args", "timeout_s", "rtol", "atol", "int_atol", "int_rtol", "expected_exit_code",
    "stdin", "ignore_lines", "output_files", "runs",
})  # fmt: skip
TASK_KEYS = frozenset({"name", "domain", "description", "features", "libraries", "run"})
# Optional: `[port] hip_version = "5.5"`: the HIP version the task is ported for (default 5.2, the
# engines' default), for tasks whose CUDA library has an AMD counterpart only from a later ROCm
# (rocWMMA on gfx11: 5.5).
OPTIONAL_TASK_KEYS = frozenset({"port"})
PORT_KEYS = frozenset({"hip_version"})
LINES = (70, 330)  # a task's main.cu has roughly 80-300 lines; outside this it is reported
