// Black-Scholes-Merton pricing of European calls and puts with continuous dividend yield, plus the
// first-order Greeks, one option per thread (structure-of-arrays in, array-of-structs out).
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

constexpr int N = 1 << 16;

struct OptionSpec {
    double spot, strike, expiry, rate, dividend, vol;
    int is_call;
};

struct Greeks {
    double price, delta, gamma, vega, theta;
};

__host__ __device__ inline double norm_pdf(double x) { return 0.3989422804014327 * exp(-0.5 * x * x); }
__host__ __device__ inline double norm_cdf(double x) { return 0.5 * erfc(-x * 0.7071067811865476); }

__host__ __device__ inline Greeks black_scholes(const OptionSpec& o) {
    const double sq = o.vol * sqrt(o.expiry);
    const double d1 = (log(o.spot / o.strike) + (o.rate - o.dividend + 0.5 * o.vol * o.vol) * o.expiry) / sq;
    const double d2 = d1 - sq;
    const double df_r = exp(-o.rate * o.expiry), df_q = exp(-o.dividend * o.expiry);
    Greeks g;
    g.gamma = df_q * norm_pdf(d1) / (o.spot * sq);
    g.vega = o.spot * df_q * norm_pdf(d1) * sqrt(o.expiry);
    const double common = -o.spot * df_q * norm_pdf(d1) * o.vol / (2.0 * sqrt(o.expiry));
    if (o.is_call) {
        g.price = o.spot * df_q * norm_cdf(d1) - o.strike * df_r * norm_cdf(d2);
        g.delta = df_q * norm_cdf(d1);
        g.theta = common - o.rate * o.strike * df_r * norm_cdf(d2) + o.dividend * o.spot * df_q * norm_cdf(d1);
    } else {
        g.price = o.strike * df_r * norm_cdf(-d2) - o.spot * df_q * norm_cdf(-d1);
        g.delta = -df_q * norm_cdf(-d1);
        g.theta = common + o.rate * o.strike * df_r * norm_cdf(-d2) - o.dividend * o.spot * df_q * norm_cdf(-d1);
    }
    return g;
}

__global__ void __launch_bounds__(256, 4) price_options(const OptionSpec* opts, Greeks* out, int n) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = black_scholes(opts[i]);
}

static double unit() { return 0.5 * (next_uniform() + 1.0); }

int main() {
    g_seed = 19730501u;
    std::vector<OptionSpec> opts(N);
    for (auto& o : opts) {
        o.spot = 50.0 + 100.0 * unit();
        o.strike = o.spot * (0.7 + 0.6 * unit());
        o.expiry = 0.05 + 2.0 * unit();
        o.rate = 0.001 + 0.06 * unit();
        o.dividend = 0.03 * unit();
        o.vol = 0.08 + 0.5 * unit();
        o.is_call = (next_u32() >> 31) ? 1 : 0;
    }
    OptionSpec* d_opts;
    Greeks* d_out;
    CUDA_CHECK(cudaMalloc(&d_opts, N * sizeof(OptionSpec)));
    CUDA_CHECK(cudaMalloc(&d_out, N * sizeof(Greeks)));
    CUDA_CHECK(cudaMemcpy(d_opts, opts.data(), N * sizeof(OptionSpec), cudaMemcpyHostToDevice));
    price_options<<<N / 256, 256>>>(d_opts, d_out, N);
    CUDA_CHECK(cudaGetLastError());
    std::vector<Greeks> out(N);
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, N * sizeof(Greeks), cudaMemcpyDeviceToHost));

    bool ok = true;
    double tp = 0.0, td = 0.0, tg = 0.0, tv = 0.0, tt = 0.0;
    int parity_bad = 0;
    for (int i = 0; i < N; ++i) {
        const Greeks r = black_scholes(opts[i]);
        const Greeks& g = out[i];
        auto close = [](double a, double b) { return fabs(a - b) <= 1e-10 * (1.0 + fabs(b)); };
        if (!close(g.price, r.price) || !close(g.delta, r.delta) || !close(g.gamma, r.gamma) || !close(g.vega, r.vega) ||
            !close(g.theta, r.theta))
            ok = false;
        // Put-call parity against the opposite option priced on the CPU.
        OptionSpec other = opts[i];
        other.is_call = !other.is_call;
        const double o_price = black_scholes(other).price;
        const double call = opts[i].is_call ? g.price : o_price, put = opts[i].is_call ? o_price : g.price;
        const double fwd = opts[i].spot * exp(-opts[i].dividend * opts[i].expiry) -
                           opts[i].strike * exp(-opts[i].rate * opts[i].expiry);
        if (fabs(call - put - fwd) > 1e-8 * (1.0 + opts[i].spot)) ++parity_bad;
        tp += g.price; td += g.delta; tg += g.gamma; tv += g.vega; tt += g.theta;
    }
    if (parity_bad) ok = false;
    printf("options %d\n", N);
    printf("sum price %.10e delta %.10e gamma %.10e\n", tp, td, tg);
    printf("sum vega %.10e theta %.10e\n", tv, tt);
    printf("opt0 %s price %.10e delta %.10e\n", opts[0].is_call ? "call" : "put", out[0].price, out[0].delta);
    printf("put_call_parity_violations %d\n", parity_bad);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_opts));
    CUDA_CHECK(cudaFree(d_out));
    return ok ? 0 : 1;
}
