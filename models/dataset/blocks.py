"""The synthetic generator's grammar: kernel building blocks, each a kernel, its launch and the
host code that recomputes its result (the program's self-check).

An array block maps the N-element array `$IN` (device) / `$RIN` (host reference) to `$OUT` /
`$ROUT`; a scalar block reduces the final array to a few numbers that it checks against the host
and prints. Every block's host code runs inside its own `{ }` scope of `main`. Placeholders are
`string.Template` names; a block is chosen and parameterised by synth.py from a seeded RNG.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from string import Template


@dataclass
class Block:
    kind: str
    device: str  # kernels and helpers (file scope)
    launch: str  # host code that launches it (array blocks), in main
    reference: str  # host code: reference and comparison
    features: tuple[str, ...] = ()
    setup: str = ""  # host code before the launches (extra inputs)
    extra: dict[str, str] = field(default_factory=dict)


def lit(value: float, t: str) -> str:
    """A C++ literal of type `t`."""
    if t in ("int", "unsigned"):
        return f"{int(value)}{'u' if t == 'unsigned' else ''}"
    text = repr(float(value))
    return text + ("f" if t == "float" else "")


def fill(template: str, **values: object) -> str:
    return Template(template).substitute({k: str(v) for k, v in values.items()})


# ---------------------------------------------------------------- array blocks

MAP = """
__global__ void $K(const $T* __restrict__ in, $T* __restrict__ out, int n) {
$LOOP
        out[i] = $OP(in[i]);
}
"""
LOOPS = {
    "grid_stride": "    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)",
    "guarded": "    const int i = blockIdx.x * blockDim.x + threadIdx.x;\n    if (i < n)",
}


def map_block(r: random.Random, k: str, t: str, op: str) -> Block:
    loop = r.choice(sorted(LOOPS))
    grid = str(r.choice((8, 16, 32))) if loop == "grid_stride" else "(N + $B - 1) / $B"
    device = fill(MAP, K=k, T=t, OP=op, LOOP=LOOPS[loop])
    launch = f"$K<<<{grid}, $B>>>($IN, $OUT, N);"
    reference = "for (int i = 0; i < N; ++i) $ROUT[i] = $OP($RIN[i]);"
    return Block("map", device, launch, reference, extra={"OP": op})


STENCIL_GLOBAL = """
__constant__ $T ${K}_w[2 * $R + 1] = {$WEIGHTS};
__global__ void $K(const $T* __restrict__ in, $T* __restrict__ out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    $T acc = 0;
    for (int k = -$R; k <= $R; ++k) {
        const int j = min(max(i + k, 0), n - 1);
        acc += ${K}_w[k + $R] * in[j];
    }
    out[i] = acc;
}
"""
STENCIL_SHARED = """
__constant__ $T ${K}_w[2 * $R + 1] = {$WEIGHTS};
__global__ void $K(const $T* __restrict__ in, $T* __restrict__ out, int n) {
    __shared__ $T tile[$B + 2 * $R];
    const int i = blockIdx.x * $B + threadIdx.x;
    tile[threadIdx.x] = in[min(max(i - $R, 0), n - 1)];
    if (threadIdx.x < 2 * $R) tile[threadIdx.x + $B] = in[min(max(i - $R + $B, 0), n - 1)];
    __syncthreads();
    $T acc = 0;
    for (int k = 0; k <= 2 * $R; ++k) acc += ${K}_w[k] * tile[threadIdx.x + k];
    if (i < n) out[i] = acc;
}
"""
STENCIL_REF = """static const $T ${K}_wh[2 * $R + 1] = {$WEIGHTS};
for (int i = 0; i < N; ++i) {
    $T acc = 0;
    for (int k = -$R; k <= $R; ++k) acc += ${K}_wh[k + $R] * $RIN[std::min(std::max(i + k, 0), N - 1)];
    $ROUT[i] = acc;
}"""


def weights(r: random.Random, t: str, count: int) -> str:
    if t in ("int", "unsigned"):
        return ", ".join(lit(r.randint(0, 2), t) for _ in range(count))
    raw = [r.uniform(0.05, 1.0) for _ in range(count)]
    return ", ".join(lit(round(w / sum(raw), 4), t) for w in raw)


def stencil1d_block(r: random.Random, k: str, t: str) -> Block:
    radius = r.randint(1, 3)
    shared = r.random() < 0.5
    values = dict(K=k, T=t, R=radius, WEIGHTS=weights(r, t, 2 * radius + 1))
    device = fill(STENCIL_SHARED if shared else STENCIL_GLOBAL, B="$B", **values)
    reference = fill(STENCIL_REF, RIN="$RIN", ROUT="$ROUT", **values)
    features = ("constant_memory", "shared_memory") if shared else ("constant_memory",)
    return Block("stencil1d", device, "$K<<<N / $B, $B>>>($IN, $OUT, N);", reference, features)


STENCIL2D = """
__global__ void $K(const $T* __restrict__ in, $T* __restrict__ out, int width, int height) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= width || y >= height) return;
    const int xl = max(x - 1, 0), xr = min(x + 1, width - 1), yu = max(y - 1, 0), yd = min(y + 1, height - 1);
    out[y * width + x] = $CENTER * in[y * width + x] + $SIDE * (in[y * width + xl] + in[y * width + xr] + in[yu * width + x] + in[yd * width + x])$DIAG;
}
"""
DIAG = " + $CORNER * (in[yu * width + xl] + in[yu * width + xr] + in[yd * width + xl] + in[yd * width + xr])"
STENCIL2D_REF = """const int width = $W, height = N / $W;
for (int y = 0; y < height; ++y)
    for (int x = 0; x < width; ++x) {
        const int xl = std::max(x - 1, 0), xr = std::min(x + 1, width - 1), yu = std::max(y - 1, 0), yd = std::min(y + 1, height - 1);
        const $T* in = $RIN.data();
        $ROUT[y * width + x] = $CENTER * in[y * width + x] + $SIDE * (in[y * width + xl] + in[y * width + xr] + in[yu * width + x] + in[yd * width + x])$DIAG;
    }"""


def stencil2d_block(r: random.Random, k: str, t: str) -> Block:
    integer = t in ("int", "unsigned")
    center, side, corner = (
        (r.randint(1, 3), 1, r.randint(0, 1))
        if integer
        else (
            round(r.uniform(0.2, 0.6), 3),
            round(r.uniform(0.05, 0.15), 3),
            round(r.uniform(0.0, 0.05), 3),
        )
    )
    diag = fill(DIAG, CORNER=lit(corner, t)) if r.random() < 0.5 else ""
    width = r.choice((32, 64, 128))
    bx, by = r.choice(((16, 16), (32, 8), (8, 32), (32, 4)))
    values = dict(K=k, T=t, CENTER=lit(center, t), SIDE=lit(side, t), DIAG=diag)
    launch = (
        f"{{ dim3 block({bx}, {by}), grid(({width} + {bx - 1}) / {bx}, (N / {width} + {by - 1}) / {by});\n"
        f"  $K<<<grid, block>>>($IN, $OUT, {width}, N / {width}); }}"
    )
    reference = fill(STENCIL2D_REF, W=width, RIN="$RIN", ROUT="$ROUT", **values)
    return Block("stencil2d", fill(STENCIL2D, **values), launch, reference, ("grid_2d",))


SCAN = """
__global__ void $K(const $T* __restrict__ in, $T* __restrict__ out, int n) {
    __shared__ $T buf[$B];
    const int i = blockIdx.x * $B + threadIdx.x;
    buf[threadIdx.x] = i < n ? in[i] : 0;
    __syncthreads();
    for (int offset = 1; offset < $B; offset <<= 1) {
        const $T v = threadIdx.x >= offset ? buf[threadIdx.x - offset] : 0;
        __syncthreads();
        buf[threadIdx.x] += v;
        __syncthreads();
    }
    if (i < n) out[i] = buf[threadIdx.x];
}
"""
SCAN_REF = """for (int base = 0; base < N; base += $B) {
    $T run = 0;
    for (int i = base; i < base + $B; ++i) $ROUT[i] = run = run + $RIN[i];
}"""


def scan_block(r: random.Random, k: str, t: str) -> Block:
    return Block(
        "scan",
        fill(SCAN, K=k, T=t, B="$B"),
        "$K<<<N / $B, $B>>>($IN, $OUT, N);",
        SCAN_REF,
        ("shared_memory",),
    )


TRANSPOSE = """
constexpr int ${K}_TILE = $TILE;
__global__ void $K(const $T* __restrict__ in, $T* __restrict__ out, int rows, int cols) {
    __shared__ $T tile[${K}_TILE][${K}_TILE + 1];
    const int c = blockIdx.x * ${K}_TILE + threadIdx.x, r = blockIdx.y * ${K}_TILE + threadIdx.y;
    if (r < rows && c < cols) tile[threadIdx.y][threadIdx.x] = in[r * cols + c];
    __syncthreads();
    const int tc = blockIdx.y * ${K}_TILE + threadIdx.x, tr = blockIdx.x * ${K}_TILE + threadIdx.y;
    if (tr < cols && tc < rows) out[tr * rows + tc] = tile[threadIdx.x][threadIdx.y];
}
"""
TRANSPOSE_REF = """const int rows = N / $COLS, cols = $COLS;
for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c) $ROUT[c * rows + r] = $RIN[r * cols + c];"""


def transpose_block(r: random.Random, k: str, t: str) -> Block:
    tile, cols = r.choice((8, 16)), r.choice((32, 64, 128))
    launch = (
        f"{{ dim3 block({tile}, {tile}), grid(({cols} + {tile - 1}) / {tile}, (N / {cols} + {tile - 1}) / {tile});\n"
        f"  $K<<<grid, block>>>($IN, $OUT, N / {cols}, {cols}); }}"
    )
    return Block(
        "transpose",
        fill(TRANSPOSE, K=k, T=t, TILE=tile),
        launch,
        fill(TRANSPOSE_REF, COLS=cols, RIN="$RIN", ROUT="$ROUT"),
        ("shared_memory", "grid_2d"),
    )


CSR = """
__global__ void $K(const int* __restrict__ row_start, const int* __restrict__ cols, const $T* __restrict__ vals,
                   const $T* __restrict__ in, $T* __restrict__ out, int n) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= n) return;
    $T acc = 0;
    for (int j = row_start[row]; j < row_start[row + 1]; ++j) acc += vals[j] * in[cols[j]];
    out[row] = acc;
}
"""
CSR_SETUP = """std::vector<int> ${K}_rows(N + 1), ${K}_cols;
std::vector<$T> ${K}_vals;
for (int i = 0; i < N; ++i) {
    ${K}_rows[i] = (int)${K}_cols.size();
    const int degree = 1 + (int)(draw() % $DEG);
    for (int d = 0; d < degree; ++d) {
        ${K}_cols.push_back((int)(draw() % N));
        ${K}_vals.push_back(($T)$VAL);
    }
}
${K}_rows[N] = (int)${K}_cols.size();
int *${K}_drows, *${K}_dcols;
$T* ${K}_dvals;
CHECK(cudaMalloc(&${K}_drows, (N + 1) * sizeof(int)));
CHECK(cudaMalloc(&${K}_dcols, ${K}_cols.size() * sizeof(int)));
CHECK(cudaMalloc(&${K}_dvals, ${K}_vals.size() * sizeof($T)));
CHECK(cudaMemcpy(${K}_drows, ${K}_rows.data(), (N + 1) * sizeof(int), cudaMemcpyHostToDevice));
CHECK(cudaMemcpy(${K}_dcols, ${K}_cols.data(), ${K}_cols.size() * sizeof(int), cudaMemcpyHostToDevice));
CHECK(cudaMemcpy(${K}_dvals, ${K}_vals.data(), ${K}_vals.size() * sizeof($T), cudaMemcpyHostToDevice));"""
CSR_REF = """for (int i = 0; i < N; ++i) {
    $T acc = 0;
    for (int j = ${K}_rows[i]; j < ${K}_rows[i + 1]; ++j) acc += ${K}_vals[j] * $RIN[${K}_cols[j]];
    $ROUT[i] = acc;
}"""


def csr_block(r: random.Random, k: str, t: str) -> Block:
    value = "1 + draw() % 3" if t in ("int", "unsigned") else "uniform() * 0.5"
    setup = fill(CSR_SETUP, K=k, T=t, DEG=r.randint(2, 6), VAL=value)
    launch = f"$K<<<(N + $B - 1) / $B, $B>>>({k}_drows, {k}_dcols, {k}_dvals, $IN, $OUT, N);"
    return Block(
        "csr",
        fill(CSR, K=k, T=t),
        launch,
        fill(CSR_REF, K=k, RIN="$RIN", ROUT="$ROUT", T=t),
        (),
        setup,
    )


ITERATE = """
__global__ void $K(const $T* __restrict__ in, $T* __restrict__ out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    $T v = in[i];
    for (int step = 0; step < $STEPS; ++step) v = $OP(v);
    out[i] = v;
}
"""


def iterate_block(r: random.Random, k: str, t: str, op: str) -> Block:
    steps = r.choice((3, 4, 6, 8))
    reference = f"for (int i = 0; i < N; ++i) {{ $T v = $RIN[i]; for (int s = 0; s < {steps}; ++s) v = {op}(v); $ROUT[i] = v; }}"
    return Block(
        "iterate",
        fill(ITERATE, K=k, T=t, OP=op, STEPS=steps),
        "$K<<<(N + $B - 1) / $B, $B>>>($IN, $OUT, N);",
        reference,
        extra={"OP": op},
    )


SORT = """
__global__ void $K(const $T* __restrict__ in, $T* __restrict__ out) {
    __shared__ $T s[$B];
    const int t = threadIdx.x, base = blockIdx.x * $B;
    s[t] = in[base + t];
    __syncthreads();
    for (int phase = 0; phase < $B; ++phase) {
        const int i = 2 * t + (phase & 1);
        if (t < $B / 2 && i + 1 < $B && s[i] > s[i + 1]) {
            const $T tmp = s[i];
            s[i] = s[i + 1];
            s[i + 1] = tmp;
        }
        __syncthreads();
    }
    out[base + t] = s[t];
}
"""
SORT_REF = """for (int base = 0; base < N; base += $B) {
    std::copy($RIN.begin() + base, $RIN.begin() + base + $B, $ROUT.begin() + base);
    std::sort($ROUT.begin() + base, $ROUT.begin() + base + $B);
}"""


def sort_block(r: random.Random, k: str, t: str) -> Block:
    return Block(
        "sort",
        fill(SORT, K=k, T=t, B="$B"),
        "$K<<<N / $B, $B>>>($IN, $OUT);",
        SORT_REF,
        ("shared_memory",),
    )
