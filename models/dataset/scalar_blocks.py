"""The grammar's scalar blocks: they read the program's final array and reduce it to a few
numbers that the host checks and the program prints (shared-memory, warp-shuffle and
cooperative-groups reductions, atomic histograms, warp votes, atomic min/max). See blocks.py.
"""

from __future__ import annotations

import random

from cass.models.dataset.blocks import Block, fill

# ---------------------------------------------------------------- scalar blocks (read the final array)

ACC = {"float": "double", "double": "double", "int": "long long", "unsigned": "unsigned long long"}
PRINT = {
    "double": ("%.6e", "double"),
    "long long": ("%lld", "long long"),
    "unsigned long long": ("%llu", "unsigned long long"),
}

REDUCE_TREE = """
__global__ void $K(const $T* __restrict__ in, $A* __restrict__ partial, int n) {
    __shared__ $A s[$B];
    $A acc = 0;
    for (int i = blockIdx.x * $B + threadIdx.x; i < n; i += gridDim.x * $B) acc += ($A)$LIFT;
    s[threadIdx.x] = acc;
    __syncthreads();
    for (int stride = $B / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) partial[blockIdx.x] = s[0];
}
"""
REDUCE_WARP = """
__global__ void $K(const $T* __restrict__ in, $A* __restrict__ partial, int n) {
    __shared__ $A warp_sums[$B / 32];
    $A acc = 0;
    for (int i = blockIdx.x * $B + threadIdx.x; i < n; i += gridDim.x * $B) acc += ($A)$LIFT;
    for (int offset = 16; offset > 0; offset >>= 1) acc += __shfl_down_sync(0xffffffffu, acc, offset);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = acc;
    __syncthreads();
    if (threadIdx.x == 0) {
        $A total = 0;
        for (int w = 0; w < $B / 32; ++w) total += warp_sums[w];
        partial[blockIdx.x] = total;
    }
}
"""
REDUCE_CG = """
__global__ void $K(const $T* __restrict__ in, $A* __restrict__ partial, int n) {
    namespace cg = cooperative_groups;
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    __shared__ $A tile_sums[$B / 32];
    $A acc = 0;
    for (int i = blockIdx.x * $B + threadIdx.x; i < n; i += gridDim.x * $B) acc += ($A)$LIFT;
    for (int offset = tile.size() / 2; offset > 0; offset >>= 1) acc += tile.shfl_down(acc, offset);
    if (tile.thread_rank() == 0) tile_sums[threadIdx.x / 32] = acc;
    block.sync();
    if (block.thread_rank() == 0) {
        $A total = 0;
        for (int w = 0; w < $B / 32; ++w) total += tile_sums[w];
        partial[blockIdx.x] = total;
    }
}
"""
REDUCE_HOST = """const int blocks = $GRID;
$A* d_partial;
CHECK(cudaMalloc(&d_partial, blocks * sizeof($A)));
$K<<<blocks, $B>>>($IN, d_partial, N);
CHECK(cudaGetLastError());
std::vector<$A> partial(blocks);
CHECK(cudaMemcpy(partial.data(), d_partial, blocks * sizeof($A), cudaMemcpyDeviceToHost));
CHECK(cudaFree(d_partial));
$A got = 0, want = 0;
for (int b = 0; b < blocks; ++b) got += partial[b];
for (int i = 0; i < N; ++i) { const $T x = $RIN[i]; want += ($A)$HLIFT; }
ok = ok && agree((double)got, (double)want);
printf("$LABEL $FMT\\n", ($P)got);"""

LIFTS = {"sum": "in[i]", "sum_abs": "fabs((double)in[i])", "sum_sq": "($A)in[i] * in[i]"}


def reduce_block(r: random.Random, k: str, t: str, kind: str) -> Block:
    acc = ACC[t]
    lifts = (
        ["sum"]
        if t == "unsigned"
        else (["sum", "sum_sq"] if t == "int" else ["sum", "sum_abs", "sum_sq"])
    )
    lift_name = r.choice(lifts)
    lift = fill(LIFTS[lift_name], A=acc)
    template = {"reduce": REDUCE_TREE, "warp_reduce": REDUCE_WARP, "cg_reduce": REDUCE_CG}[kind]
    device = fill(template, K=k, T=t, A=acc, B="$B", LIFT=lift)
    fmt, cast = PRINT[acc]
    host = fill(
        REDUCE_HOST,
        K=k,
        T=t,
        A=acc,
        B="$B",
        IN="$IN",
        RIN="$RIN",
        GRID=r.choice((4, 8, 16, 32)),
        HLIFT=lift.replace("in[i]", "x"),
        LABEL=f"{k}_{lift_name}",
        FMT=fmt,
        P=cast,
    )
    features = {
        "reduce": ("shared_memory",),
        "warp_reduce": ("warp_shuffle", "shared_memory"),
        "cg_reduce": ("cooperative_groups", "shared_memory"),
    }[kind]
    return Block(kind, device, "", host, features)


