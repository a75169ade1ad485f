"""The synthetic generator: compilable, self-checking CUDA programs across the benchmark's domains.

    programs = generate(2000, seed=1)        # deterministic: same (count, seed), same programs

Each program is drawn from a grammar (blocks.py): one to three array blocks chained on an
N-element array (element-wise maps with the domain's operations, 1-D and 2-D stencils, block
scans, tiled transposes, CSR gathers, iterated recurrences, block sorts), then one or two scalar
blocks on the result (shared-memory, warp-shuffle or cooperative-groups reductions, atomic
histograms, warp votes, atomic min/max). Element type, sizes, block size, constants, loop
shapes, the host random generator and the error-check style vary too. The host recomputes every
block; the program prints checksums and `CHECK PASS` (exit 0) or `CHECK FAIL` (exit 1).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from string import Template

from cass.models.dataset import blocks as B
from cass.models.dataset import scalar_blocks as S
from cass.models.dataset.domains import ALL_BLOCKS, DOMAINS, INTEGER_ONLY, SCALAR_BLOCKS

# Operations that grow without bound when iterated (the `iterate` block skips them).
EXPANSIVE = frozenset({"square", "kinetic", "horner", "squared_dev", "gap"})
WIDE = {"float": "double", "double": "double", "int": "long long", "unsigned": "unsigned"}
TOLERANCE = {"float": "1e-3", "double": "1e-9", "int": "0", "unsigned": "0"}

RNGS = {
    "lcg": """static uint32_t g_state = $SEED;
static uint32_t draw() {
    g_state = g_state * 1664525u + 1013904223u;
    return g_state;
}""",
    "xorshift": """static uint32_t g_state = $SEED;
static uint32_t draw() {
    g_state ^= g_state << 13;
    g_state ^= g_state >> 17;
    g_state ^= g_state << 5;
    return g_state;
}""",
    "splitmix": """static uint64_t g_state = $SEED;
static uint32_t draw() {
    uint64_t z = (g_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return (uint32_t)((z ^ (z >> 31)) >> 32);
}""",
}
CHECKS = (
    """#define CHECK(call)                                                            \\
    do {                                                                       \\
        cudaError_t status_ = (call);                                          \\
        if (status_ != cudaSuccess) {                                          \\
            fprintf(stderr, "CUDA error %s at line %d\\n", cudaGetErrorString(status_), __LINE__); \\
            exit(2);                                                           \\
        }                                                                      \\
    } while (0)""",
    """static void check_cuda(cudaError_t status, int line) {
    if (status == cudaSuccess) return;
    fprintf(stderr, "line %d: %s\\n", line, cudaGetErrorString(status));
    exit(2);
}
#define CHECK(call) check_cuda((call), __LINE__)""",
)
HEADER = """// $TITLE
// Synthetic program $IDENT (cass dataset generator, seed $SEED): $SUMMARY.
// cass: rtol = 1e-4 atol = 1e-6 timeout_s = 60
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <vector>
#include <cuda_runtime.h>
$CG
$CHECK

$RNG
static inline float uniform() { return (float)(draw() >> 8) * (1.0f / 16777216.0f); }

typedef $T value_t;
constexpr int N = $N;
constexpr double TOLERANCE = $TOL;

static bool agree(double got, double want) {
    if (got == want || (got != got && want != want)) return true;
    return fabs(got - want) <= TOLERANCE * (1.0 + fabs(want));
}
"""


@dataclass(frozen=True)
class SyntheticProgram:
    ident: str
    domain: str
    seed: int
    source: str
    blocks: tuple[str, ...]
    features: tuple[str, ...]
    value_type: str


def generate(count: int, seed: int = 0) -> list[SyntheticProgram]:
    """`count` programs, spread round-robin over the domains; program i depends only on (seed, i)."""
    names = sorted(DOMAINS)
    return [program(seed, i, names[i % len(names)]) for i in range(count)]


def program(seed: int, index: int, domain: str) -> SyntheticProgram:
    r = random.Random(f"cass-synth:{seed}:{index}")
    spec = DOMAINS[domain]
    t = r.choice(spec.types)
    kinds = _choose_blocks(r, spec.blocks, t)
    ops = _operations(r, domain, t)
    word = r.choice(spec.words)
    made = [_make(r, kind, f"{word}_{kind}_{n}", t, ops) for n, kind in enumerate(kinds)]
    ident = f"synth-{seed}-{index:05d}-{domain}"
    source = _render(r, ident, seed, domain, t, made, ops)
    features = sorted({f for b in made for f in b.features})
    return SyntheticProgram(ident, domain, seed, source, tuple(kinds), tuple(features), t)


