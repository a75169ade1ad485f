// Conjugate gradient for the 5-point 2D Poisson matrix stored in CSR, run by one persistent block:
// sparse mat-vec, dot products through cooperative_groups warp tiles, vector updates, fixed iteration count.
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

#include <cooperative_groups.h>
namespace cg = cooperative_groups;

constexpr int G = 40;          // grid side; unknowns = G*G
constexpr int NU = G * G;
constexpr int THREADS = 512;
constexpr int ITERS = 30;

struct Csr {
    const int* rp;
    const int* ci;
    const double* v;
};

__device__ double block_dot(cg::thread_block block, const double* a, const double* b, double* warp_partials) {
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    double s = 0.0;
    for (int i = block.thread_rank(); i < NU; i += THREADS) s += a[i] * b[i];
    for (int off = 16; off > 0; off >>= 1) s += tile.shfl_down(s, off);
    if (tile.thread_rank() == 0) warp_partials[block.thread_rank() / 32] = s;
    block.sync();
    double total = 0.0;
    for (int w = 0; w < THREADS / 32; ++w) total += warp_partials[w];  // same order in every thread
    block.sync();
    return total;
}

__global__ void cg_solve(Csr A, const double* b, double* x, double* r, double* p, double* q, double* history) {
    cg::thread_block block = cg::this_thread_block();
    __shared__ double partials[THREADS / 32];
    for (int i = block.thread_rank(); i < NU; i += THREADS) {
        x[i] = 0.0;
        r[i] = b[i];
        p[i] = b[i];
    }
    block.sync();
    double rr = block_dot(block, r, r, partials);
    for (int it = 0; it < ITERS; ++it) {
        for (int i = block.thread_rank(); i < NU; i += THREADS) {
            double s = 0.0;
            for (int k = A.rp[i]; k < A.rp[i + 1]; ++k) s += A.v[k] * p[A.ci[k]];
            q[i] = s;
        }
        block.sync();
        const double alpha = rr / block_dot(block, p, q, partials);
        for (int i = block.thread_rank(); i < NU; i += THREADS) {
            x[i] += alpha * p[i];
            r[i] -= alpha * q[i];
        }
        block.sync();
        const double rr_new = block_dot(block, r, r, partials);
        const double beta = rr_new / rr;
        rr = rr_new;
        for (int i = block.thread_rank(); i < NU; i += THREADS) p[i] = r[i] + beta * p[i];
        if (block.thread_rank() == 0) history[it] = sqrt(rr);
        block.sync();
    }
}

int main() {
    g_seed = 5150u;
    std::vector<int> rp(1, 0), ci;
    std::vector<double> v;
    for (int y = 0; y < G; ++y)
        for (int x = 0; x < G; ++x) {
            const int i = y * G + x;
            if (y > 0) { ci.push_back(i - G); v.push_back(-1.0); }
            if (x > 0) { ci.push_back(i - 1); v.push_back(-1.0); }
            ci.push_back(i); v.push_back(4.0);
            if (x < G - 1) { ci.push_back(i + 1); v.push_back(-1.0); }
            if (y < G - 1) { ci.push_back(i + G); v.push_back(-1.0); }
            rp.push_back((int)ci.size());
        }
    std::vector<double> b(NU);
    for (auto& e : b) e = (double)next_uniform();
    const int nnz = (int)ci.size();
    int *d_rp, *d_ci;
    double *d_v, *d_b, *d_work, *d_hist;
    CUDA_CHECK(cudaMalloc(&d_rp, (NU + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_ci, nnz * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_v, nnz * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_b, NU * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_work, 4 * NU * sizeof(double)));
    CUDA_CHECK(cudaMalloc(&d_hist, ITERS * sizeof(double)));
    CUDA_CHECK(cudaMemcpy(d_rp, rp.data(), (NU + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_ci, ci.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_v, v.data(), nnz * sizeof(double), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_b, b.data(), NU * sizeof(double), cudaMemcpyHostToDevice));
    cg_solve<<<1, THREADS>>>(Csr{d_rp, d_ci, d_v}, d_b, d_work, d_work + NU, d_work + 2 * NU, d_work + 3 * NU, d_hist);
    CUDA_CHECK(cudaGetLastError());
    std::vector<double> x(NU), hist(ITERS);
    CUDA_CHECK(cudaMemcpy(x.data(), d_work, NU * sizeof(double), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(hist.data(), d_hist, ITERS * sizeof(double), cudaMemcpyDeviceToHost));

    // CPU reference: the same iteration in double.
    std::vector<double> rx(NU, 0.0), r = b, p = b, q(NU);
    auto dot = [](const std::vector<double>& a, const std::vector<double>& c) {
        double s = 0.0;
        for (int i = 0; i < NU; ++i) s += a[i] * c[i];
        return s;
    };
    double rr = dot(r, r);
    bool ok = true;
    for (int it = 0; it < ITERS; ++it) {
        for (int i = 0; i < NU; ++i) {
            double s = 0.0;
            for (int k = rp[i]; k < rp[i + 1]; ++k) s += v[k] * p[ci[k]];
            q[i] = s;
        }
        const double alpha = rr / dot(p, q);
        for (int i = 0; i < NU; ++i) { rx[i] += alpha * p[i]; r[i] -= alpha * q[i]; }
        const double rr_new = dot(r, r);
        for (int i = 0; i < NU; ++i) p[i] = r[i] + rr_new / rr * p[i];
        rr = rr_new;
        if (fabs(sqrt(rr) - hist[it]) > 1e-7 * sqrt(rr) + 1e-12) ok = false;
    }
    double xsum = 0.0, err = 0.0;
    for (int i = 0; i < NU; ++i) {
        xsum += x[i];
        err = fmax(err, fabs(x[i] - rx[i]));
    }
    if (err > 1e-8) ok = false;
    printf("unknowns %d nnz %d iterations %d\n", NU, nnz, ITERS);
    printf("residual it1 %.6e it10 %.6e it30 %.6e\n", hist[0], hist[9], hist[ITERS - 1]);
    printf("x_sum %.8e x[0] %.8e x[820] %.8e\n", xsum, x[0], x[820]);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_rp));
    CUDA_CHECK(cudaFree(d_ci));
    CUDA_CHECK(cudaFree(d_v));
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_work));
    CUDA_CHECK(cudaFree(d_hist));
    return ok ? 0 : 1;
}
