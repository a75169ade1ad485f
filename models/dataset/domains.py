"""The synthetic generator's domain vocabulary: for each of the benchmark's domains, the words its
kernels are named with, the element-wise operations it computes (float and integer forms) and the
building blocks it prefers.

An operation is C++ over `x` (the element) that compiles for host and device alike; the float
forms must be well conditioned (no chaotic maps), so a last-ulp difference between GPUs stays a
last-ulp difference in the printed checksums. Integer forms keep values bounded (`int`) or wrap
(`unsigned`, defined behaviour). `C1`, `C2` are per-program constants.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Domain:
    words: tuple[str, ...]
    float_ops: dict[str, str]
    int_ops: dict[str, str]
    blocks: tuple[str, ...]  # preferred building blocks (drawn more often)
    types: tuple[str, ...] = ("float", "double", "int", "unsigned")


_INT_COMMON = {
    "affine_mod": "(x * C1 + C2) % 9973",
    "clamp_high": "x > C1 * 7 ? C1 * 7 : x",
}
_UINT_COMMON = {
    "xorshift": "x ^ (x << 13) ^ (x >> 7)",
    "rotl": "(x << (C1 % 31 + 1)) | (x >> (31 - C1 % 31))",
    "fnv_step": "(x ^ C2) * 16777619u",
}

DOMAINS: dict[str, Domain] = {
    "linear_algebra": Domain(
        ("axpy", "matvec", "norm", "gemv", "dot"),
        {"scale_shift": "x * C1 + C2", "square": "x * x", "reciprocal": "C1 / (fabs(x) + 1)"},
        _INT_COMMON,
        ("transpose", "reduce", "map", "csr"),
    ),
    "reduction_scan": Domain(
        ("prefix", "partial", "total", "accum"),
        {"identity_scale": "x * C1", "abs_shift": "fabs(x - C2)"},
        _INT_COMMON,
        ("scan", "reduce", "warp_reduce", "cg_reduce"),
    ),
    "sorting": Domain(
        ("rank", "order", "bucket", "keys"),
        {"key_scale": "x * C1 - C2", "fold": "x < C2 ? C2 - x : x - C2"},
        _INT_COMMON,
        ("sort", "scan", "histogram", "minmax"),
        ("float", "int", "unsigned"),
    ),
    "graph": Domain(
        ("frontier", "degree", "neighbor", "edge", "vertex"),
        {"damping": "C1 * x + (1 - C1) * C2", "inverse_degree": "1 / (1 + fabs(x))"},
        {"level_cap": "x % 64", **_INT_COMMON},
        ("csr", "histogram", "vote", "minmax"),
    ),
    "image_processing": Domain(
        ("pixel", "blur", "sobel", "gamma", "tone"),
        {
            "gamma": "pow(fabs(x), C1)",
            "contrast": "(x - C2) * C1 + C2",
            "clamp01": "x < 0 ? 0 : (x > 1 ? 1 : x)",
        },
        {"threshold": "x > C1 * 3 ? 255 : 0", "invert": "255 - x % 256"},
        ("stencil2d", "map", "histogram", "transpose"),
    ),
    "signal_processing": Domain(
        ("fir", "window", "sample", "filter", "tap"),
        {
            "hann": "x * (0.5 - 0.5 * cos(6.2831853 * x))",
            "decibel": "10 * log10(1 + x * x)",
            "gain": "x * C1",
        },
        _INT_COMMON,
        ("stencil1d", "map", "scan", "reduce"),
    ),
    "physics_simulation": Domain(
        ("particle", "spring", "force", "velocity", "energy"),
        {"spring": "-C1 * (x - C2)", "kinetic": "0.5 * C1 * x * x", "damped": "x * exp(-C1)"},
        _INT_COMMON,
        ("iterate", "stencil1d", "reduce", "map"),
        ("float", "double"),
    ),
    "ml_operators": Domain(
        ("relu", "sigmoid", "gelu", "softplus", "activation"),
        {
            "relu": "x > 0 ? x : 0",
            "sigmoid": "1 / (1 + exp(-fabs(x)))",
            "gelu_tanh": "0.5 * x * (1 + tanh(0.7978846 * (x + 0.044715 * x * x * x)))",
            "softplus": "x > 20 ? x : log(1 + exp(x))",
        },
        {"relu_int": "x > C1 ? x - C1 : 0"},
        ("map", "reduce", "warp_reduce", "stencil1d"),
    ),
    "crypto_hashing": Domain(
        ("hash", "mix", "round", "digest", "cipher"),
        {},
        _UINT_COMMON,
        ("iterate", "map", "histogram", "vote"),
        ("unsigned",),
    ),
    "monte_carlo": Domain(
        ("sample", "path", "trial", "walk", "estimate"),
        {
            "exp_sample": "-log(1 - 0.999 * (x - floor(x))) * C1",
            "box": "sqrt(-2 * log(0.001 + 0.998 * (x - floor(x))))",
        },
        {"lcg": "(x * 1103515245u + 12345u) % 65536"},
        ("iterate", "reduce", "vote", "map"),
    ),
    "sparse_linear_algebra": Domain(
        ("spmv", "csr", "nnz", "row", "sparse"),
        {"jacobi_scale": "x / (C1 + 1)", "shift": "x + C2"},
        _INT_COMMON,
        ("csr", "reduce", "map", "scan"),
    ),
    "data_structures": Domain(
        ("bucket", "slot", "queue", "table", "bitmap"),
        {"hash_float": "x * C1 - floor(x * C1)"},
        {"bucket": "(x * 2654435761u) % 1024", **_INT_COMMON},
        ("histogram", "vote", "sort", "minmax"),
        ("int", "unsigned", "float"),
    ),
    "numerical_methods": Domain(
        ("newton", "jacobi", "horner", "residual", "solver"),
        {
            "horner": "((C1 * x + C2) * x + 1) * x",
            "newton_sqrt": "0.5 * (x + (fabs(x) + C2) / (fabs(x) + 1))",
            "smooth": "x / (1 + x * x)",
        },
        _INT_COMMON,
        ("iterate", "stencil1d", "reduce", "stencil2d"),
        ("float", "double"),
    ),
    "statistics": Domain(
        ("moment", "mean", "variance", "quantile", "zscore"),
        {
            "centered": "x - C2",
            "squared_dev": "(x - C2) * (x - C2)",
            "logistic": "1 / (1 + exp(-(x - C2) * C1))",
        },
        _INT_COMMON,
        ("reduce", "histogram", "warp_reduce", "minmax"),
    ),
    "string_processing": Domain(
        ("char", "token", "text", "match", "upper"),
        {},
        {
            "to_upper": "(x >= 97 && x <= 122) ? x - 32 : x",
            "caesar": "(x - 32 + C1) % 95 + 32",
            "is_vowel": "(x == 97 || x == 101 || x == 105 || x == 111 || x == 117) ? 1 : 0",
        },
        ("map", "histogram", "vote", "scan"),
        ("int",),
    ),
    "geometry_graphics": Domain(
        ("vertex", "ray", "rotate", "distance", "shade"),
        {
            "rotate": "x * cos(C1) + C2 * sin(C1)",
            "distance": "sqrt(x * x + C2 * C2)",
            "shade": "x * C1 / (1 + fabs(x))",
        },
        _INT_COMMON,
        ("map", "stencil2d", "transpose", "minmax"),
    ),
    "dynamic_programming": Domain(
        ("cost", "path", "table", "cell", "score"),
        {"penalty": "x + C1", "relax": "x < C2 ? x : C2"},
        {"gap": "x + C1 % 5", "cap": "x > 500 ? 500 : x"},
        ("scan", "stencil1d", "minmax", "iterate"),
    ),
    "finance": Domain(
        ("option", "price", "payoff", "discount", "portfolio"),
        {
            "discount": "x * exp(-C1 * 0.05)",
            "call_payoff": "x > C2 ? x - C2 : 0",
            "log_return": "log(1 + fabs(x))",
        },
        _INT_COMMON,
        ("map", "reduce", "iterate", "scan"),
        ("float", "double"),
    ),
    "memory_operations": Domain(
        ("copy", "gather", "stride", "pack", "buffer"),
        {"copy_scale": "x * C1"},
        {"mask": "x & 1023", **_INT_COMMON},
        ("transpose", "csr", "map", "sort"),
    ),
}

# Every building block the generator knows (synth.py draws the rest from here).
ALL_BLOCKS = ("map", "stencil1d", "stencil2d", "scan", "transpose", "csr", "iterate", "sort",
              "reduce", "warp_reduce", "cg_reduce", "histogram", "vote", "minmax")  # fmt: skip
SCALAR_BLOCKS = frozenset({"reduce", "warp_reduce", "cg_reduce", "histogram", "vote", "minmax"})
INTEGER_ONLY = frozenset({"histogram", "vote", "minmax"})