def _choose_blocks(r: random.Random, preferred: tuple[str, ...], t: str) -> list[str]:
    integer = t in ("int", "unsigned")
    usable = [k for k in ALL_BLOCKS if integer or k not in INTEGER_ONLY]
    weights = [4 if k in preferred else 1 for k in usable]
    arrays = [k for k in usable if k not in SCALAR_BLOCKS]
    scalars = [k for k in usable if k in SCALAR_BLOCKS]
    pick = [
        r.choices(arrays, [weights[usable.index(k)] for k in arrays])[0]
        for _ in range(r.randint(1, 3))
    ]
    if pick.count("scan") > 1:  # one scan at most: integer sums stay in range
        pick = [k for i, k in enumerate(pick) if k != "scan" or i == pick.index("scan")]
    tail = r.sample(scalars, r.randint(1, 2), counts=[weights[usable.index(k)] for k in scalars])
    return pick + list(dict.fromkeys(tail))


def _operations(r: random.Random, domain: str, t: str) -> dict[str, str]:
    """The domain's element-wise operations for this type, as `__host__ __device__` functions."""
    spec = DOMAINS[domain]
    table = dict(spec.float_ops) if t in ("float", "double") else dict(spec.int_ops)
    if t == "unsigned":
        table.update(B_UNSIGNED)
    wide = WIDE[t]
    if t in ("float", "double"):
        c1, c2 = (
            B.lit(round(r.uniform(0.3, 0.95), 3), "double"),
            B.lit(round(r.uniform(0.0, 1.0), 3), "double"),
        )
    else:
        c1, c2 = str(r.randint(2, 20)), str(r.randint(1, 100))
    out = {}
    for name, expr in table.items():
        body = expr.replace("C1", f"({c1})").replace("C2", f"({c2})")
        out[name] = (f"__host__ __device__ inline {t} {domain}_{name}({t} x_) {{\n"
                     f"    const {wide} x = x_;\n    return ({t})({body});\n}}")  # fmt: skip
    return out


B_UNSIGNED = {
    "xorshift": "x ^ (x << 13) ^ (x >> 7)",
    "rotl": "(x << (C1 % 31 + 1)) | (x >> (31 - C1 % 31))",
}


def _make(r: random.Random, kind: str, k: str, t: str, ops: dict[str, str]) -> B.Block:
    if kind in ("map", "iterate"):
        names = [n for n in sorted(ops) if kind == "map" or n not in EXPANSIVE] or sorted(ops)
        op = ops_name(r.choice(names), ops)
        return B.map_block(r, k, t, op) if kind == "map" else B.iterate_block(r, k, t, op)
    if kind in ("reduce", "warp_reduce", "cg_reduce"):
        return S.reduce_block(r, k, t, kind)
    maker = {"stencil1d": B.stencil1d_block, "stencil2d": B.stencil2d_block, "scan": B.scan_block,
             "transpose": B.transpose_block, "csr": B.csr_block, "sort": B.sort_block,
             "histogram": S.histogram_block, "vote": S.vote_block, "minmax": S.minmax_block}[kind]  # fmt: skip
    return maker(r, k, t)


def ops_name(name: str, ops: dict[str, str]) -> str:
    """The C++ function name of operation `name` (its definition is the first line's last word)."""
    return ops[name].split("(", 1)[0].split()[-1]


INPUTS = {
    "float": ("(value_t)({LO} + {SPAN} * uniform())", [(0.0, 1.0), (0.1, 1.9), (-1.0, 2.0)]),
    "double": (
        "(value_t)({LO} + {SPAN} * (double)uniform())",
        [(0.0, 1.0), (0.5, 2.0), (-1.0, 2.0)],
    ),
}


def _input_expr(r: random.Random, domain: str, t: str) -> str:
    if t in INPUTS:
        template, ranges = INPUTS[t]
        lo, hi = r.choice(ranges)
        return template.format(LO=B.lit(lo, "double"), SPAN=B.lit(hi - lo, "double"))
    if domain == "string_processing":
        return "(value_t)(32 + draw() % 95)"
    if t == "unsigned":
        return "(value_t)draw()"
    return f"(value_t)(draw() % {r.choice((128, 256, 1000))})"


