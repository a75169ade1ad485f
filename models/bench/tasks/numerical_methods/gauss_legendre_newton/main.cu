// Gauss-Legendre quadrature rules of every order 2..129: one thread per (order, root) finds the root of
// P_n with Newton's method from the Chebyshev-like initial guess; a second kernel integrates test
// functions with each rule (block reduction in shared memory).
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

constexpr int MIN_ORDER = 2;
constexpr int NORDERS = 128;
constexpr int MAX_ORDER = MIN_ORDER + NORDERS - 1;
constexpr double PI = 3.14159265358979323846;

__host__ __device__ inline void legendre(int n, double x, double& p, double& dp) {
    double p0 = 1.0, p1 = x;
    for (int k = 2; k <= n; ++k) {
        const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
    }
    p = p1;
    dp = n * (x * p1 - p0) / (x * x - 1.0);
}

__host__ __device__ inline void gl_node(int n, int i, double& x, double& w) {
    x = cos(PI * (i + 0.75) / (n + 0.5));
    double p, dp;
    for (int it = 0; it < 100; ++it) {
        legendre(n, x, p, dp);
        const double dx = p / dp;
        x -= dx;
        if (fabs(dx) < 1e-15) break;
    }
    legendre(n, x, p, dp);
    w = 2.0 / ((1.0 - x * x) * dp * dp);
}

// grid: x over roots, y over orders. Node table row o holds order MIN_ORDER + o.
__global__ void compute_nodes(double* nodes, double* weights) {
    const int o = blockIdx.y, i = blockIdx.x * blockDim.x + threadIdx.x;
    const int n = MIN_ORDER + o;
    if (i >= n) return;
    double x, w;
    gl_node(n, i, x, w);
    nodes[o * MAX_ORDER + i] = x;
    weights[o * MAX_ORDER + i] = w;
}

__host__ __device__ inline double test_fn(int f, double x) {
    switch (f) {
        case 0: return exp(x);
        case 1: return 1.0 / (1.0 + 25.0 * x * x);  // Runge function
        default: return x * x * x * x * x * x * x * x * x * x;  // x^10
    }
}

__global__ void integrate(const double* nodes, const double* weights, double* results) {
    __shared__ double partial[128];
    const int o = blockIdx.x, f = blockIdx.y, n = MIN_ORDER + o;
    double s = 0.0;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        s += weights[o * MAX_ORDER + i] * test_fn(f, nodes[o * MAX_ORDER + i]);
    partial[threadIdx.x] = s;
    __syncthreads();
    for (int half = 64; half > 0; half >>= 1) {
        if (threadIdx.x < half) partial[threadIdx.x] += partial[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) results[f * NORDERS + o] = partial[0];
}

int main() {
    double *d_nodes, *d_weights, *d_res;
    CUDA_CHECK(cudaMalloc(&d_nodes, NORDERS * MAX_ORDER * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_weights, NORDERS * MAX_ORDER * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_res, 3 * NORDERS * sizeof(double)));
    compute_nodes<<<dim3((MAX_ORDER + 63) / 64, NORDERS), 64>>>(d_nodes, d_weights);
    CUDA_CHECK(cudaGetLastError());
    integrate<<<dim3(NORDERS, 3), 128>>>(d_nodes, d_weights, d_res);
    CUDA_CHECK(cudaGetLastError());
    std::vector<double> nodes(NORDERS * MAX_ORDER), weights(NORDERS * MAX_ORDER), res(3 * NORDERS);
    CUDA_CHECK(cudaMemcpy(nodes.data(), d_nodes, nodes.size() * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(weights.data(), d_weights, weights.size() * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(res.data(), d_res, res.size() * sizeof(double), cudaMemcpyDeviceToHost));

    bool ok = true;
    double max_node_err = 0.0;
    for (int o = 0; o < NORDERS; ++o) {
        const int n = MIN_ORDER + o;
        double wsum = 0.0;
        for (int i = 0; i < n; ++i) {
            double x, w;
            gl_node(n, i, x, w);
            max_node_err = fmax(max_node_err, fabs(x - nodes[o * MAX_ORDER + i]));
            if (fabs(w - weights[o * MAX_ORDER + i]) > 1e-12) ok = false;
            wsum += weights[o * MAX_ORDER + i];
        }
        if (fabs(wsum - 2.0) > 1e-12) ok = false;
    }
    if (max_node_err > 1e-13) ok = false;
    const double exact[3] = {exp(1.0) - exp(-1.0), 2.0 / 5.0 * atan(5.0), 2.0 / 11.0};
    // Exactness: a rule of order n integrates x^10 exactly once 2n-1 >= 10.
    for (int o = 4; o < NORDERS; ++o)
        if (fabs(res[2 * NORDERS + o] - exact[2]) > 1e-13) ok = false;
    if (fabs(res[0 * NORDERS + 10] - exact[0]) > 1e-13) ok = false;
    if (fabs(res[1 * NORDERS + NORDERS - 1] - exact[1]) > 1e-10) ok = false;
    const int show[4] = {0, 3, 8, 30};
    for (int k = 0; k < 4; ++k) {
        const int o = show[k];
        printf("order %3d exp %.12e runge %.12e x10 %.12e\n", MIN_ORDER + o, res[o], res[NORDERS + o],
               res[2 * NORDERS + o]);
    }
    printf("order 129 node0 %.14e weight0 %.14e\n", nodes[(NORDERS - 1) * MAX_ORDER], weights[(NORDERS - 1) * MAX_ORDER]);
    printf("runge error at order 129 %.3e\n", fabs(res[2 * NORDERS - 1] - exact[1]));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_nodes));
    CUDA_CHECK(cudaFree(d_weights));
    CUDA_CHECK(cudaFree(d_res));
    return ok ? 0 : 1;
}
