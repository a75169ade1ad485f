// Implied volatility inversion: each thread recovers sigma from a quoted option price by Newton's
// method on the Black-Scholes price (vega as derivative) with a bisection safeguard. The pricing
// function is chosen through a __device__ table of function pointers (call, put).
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

constexpr int N = 16384;

typedef double (*PriceFn)(double s, double k, double t, double r, double sigma);

__host__ __device__ inline double ncdf(double x) { return 0.5 * erfc(-x * 0.7071067811865476); }
__host__ __device__ inline double d1_of(double s, double k, double t, double r, double sigma) {
    return (log(s / k) + (r + 0.5 * sigma * sigma) * t) / (sigma * sqrt(t));
}
__host__ __device__ double call_price(double s, double k, double t, double r, double sigma) {
    const double d1 = d1_of(s, k, t, r, sigma);
    return s * ncdf(d1) - k * exp(-r * t) * ncdf(d1 - sigma * sqrt(t));
}
__host__ __device__ double put_price(double s, double k, double t, double r, double sigma) {
    const double d1 = d1_of(s, k, t, r, sigma);
    return k * exp(-r * t) * ncdf(-(d1 - sigma * sqrt(t))) - s * ncdf(-d1);
}
__host__ __device__ inline double vega(double s, double k, double t, double r, double sigma) {
    const double d1 = d1_of(s, k, t, r, sigma);
    return s * sqrt(t) * 0.3989422804014327 * exp(-0.5 * d1 * d1);
}

__device__ PriceFn d_pricers[2] = {call_price, put_price};

struct Quote {
    double spot, strike, expiry, rate, price;
    int kind;  // 0 call, 1 put
};

struct Solve {
    double sigma;
    int iterations;
};

__host__ __device__ inline Solve implied_vol(const Quote& q, PriceFn price_fn) {
    double lo = 1e-4, hi = 4.0, sigma = 0.3;
    int it = 0;
    for (; it < 100; ++it) {
        const double diff = price_fn(q.spot, q.strike, q.expiry, q.rate, sigma) - q.price;
        if (fabs(diff) < 1e-12 * (1.0 + q.price)) break;
        if (diff > 0.0) hi = sigma; else lo = sigma;
        const double v = vega(q.spot, q.strike, q.expiry, q.rate, sigma);
        double next = sigma - diff / v;
        if (!(next > lo && next < hi) || v < 1e-10) next = 0.5 * (lo + hi);  // safeguard
        sigma = next;
    }
    return Solve{sigma, it};
}

__global__ void solve_quotes(const Quote* quotes, Solve* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N) return;
    const Quote q = quotes[i];
    out[i] = implied_vol(q, d_pricers[q.kind]);
}

int main() {
    g_seed = 4096001u;
    std::vector<Quote> quotes(N);
    std::vector<double> true_sigma(N);
    for (int i = 0; i < N; ++i) {
        Quote& q = quotes[i];
        q.spot = 100.0;
        q.strike = 100.0 * (0.9 + 0.2 * (0.5 + 0.5 * next_uniform()));
        q.expiry = 0.25 + 1.75 * (0.5 + 0.5 * next_uniform());
        q.rate = 0.02;
        q.kind = (int)(next_u32() >> 31);
        true_sigma[i] = 0.15 + 0.45 * (0.5 + 0.5 * next_uniform());
        q.price = (q.kind ? put_price : call_price)(q.spot, q.strike, q.expiry, q.rate, true_sigma[i]);
    }
    Quote* d_q;
    Solve* d_out;
    CUDA_CHECK(cudaMalloc(&d_q, N * sizeof(Quote)));
    CUDA_CHECK(cudaMalloc(&d_out, N * sizeof(Solve)));
    CUDA_CHECK(cudaMemcpy(d_q, quotes.data(), N * sizeof(Quote), cudaMemcpyHostToDevice));
    solve_quotes<<<N / 128, 128>>>(d_q, d_out);
    CUDA_CHECK(cudaGetLastError());
    std::vector<Solve> out(N);
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, N * sizeof(Solve), cudaMemcpyDeviceToHost));

    bool ok = true;
    double sigma_sum = 0.0, max_err = 0.0;
    int puts = 0;
    for (int i = 0; i < N; ++i) {
        const Solve ref = implied_vol(quotes[i], quotes[i].kind ? put_price : call_price);
        if (fabs(ref.sigma - out[i].sigma) > 1e-9) ok = false;
        max_err = fmax(max_err, fabs(out[i].sigma - true_sigma[i]));
        sigma_sum += out[i].sigma;
        puts += quotes[i].kind;
    }
    if (max_err > 1e-7) ok = false;
    printf("quotes %d puts %d\n", N, puts);
    printf("sigma_sum %.9e sigma[0] %.9e sigma[%d] %.9e\n", sigma_sum, out[0].sigma, N - 1, out[N - 1].sigma);
    printf("recovered_within_1e-7 %d\n", max_err <= 1e-7 ? 1 : 0);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_q));
    CUDA_CHECK(cudaFree(d_out));
    return ok ? 0 : 1;
}
