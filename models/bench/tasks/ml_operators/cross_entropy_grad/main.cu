// Softmax cross-entropy loss and its gradient: one warp per sample, per-sample losses reduced in fixed order.
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

constexpr int CLASSES = 100;

__inline__ __device__ float warp_max(float v) {
    for (int o = 16; o > 0; o >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    return v;
}
__inline__ __device__ float warp_sum(float v) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
    return v;
}

// loss_i = logsumexp(z_i) - z_i[label_i];  grad_ij = softmax(z_i)_j - [j == label_i], scaled by 1/batch.
__global__ void xent_forward_backward(const float* __restrict__ logits, const int* __restrict__ labels,
                                      int batch, float* __restrict__ losses, float* __restrict__ grad) {
    const int row = (blockIdx.x * blockDim.x + threadIdx.x) >> 5, lane = threadIdx.x & 31;
    if (row >= batch) return;
    const float* z = logits + (size_t)row * CLASSES;
    float m = -INFINITY;
    for (int j = lane; j < CLASSES; j += 32) m = fmaxf(m, z[j]);
    m = warp_max(m);
    float s = 0.0f;
    for (int j = lane; j < CLASSES; j += 32) s += expf(z[j] - m);
    s = warp_sum(s);
    const float log_z = m + logf(s);
    const int label = labels[row];
    for (int j = lane; j < CLASSES; j += 32) {
        const float p = expf(z[j] - log_z);
        grad[(size_t)row * CLASSES + j] = (p - (j == label ? 1.0f : 0.0f)) / batch;
    }
    if (lane == 0) losses[row] = log_z - z[label];
}

int main() {
    g_seed = 5151u;
    const int batch = 512;
    std::vector<float> logits((size_t)batch * CLASSES), grad(logits.size()), losses(batch);
    std::vector<int> labels(batch);
    for (auto& v : logits) v = 3.0f * next_uniform();
    for (auto& l : labels) l = (int)(next_u32() % CLASSES);
    float *dz, *dg, *dl;
    int* dlab;
    CUDA_CHECK(cudaMalloc(&dz, logits.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dg, grad.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dl, batch * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dlab, batch * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dz, logits.data(), logits.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dlab, labels.data(), batch * sizeof(int), cudaMemcpyHostToDevice));
    xent_forward_backward<<<batch * 32 / 256, 256>>>(dz, dlab, batch, dl, dg);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(grad.data(), dg, grad.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(losses.data(), dl, batch * sizeof(float), cudaMemcpyDeviceToHost));

    double loss_err = 0.0, grad_err = 0.0, mean_loss = 0.0, grad_row_sum = 0.0, grad_abs = 0.0;
    for (int i = 0; i < batch; ++i) {
        double m = -1e30, s = 0.0;
        for (int j = 0; j < CLASSES; ++j) m = fmax(m, (double)logits[i * CLASSES + j]);
        for (int j = 0; j < CLASSES; ++j) s += exp(logits[i * CLASSES + j] - m);
        const double log_z = m + log(s);
        loss_err = fmax(loss_err, fabs(log_z - logits[i * CLASSES + labels[i]] - losses[i]));
        mean_loss += losses[i];
        for (int j = 0; j < CLASSES; ++j) {
            const double ref = (exp(logits[i * CLASSES + j] - log_z) - (j == labels[i])) / batch;
            grad_err = fmax(grad_err, fabs(ref - grad[i * CLASSES + j]));
            grad_row_sum += grad[i * CLASSES + j];
            grad_abs += fabs(grad[i * CLASSES + j]);
        }
    }
    mean_loss /= batch;
    printf("cross entropy batch %d classes %d\n", batch, CLASSES);
    printf("mean_loss %.6e grad_abs_sum %.6e\n", mean_loss, grad_abs);
    printf("grad_sum_near_zero %d\n", fabs(grad_row_sum) < 1e-4 ? 1 : 0);
    const bool ok = loss_err < 1e-4 && grad_err < 1e-6;
    CUDA_CHECK(cudaFree(dz));
    CUDA_CHECK(cudaFree(dg));
    CUDA_CHECK(cudaFree(dl));
    CUDA_CHECK(cudaFree(dlab));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