def _render(
    r: random.Random,
    ident: str,
    seed: int,
    domain: str,
    t: str,
    made: list[B.Block],
    ops: dict[str, str],
) -> str:
    """Size: one straight-line assembly of the program text, top to bottom as the file reads."""
    block_size = r.choice((64, 128, 256))
    n = r.choice((1024, 2048, 4096))
    arrays = [b for b in made if b.launch]
    scalars = [b for b in made if not b.launch]
    used = sorted({b.extra["OP"] for b in made if "OP" in b.extra})
    op_code = "\n\n".join(text for name, text in sorted(ops.items()) if ops_name(name, ops) in used)
    header = Template(HEADER).substitute(
        TITLE=f"{DOMAINS_TITLE.get(domain, domain)}: " + ", ".join(b.kind for b in made),
        IDENT=ident, SEED=seed, SUMMARY=f"{len(made)} kernels over {n} {t} values",
        CG="#include <cooperative_groups.h>" if any(b.kind == "cg_reduce" for b in made) else "",
        CHECK=r.choice(CHECKS), RNG=Template(RNGS[r.choice(sorted(RNGS))]).substitute(SEED=r.randint(1, 2**31 - 1)),
        T=t, N=n, TOL=TOLERANCE[t])  # fmt: skip
    device = "\n".join(_subst(b.device, b, block_size, "", "") for b in made)
    lines = [
        "    std::vector<value_t> h0(N);",
        f"    for (auto& v : h0) v = {_input_expr(r, domain, t)};",
    ]
    names = ", ".join(f"*d{i}" for i in range(len(arrays) + 1))
    lines += [f"    value_t {names};"]
    lines += [f"    CHECK(cudaMalloc(&d{i}, N * sizeof(value_t)));" for i in range(len(arrays) + 1)]
    lines += ["    CHECK(cudaMemcpy(d0, h0.data(), N * sizeof(value_t), cudaMemcpyHostToDevice));"]
    for b in arrays:
        lines += _indent(_subst(b.setup, b, block_size, "", ""))
    for i, b in enumerate(arrays):
        lines += _indent(_subst(b.launch, b, block_size, f"d{i}", f"d{i + 1}"))
        lines += ["    CHECK(cudaGetLastError());"]
    last = len(arrays)
    lines += ["    std::vector<value_t> result(N);",
              f"    CHECK(cudaMemcpy(result.data(), d{last}, N * sizeof(value_t), cudaMemcpyDeviceToHost));",
              "    bool ok = true;", "    std::vector<value_t> r0 = h0;"]  # fmt: skip
    for i, b in enumerate(arrays):
        lines += [f"    std::vector<value_t> r{i + 1}(N);", "    {"]
        lines += _indent(
            _subst(b.reference, b, block_size, f"d{i}", f"d{i + 1}", f"r{i}", f"r{i + 1}"), 8
        )
        lines += ["    }"]
    lines += ["    int bad = 0;",
              f"    for (int i = 0; i < N; ++i) bad += agree((double)result[i], (double)r{last}[i]) ? 0 : 1;",
              "    ok = ok && bad == 0;"]  # fmt: skip
    for b in scalars:
        lines += (
            ["    {"]
            + _indent(_subst(b.reference, b, block_size, f"d{last}", "", f"r{last}", ""), 8)
            + ["    }"]
        )
    lines += _checksum(t, last)
    lines += [f"    CHECK(cudaFree(d{i}));" for i in range(len(arrays) + 1)]
    lines += ['    printf(ok ? "CHECK PASS\\n" : "CHECK FAIL\\n");', "    return ok ? 0 : 1;"]
    main = "int main() {\n" + "\n".join(lines) + "\n}\n"
    return header + "\n" + op_code + "\n" + device + "\n" + main


def _checksum(t: str, last: int) -> list[str]:
    if t in ("float", "double"):
        return ["    double checksum = 0.0;",
                "    for (int i = 0; i < N; ++i) checksum += fabs((double)result[i]) * (1 + i % 7);",
                '    printf("result checksum %.6e first %.6e middle %.6e last %.6e mismatches %d\\n", checksum,',
                "           (double)result[0], (double)result[N / 2], (double)result[N - 1], bad);"]  # fmt: skip
    return ["    unsigned long long checksum = 0;",
            "    for (int i = 0; i < N; ++i) checksum = checksum * 31ull + (unsigned long long)(long long)result[i];",
            '    printf("result checksum %llu first %lld middle %lld last %lld mismatches %d\\n", checksum,',
            "           (long long)result[0], (long long)result[N / 2], (long long)result[N - 1], bad);"]  # fmt: skip


def _subst(
    text: str, b: B.Block, block_size: int, din: str, dout: str, rin: str = "", rout: str = ""
) -> str:
    kernel = (
        b.device.split("__global__ void ", 1)[1].split("(", 1)[0]
        if "__global__" in b.device
        else ""
    )
    values = dict(
        K=kernel,
        B=block_size,
        IN=din,
        OUT=dout,
        RIN=rin,
        ROUT=rout,
        T="value_t",
        OP=b.extra.get("OP", ""),
    )
    return Template(text).safe_substitute(values)


def _indent(text: str, spaces: int = 4) -> list[str]:
    return [(" " * spaces + line) if line else "" for line in text.splitlines()]


DOMAINS_TITLE = {
    "crypto_hashing": "Cryptography and hashing", "data_structures": "Data structures",
    "dynamic_programming": "Dynamic programming", "finance": "Finance", "geometry_graphics": "Geometry and graphics",
    "graph": "Graph algorithms", "image_processing": "Image processing", "linear_algebra": "Linear algebra",
    "memory_operations": "Memory operations", "ml_operators": "Machine-learning operators", "monte_carlo": "Monte Carlo",
    "numerical_methods": "Numerical methods", "physics_simulation": "Physics simulation",
    "reduction_scan": "Reduction and scan", "signal_processing": "Signal processing", "sorting": "Sorting",
    "sparse_linear_algebra": "Sparse linear algebra", "statistics": "Statistics", "string_processing": "String processing",
}  # fmt: skip
