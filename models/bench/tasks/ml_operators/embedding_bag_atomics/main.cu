// Embedding bag (mean pooling over variable bags) forward, and its backward pass scattering gradients with float atomics.
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

constexpr int VOCAB = 1000, DIM = 64;

// Forward: one block per bag, one thread per embedding dimension; deterministic order.
__global__ void bag_mean(const float* __restrict__ table, const int* __restrict__ ids,
                         const int* __restrict__ offsets, float* __restrict__ out) {
    const int bag = blockIdx.x, d = threadIdx.x;
    const int begin = offsets[bag], end = offsets[bag + 1];
    float s = 0.0f;
    for (int k = begin; k < end; ++k) s += table[ids[k] * DIM + d];
    out[bag * DIM + d] = end > begin ? s / (float)(end - begin) : 0.0f;
}

// Backward: every occurrence adds grad/len to its row; rows shared by bags collide -> atomics.
__global__ void bag_mean_backward(const float* __restrict__ grad_out, const int* __restrict__ ids,
                                  const int* __restrict__ offsets, float* __restrict__ grad_table) {
    const int bag = blockIdx.x, d = threadIdx.x;
    const int begin = offsets[bag], end = offsets[bag + 1];
    if (end == begin) return;
    const float g = grad_out[bag * DIM + d] / (float)(end - begin);
    for (int k = begin; k < end; ++k) atomicAdd(&grad_table[ids[k] * DIM + d], g);
}

int main() {
    g_seed = 314u;
    const int bags = 512;
    std::vector<int> offsets(bags + 1, 0);
    for (int b = 0; b < bags; ++b) offsets[b + 1] = offsets[b] + (int)(next_u32() % 12u);  // some empty
    const int nids = offsets[bags];
    std::vector<int> ids(nids);
    for (auto& v : ids) v = (int)(next_u32() % 97u) * 7 % VOCAB;  // heavy reuse of a few rows
    std::vector<float> table(VOCAB * DIM), grad_out(bags * DIM), out(bags * DIM), grad(VOCAB * DIM);
    for (auto& v : table) v = next_uniform();
    for (auto& v : grad_out) v = next_uniform();
    float *d_table, *d_out, *d_gout, *d_grad;
    int *d_ids, *d_off;
    CUDA_CHECK(cudaMalloc(&d_table, table.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, out.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_gout, grad_out.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_grad, grad.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_ids, nids * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_off, (bags + 1) * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(d_table, table.data(), table.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_gout, grad_out.data(), grad_out.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_ids, ids.data(), nids * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_off, offsets.data(), (bags + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_grad, 0, grad.size() * sizeof(float)));
    bag_mean<<<bags, DIM>>>(d_table, d_ids, d_off, d_out);
    bag_mean_backward<<<bags, DIM>>>(d_gout, d_ids, d_off, d_grad);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(grad.data(), d_grad, grad.size() * sizeof(float), cudaMemcpyDeviceToHost));

    std::vector<double> ref_grad(VOCAB * DIM, 0.0);
    double fwd_err = 0.0, bwd_err = 0.0, out_sum = 0.0, grad_abs = 0.0;
    for (int b = 0; b < bags; ++b) {
        const int len = offsets[b + 1] - offsets[b];
        for (int d = 0; d < DIM; ++d) {
            float s = 0.0f;
            for (int k = offsets[b]; k < offsets[b + 1]; ++k) s += table[ids[k] * DIM + d];
            const float ref = len ? s / (float)len : 0.0f;
            fwd_err = fmax(fwd_err, fabs(ref - out[b * DIM + d]));
            out_sum += out[b * DIM + d];
            for (int k = offsets[b]; k < offsets[b + 1]; ++k)
                ref_grad[ids[k] * DIM + d] += (double)(grad_out[b * DIM + d] / (float)len);
        }
    }
    for (int i = 0; i < VOCAB * DIM; ++i) {
        bwd_err = fmax(bwd_err, fabs(ref_grad[i] - grad[i]));
        grad_abs += fabs(grad[i]);
    }
    // The gradient depends on atomic order in the last bits: print it rounded.
    printf("embedding bag bags %d ids %d dim %d\n", bags, nids, DIM);
    printf("forward_sum %.6e out[0] %.6e\n", out_sum, out[0]);
    printf("grad_abs_sum %.4e\n", grad_abs);
    const bool ok = fwd_err < 1e-6 && bwd_err < 1e-4;
    CUDA_CHECK(cudaFree(d_table));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_gout));
    CUDA_CHECK(cudaFree(d_grad));
    CUDA_CHECK(cudaFree(d_ids));
    CUDA_CHECK(cudaFree(d_off));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