HISTOGRAM = """
__global__ void $K(const $T* __restrict__ in, int n, unsigned int* __restrict__ hist) {
$PRIV_DECL    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        const int bin = (int)(((unsigned)in[i]) % $BINS);
        atomicAdd(&$TARGET[bin], 1u);
    }
$PRIV_FLUSH}
"""
PRIV_DECL = """    __shared__ unsigned int local[$BINS];
    for (int b = threadIdx.x; b < $BINS; b += blockDim.x) local[b] = 0;
    __syncthreads();
"""
PRIV_FLUSH = """    __syncthreads();
    for (int b = threadIdx.x; b < $BINS; b += blockDim.x)
        if (local[b]) atomicAdd(&hist[b], local[b]);
"""
HISTOGRAM_HOST = """unsigned int* d_hist;
CHECK(cudaMalloc(&d_hist, $BINS * sizeof(unsigned int)));
CHECK(cudaMemset(d_hist, 0, $BINS * sizeof(unsigned int)));
$K<<<$GRID, $B>>>($IN, N, d_hist);
CHECK(cudaGetLastError());
std::vector<unsigned int> hist($BINS), want($BINS, 0);
CHECK(cudaMemcpy(hist.data(), d_hist, $BINS * sizeof(unsigned int), cudaMemcpyDeviceToHost));
CHECK(cudaFree(d_hist));
for (int i = 0; i < N; ++i) want[((unsigned)$RIN[i]) % $BINS]++;
ok = ok && hist == want;
unsigned long long weighted = 0;
int busiest = 0;
for (int b = 0; b < $BINS; ++b) {
    weighted += (unsigned long long)hist[b] * (b + 1);
    if (hist[b] > hist[busiest]) busiest = b;
}
printf("${K} bins $BINS weighted %llu busiest %d count %u\\n", weighted, busiest, hist[busiest]);"""


def histogram_block(r: random.Random, k: str, t: str) -> Block:
    bins = r.choice((16, 32, 64, 100, 128, 256))
    private = r.random() < 0.5
    device = fill(
        HISTOGRAM,
        K=k,
        T=t,
        BINS=bins,
        TARGET="local" if private else "hist",
        PRIV_DECL=fill(PRIV_DECL, BINS=bins) if private else "",
        PRIV_FLUSH=fill(PRIV_FLUSH, BINS=bins) if private else "",
    )
    host = fill(
        HISTOGRAM_HOST, K=k, BINS=bins, GRID=r.choice((8, 16, 32)), B="$B", IN="$IN", RIN="$RIN"
    )
    return Block(
        "histogram", device, "", host, ("atomics_int",) + (("shared_memory",) if private else ())
    )


VOTE = """
__global__ void $K(const $T* __restrict__ in, int n, unsigned int* __restrict__ count) {
    for (int base = blockIdx.x * blockDim.x; base < n; base += gridDim.x * blockDim.x) {
        const int i = base + threadIdx.x;
        const bool hit = i < n && ($PRED);
        const unsigned int votes = __ballot_sync(0xffffffffu, hit);
        if (threadIdx.x % 32 == 0) atomicAdd(count, (unsigned int)__popc(votes));
    }
}
"""
VOTE_HOST = """unsigned int* d_count;
CHECK(cudaMalloc(&d_count, sizeof(unsigned int)));
CHECK(cudaMemset(d_count, 0, sizeof(unsigned int)));
$K<<<$GRID, $B>>>($IN, N, d_count);
CHECK(cudaGetLastError());
unsigned int got = 0, want = 0;
CHECK(cudaMemcpy(&got, d_count, sizeof(unsigned int), cudaMemcpyDeviceToHost));
CHECK(cudaFree(d_count));
for (int i = 0; i < N; ++i) { const $T x = $RIN[i]; want += ($HPRED) ? 1u : 0u; }
ok = ok && got == want;
printf("${K} matches %u of %d\\n", got, N);"""


def vote_block(r: random.Random, k: str, t: str) -> Block:
    pred = r.choice(("x % 2 == 0", "x % 3 == 1", "(x & 4) != 0", "x % 7 < 3"))
    device = fill(VOTE, K=k, T=t, PRED=pred.replace("x", "in[i]"))
    host = fill(
        VOTE_HOST, K=k, T=t, GRID=r.choice((8, 16, 32)), B="$B", IN="$IN", RIN="$RIN", HPRED=pred
    )
    return Block("vote", device, "", host, ("warp_vote", "atomics_int", "bit_manipulation"))


MINMAX = """
__global__ void $K(const $T* __restrict__ in, int n, $T* __restrict__ lo, $T* __restrict__ hi) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        atomicMin(lo, in[i]);
        atomicMax(hi, in[i]);
    }
}
"""
MINMAX_HOST = """$T *d_lo, *d_hi;
const $T start_lo = std::numeric_limits<$T>::max(), start_hi = std::numeric_limits<$T>::min();
CHECK(cudaMalloc(&d_lo, sizeof($T)));
CHECK(cudaMalloc(&d_hi, sizeof($T)));
CHECK(cudaMemcpy(d_lo, &start_lo, sizeof($T), cudaMemcpyHostToDevice));
CHECK(cudaMemcpy(d_hi, &start_hi, sizeof($T), cudaMemcpyHostToDevice));
$K<<<$GRID, $B>>>($IN, N, d_lo, d_hi);
CHECK(cudaGetLastError());
$T lo, hi;
CHECK(cudaMemcpy(&lo, d_lo, sizeof($T), cudaMemcpyDeviceToHost));
CHECK(cudaMemcpy(&hi, d_hi, sizeof($T), cudaMemcpyDeviceToHost));
CHECK(cudaFree(d_lo));
CHECK(cudaFree(d_hi));
const $T want_lo = *std::min_element($RIN.begin(), $RIN.end()), want_hi = *std::max_element($RIN.begin(), $RIN.end());
ok = ok && lo == want_lo && hi == want_hi;
printf("${K} min %lld max %lld\\n", (long long)lo, (long long)hi);"""


def minmax_block(r: random.Random, k: str, t: str) -> Block:
    host = fill(MINMAX_HOST, K=k, T=t, GRID=r.choice((8, 16, 32)), B="$B", IN="$IN", RIN="$RIN")
    return Block("minmax", fill(MINMAX, K=k, T=t), "", host, ("atomics_int",))
