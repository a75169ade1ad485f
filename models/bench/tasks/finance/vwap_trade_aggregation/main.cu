// Trade-tape aggregation: each trade (symbol, minute, price in cents, quantity) adds into per-(symbol,
// minute) bars with 64-bit integer atomics (volume, notional) and 32-bit atomicMin/atomicMax (low/high);
// per-symbol totals are staged in shared memory per block. All money is integer cents: exact and
// order-independent. Open/close come from the first/last trade by sequence number (atomicMin/Max).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                          \
    do {                                                                          \
        cudaError_t err_ = (call);                                                \
        if (err_ != cudaSuccess) {                                                \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                          \
            exit(2);                                                              \
        }                                                                         \
    } while (0)

// Deterministic input generator (LCG); never rand() or the clock.
static uint32_t g_seed = 12345u;
inline uint32_t next_u32() {
    g_seed = g_seed * 1664525u + 1013904223u;
    return g_seed;
}
inline float next_uniform() {  // uniform in [-1, 1)
    return (float)(next_u32() >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

constexpr int SYMBOLS = 64;
constexpr int MINUTES = 60;
constexpr int TRADES = 1 << 18;

struct Trade {
    int symbol, minute, price_cents, qty, seq;
};

struct Bar {
    unsigned long long volume, notional;
    int low, high, first_seq, last_seq;
};

__global__ void init_bars(Bar* bars) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < SYMBOLS * MINUTES) bars[i] = Bar{0ull, 0ull, 0x7fffffff, 0, 0x7fffffff, -1};
}

__global__ void aggregate(const Trade* trades, Bar* bars, unsigned long long* symbol_volume) {
    __shared__ unsigned long long local_volume[SYMBOLS];
    for (int s = threadIdx.x; s < SYMBOLS; s += blockDim.x) local_volume[s] = 0ull;
    __syncthreads();
    for (int t = blockIdx.x * blockDim.x + threadIdx.x; t < TRADES; t += gridDim.x * blockDim.x) {
        const Trade tr = trades[t];
        Bar* b = &bars[tr.symbol * MINUTES + tr.minute];
        atomicAdd(&b->volume, (unsigned long long)tr.qty);
        atomicAdd(&b->notional, (unsigned long long)tr.qty * (unsigned long long)tr.price_cents);
        atomicMin(&b->low, tr.price_cents);
        atomicMax(&b->high, tr.price_cents);
        atomicMin(&b->first_seq, tr.seq);
        atomicMax(&b->last_seq, tr.seq);
        atomicAdd(&local_volume[tr.symbol], (unsigned long long)tr.qty);
    }
    __syncthreads();
    for (int s = threadIdx.x; s < SYMBOLS; s += blockDim.x)
        if (local_volume[s]) atomicAdd(&symbol_volume[s], local_volume[s]);
}

int main() {
    g_seed = 1929u;
    std::vector<Trade> trades(TRADES);
    std::vector<int> mid(SYMBOLS);
    for (int s = 0; s < SYMBOLS; ++s) mid[s] = 1000 + (int)(next_u32() % 50000u);
    for (int t = 0; t < TRADES; ++t) {
        Trade& tr = trades[t];
        tr.symbol = (int)((next_u32() >> 8) % SYMBOLS);
        tr.minute = (int)((uint64_t)t * MINUTES / TRADES);  // tape is time-ordered
        mid[tr.symbol] += (int)(next_u32() % 21u) - 10;
        if (mid[tr.symbol] < 100) mid[tr.symbol] = 100;
        tr.price_cents = mid[tr.symbol];
        tr.qty = 1 + (int)(next_u32() % 500u);
        tr.seq = t;
    }
    Trade* d_trades;
    Bar* d_bars;
    unsigned long long* d_symvol;
    CUDA_CHECK(cudaMalloc(&d_trades, TRADES * sizeof(Trade)));
    CUDA_CHECK(cudaMalloc(&d_bars, SYMBOLS * MINUTES * sizeof(Bar)));
    CUDA_CHECK(cudaMalloc(&d_symvol, SYMBOLS * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(d_symvol, 0, SYMBOLS * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemcpy(d_trades, trades.data(), TRADES * sizeof(Trade), cudaMemcpyHostToDevice));
    init_bars<<<(SYMBOLS * MINUTES + 255) / 256, 256>>>(d_bars);
    CUDA_CHECK(cudaGetLastError());
    aggregate<<<128, 256>>>(d_trades, d_bars, d_symvol);
    CUDA_CHECK(cudaGetLastError());
    std::vector<Bar> bars(SYMBOLS * MINUTES);
    std::vector<unsigned long long> symvol(SYMBOLS);
    CUDA_CHECK(cudaMemcpy(bars.data(), d_bars, bars.size() * sizeof(Bar), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(symvol.data(), d_symvol, SYMBOLS * sizeof(unsigned long long), cudaMemcpyDeviceToHost));

    std::vector<Bar> ref(SYMBOLS * MINUTES, Bar{0ull, 0ull, 0x7fffffff, 0, 0x7fffffff, -1});
    std::vector<unsigned long long> rvol(SYMBOLS, 0ull);
    for (const Trade& tr : trades) {
        Bar& b = ref[tr.symbol * MINUTES + tr.minute];
        b.volume += tr.qty;
        b.notional += (unsigned long long)tr.qty * tr.price_cents;
        b.low = std::min(b.low, tr.price_cents);
        b.high = std::max(b.high, tr.price_cents);
        b.first_seq = std::min(b.first_seq, tr.seq);
        b.last_seq = std::max(b.last_seq, tr.seq);
        rvol[tr.symbol] += tr.qty;
    }
    bool ok = symvol == rvol;
    unsigned long long total_notional = 0;
    double vwap_sum = 0.0;
    long long range_sum = 0, open_close = 0;
    for (int i = 0; i < SYMBOLS * MINUTES; ++i) {
        const Bar &g = bars[i], &r = ref[i];
        if (g.volume != r.volume || g.notional != r.notional || g.low != r.low || g.high != r.high ||
            g.first_seq != r.first_seq || g.last_seq != r.last_seq)
            ok = false;
        if (g.volume) {
            vwap_sum += (double)g.notional / (double)g.volume;
            range_sum += g.high - g.low;
            open_close += trades[g.last_seq].price_cents - trades[g.first_seq].price_cents;
        }
        total_notional += g.notional;
    }
    const Bar& b0 = bars[0];
    printf("trades %d bars %d total_notional_cents %llu\n", TRADES, SYMBOLS * MINUTES, total_notional);
    printf("sum_of_bar_vwaps %.8e high_low_range_sum %lld close_minus_open_sum %lld\n", vwap_sum, range_sum, open_close);
    printf("symbol0 minute0: volume %llu vwap %.6f low %d high %d\n", b0.volume, (double)b0.notional / b0.volume,
           b0.low, b0.high);
    printf("symbol 63 volume %llu\n", symvol[63]);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_trades));
    CUDA_CHECK(cudaFree(d_bars));
    CUDA_CHECK(cudaFree(d_symvol));
    return ok ? 0 : 1;
}
