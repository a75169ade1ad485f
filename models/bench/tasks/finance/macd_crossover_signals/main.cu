// Technical indicators per ticker: each thread runs the 12- and 26-period exponential moving averages of
// its close prices, the MACD line and its 9-period signal EMA, and counts bullish/bearish crossovers.
// Each warp counts its tickers that end bullish with __ballot_sync. Prices move through pinned memory.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
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

constexpr int TICKERS = 1024;
constexpr int BARS = 390;

struct Signals {
    int bull_cross, bear_cross;
    double macd, signal;
};

__host__ __device__ inline Signals macd_scan(const float* close, int stride) {
    const double a12 = 2.0 / 13.0, a26 = 2.0 / 27.0, a9 = 2.0 / 10.0;
    double e12 = close[0], e26 = close[0], sig = 0.0, prev_hist = 0.0;
    Signals s{0, 0, 0.0, 0.0};
    for (int t = 1; t < BARS; ++t) {
        const double p = close[t * stride];
        e12 += a12 * (p - e12);
        e26 += a26 * (p - e26);
        const double macd = e12 - e26;
        sig += a9 * (macd - sig);
        const double hist = macd - sig;
        if (t > 26) {  // warm-up period
            if (prev_hist <= 0.0 && hist > 0.0) ++s.bull_cross;
            if (prev_hist >= 0.0 && hist < 0.0) ++s.bear_cross;
        }
        prev_hist = hist;
        s.macd = macd;
        s.signal = sig;
    }
    return s;
}

__global__ void indicators(const float* close, Signals* out, int* bullish_per_warp) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;  // TICKERS is a multiple of the block size
    const Signals s = macd_scan(close + k, TICKERS);      // bar-major layout: coalesced across tickers
    out[k] = s;
    const unsigned bull = __ballot_sync(0xffffffffu, s.macd > s.signal);
    if ((threadIdx.x & 31) == 0) bullish_per_warp[k / 32] = __popc(bull);
}

int main() {
    g_seed = 2000u;
    float* h_close;
    Signals* h_out;
    int* h_bull;
    CUDA_CHECK(cudaMallocHost(&h_close, (size_t)BARS * TICKERS * sizeof(float)));
    CUDA_CHECK(cudaMallocHost(&h_out, TICKERS * sizeof(Signals)));
    CUDA_CHECK(cudaMallocHost(&h_bull, TICKERS / 32 * sizeof(int)));
    for (int k = 0; k < TICKERS; ++k) {
        float p = 20.0f + 180.0f * (0.5f + 0.5f * next_uniform());
        const float drift = 0.0004f * next_uniform();
        for (int t = 0; t < BARS; ++t) {
            p *= 1.0f + drift + 0.004f * next_uniform();
            h_close[(size_t)t * TICKERS + k] = roundf(p * 100.0f) / 100.0f;  // cents
        }
    }
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    float* d_close;
    Signals* d_out;
    int* d_bull;
    CUDA_CHECK(cudaMalloc(&d_close, (size_t)BARS * TICKERS * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, TICKERS * sizeof(Signals)));
    CUDA_CHECK(cudaMalloc(&d_bull, TICKERS / 32 * sizeof(int)));
    CUDA_CHECK(cudaMemcpyAsync(d_close, h_close, (size_t)BARS * TICKERS * sizeof(float), cudaMemcpyHostToDevice, stream));
    indicators<<<TICKERS / 128, 128, 0, stream>>>(d_close, d_out, d_bull);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpyAsync(h_out, d_out, TICKERS * sizeof(Signals), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaMemcpyAsync(h_bull, d_bull, TICKERS / 32 * sizeof(int), cudaMemcpyDeviceToHost, stream));
    CUDA_CHECK(cudaStreamSynchronize(stream));

    bool ok = true;
    long long bulls = 0, bears = 0;
    int bullish = 0, ref_bullish = 0;
    double macd_sum = 0.0;
    for (int k = 0; k < TICKERS; ++k) {
        const Signals r = macd_scan(h_close + k, TICKERS);
        const Signals& g = h_out[k];
        if (r.bull_cross != g.bull_cross || r.bear_cross != g.bear_cross) ok = false;
        if (fabs(r.macd - g.macd) > 1e-9 * (1.0 + fabs(r.macd)) || fabs(r.signal - g.signal) > 1e-9 * (1.0 + fabs(r.signal)))
            ok = false;
        bulls += g.bull_cross;
        bears += g.bear_cross;
        macd_sum += g.macd;
        ref_bullish += r.macd > r.signal;
    }
    for (int w = 0; w < TICKERS / 32; ++w) bullish += h_bull[w];
    if (bullish != ref_bullish) ok = false;
    printf("tickers %d bars %d\n", TICKERS, BARS);
    printf("bullish_crossovers %lld bearish_crossovers %lld ending_bullish %d\n", bulls, bears, bullish);
    printf("macd_sum %.9e ticker0 macd %.9e signal %.9e\n", macd_sum, h_out[0].macd, h_out[0].signal);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaStreamDestroy(stream));
    CUDA_CHECK(cudaFree(d_close));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_bull));
    CUDA_CHECK(cudaFreeHost(h_close));
    CUDA_CHECK(cudaFreeHost(h_out));
    CUDA_CHECK(cudaFreeHost(h_bull));
    return ok ? 0 : 1;
}
