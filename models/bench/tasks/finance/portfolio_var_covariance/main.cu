// Portfolio risk: kernel 1 computes the sample covariance matrix of daily asset returns (one thread per
// (i, j) entry on a 2D grid); kernel 2 stages the matrix in shared memory and evaluates each portfolio's
// variance w' S w, volatility and 99% one-day parametric value-at-risk.
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

constexpr int ASSETS = 48;
constexpr int DAYS = 250;
constexpr int PORTFOLIOS = 4096;
constexpr double Z99 = 2.3263478740408408;

__global__ void covariance(const double* returns, const double* mean, double* cov) {
    const int i = blockIdx.y * blockDim.y + threadIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= ASSETS || j >= ASSETS) return;
    double s = 0.0;
    for (int d = 0; d < DAYS; ++d) s += (returns[d * ASSETS + i] - mean[i]) * (returns[d * ASSETS + j] - mean[j]);
    cov[i * ASSETS + j] = s / (DAYS - 1);
}

__global__ void portfolio_risk(const double* cov, const double* weights, const double* notional, double* var99,
                               double* vol) {
    __shared__ double S[ASSETS * ASSETS];
    for (int k = threadIdx.x; k < ASSETS * ASSETS; k += blockDim.x) S[k] = cov[k];
    __syncthreads();
    const int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= PORTFOLIOS) return;
    const double* w = weights + (size_t)p * ASSETS;
    double variance = 0.0;
    for (int i = 0; i < ASSETS; ++i) {
        double row = 0.0;
        for (int j = 0; j < ASSETS; ++j) row += S[i * ASSETS + j] * w[j];
        variance += w[i] * row;
    }
    vol[p] = sqrt(variance);
    var99[p] = Z99 * vol[p] * notional[p];
}

int main() {
    g_seed = 20081015u;
    std::vector<double> returns(DAYS * ASSETS), mean(ASSETS, 0.0);
    std::vector<double> beta(ASSETS);
    for (auto& b : beta) b = 0.5 + 0.5 * (0.5 + 0.5 * next_uniform());
    for (int d = 0; d < DAYS; ++d) {
        const double market = 0.012 * next_uniform();
        for (int a = 0; a < ASSETS; ++a) returns[d * ASSETS + a] = beta[a] * market + 0.008 * next_uniform();
    }
    for (int d = 0; d < DAYS; ++d)
        for (int a = 0; a < ASSETS; ++a) mean[a] += returns[d * ASSETS + a] / DAYS;
    std::vector<double> weights((size_t)PORTFOLIOS * ASSETS), notional(PORTFOLIOS);
    for (int p = 0; p < PORTFOLIOS; ++p) {
        double total = 0.0;
        for (int a = 0; a < ASSETS; ++a) {
            const double w = (next_u32() % 5u == 0u) ? 0.0 : 0.5 + 0.5 * next_uniform();
            weights[(size_t)p * ASSETS + a] = (p % 3 == 0 && a % 2) ? -0.5 * w : w;  // some long-short books
            total += w;
        }
        for (int a = 0; a < ASSETS; ++a) weights[(size_t)p * ASSETS + a] /= (total > 0 ? total : 1.0);
        notional[p] = 1e6 * (1 + p % 10);
    }
    double *d_ret, *d_mean, *d_cov, *d_w, *d_not, *d_var, *d_vol;
    CUDA_CHECK(cudaMalloc(&d_ret, returns.size() * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_mean, ASSETS * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_cov, ASSETS * ASSETS * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_w, weights.size() * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_not, PORTFOLIOS * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_var, PORTFOLIOS * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_vol, PORTFOLIOS * sizeof(double)));
    CUDA_CHECK(cudaMemcpy(d_ret, returns.data(), returns.size() * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_mean, mean.data(), ASSETS * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_w, weights.data(), weights.size() * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_not, notional.data(), PORTFOLIOS * sizeof(double), cudaMemcpyHostToDevice));
    const dim3 tile(16, 16), grid((ASSETS + 15) / 16, (ASSETS + 15) / 16);
    covariance<<<grid, tile>>>(d_ret, d_mean, d_cov);
    CUDA_CHECK(cudaGetLastError());
    portfolio_risk<<<PORTFOLIOS / 128, 128>>>(d_cov, d_w, d_not, d_var, d_vol);
    CUDA_CHECK(cudaGetLastError());
    std::vector<double> cov(ASSETS * ASSETS), var99(PORTFOLIOS), vol(PORTFOLIOS);
    CUDA_CHECK(cudaMemcpy(cov.data(), d_cov, cov.size() * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(var99.data(), d_var, PORTFOLIOS * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(vol.data(), d_vol, PORTFOLIOS * sizeof(double), cudaMemcpyDeviceToHost));

    bool ok = true;
    std::vector<double> rcov(ASSETS * ASSETS);
    for (int i = 0; i < ASSETS; ++i)
        for (int j = 0; j < ASSETS; ++j) {
            double s = 0.0;
            for (int d = 0; d < DAYS; ++d) s += (returns[d * ASSETS + i] - mean[i]) * (returns[d * ASSETS + j] - mean[j]);
            rcov[i * ASSETS + j] = s / (DAYS - 1);
            if (fabs(rcov[i * ASSETS + j] - cov[i * ASSETS + j]) > 1e-12 * fabs(rcov[i * ASSETS + j]) + 1e-20) ok = false;
        }
    double var_sum = 0.0, worst = 0.0;
    int worst_p = 0;
    for (int p = 0; p < PORTFOLIOS; ++p) {
        double v = 0.0;
        for (int i = 0; i < ASSETS; ++i)
            for (int j = 0; j < ASSETS; ++j) v += weights[(size_t)p * ASSETS + i] * rcov[i * ASSETS + j] * weights[(size_t)p * ASSETS + j];
        const double ref = Z99 * sqrt(v) * notional[p];
        if (fabs(ref - var99[p]) > 1e-10 * ref) ok = false;
        var_sum += var99[p];
        if (var99[p] > worst) { worst = var99[p]; worst_p = p; }
    }
    printf("assets %d days %d portfolios %d\n", ASSETS, DAYS, PORTFOLIOS);
    printf("cov[0][0] %.10e cov[3][7] %.10e\n", cov[0], cov[3 * ASSETS + 7]);
    printf("total_var99 %.10e worst_portfolio %d var99 %.10e vol %.10e\n", var_sum, worst_p, worst, vol[worst_p]);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_ret)); CUDA_CHECK(cudaFree(d_mean)); CUDA_CHECK(cudaFree(d_cov)); CUDA_CHECK(cudaFree(d_w));
    CUDA_CHECK(cudaFree(d_not)); CUDA_CHECK(cudaFree(d_var)); CUDA_CHECK(cudaFree(d_vol));
    return ok ? 0 : 1;
}
