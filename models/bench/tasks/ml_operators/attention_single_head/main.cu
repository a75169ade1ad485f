// Scaled dot-product attention for one head: a block per query row, scores and softmax in shared memory.
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

constexpr int SEQ = 64, DIM = 32;

__global__ void attention_row(const float* __restrict__ Q, const float* __restrict__ K,
                              const float* __restrict__ V, float* __restrict__ O, float scale,
                              bool causal) {
    __shared__ float q[DIM];
    __shared__ float p[SEQ];
    __shared__ float stats[2];
    const int row = blockIdx.x, t = threadIdx.x;  // SEQ threads
    if (t < DIM) q[t] = Q[row * DIM + t];
    __syncthreads();
    float s = 0.0f;
    for (int d = 0; d < DIM; ++d) s += q[d] * K[t * DIM + d];
    p[t] = (causal && t > row) ? -INFINITY : s * scale;
    __syncthreads();
    if (t == 0) {  // short serial max/sum: SEQ is small
        float m = -INFINITY;
        for (int j = 0; j < SEQ; ++j) m = fmaxf(m, p[j]);
        stats[0] = m;
    }
    __syncthreads();
    p[t] = expf(p[t] - stats[0]);
    __syncthreads();
    if (t == 0) {
        float sum = 0.0f;
        for (int j = 0; j < SEQ; ++j) sum += p[j];
        stats[1] = 1.0f / sum;
    }
    __syncthreads();
    if (t < DIM) {
        float acc = 0.0f;
        for (int j = 0; j < SEQ; ++j) acc += p[j] * V[j * DIM + t];
        O[row * DIM + t] = acc * stats[1];
    }
}

static void attention_reference(const std::vector<float>& Q, const std::vector<float>& K,
                                const std::vector<float>& V, std::vector<double>& O, float scale,
                                bool causal) {
    for (int i = 0; i < SEQ; ++i) {
        double p[SEQ], m = -1e300, sum = 0.0;
        for (int j = 0; j < SEQ; ++j) {
            double s = 0.0;
            for (int d = 0; d < DIM; ++d) s += (double)Q[i * DIM + d] * K[j * DIM + d];
            p[j] = (causal && j > i) ? -1e300 : s * scale;
            m = fmax(m, p[j]);
        }
        for (int j = 0; j < SEQ; ++j) {
            p[j] = (causal && j > i) ? 0.0 : exp(p[j] - m);
            sum += p[j];
        }
        for (int d = 0; d < DIM; ++d) {
            double acc = 0.0;
            for (int j = 0; j < SEQ; ++j) acc += p[j] * V[j * DIM + d];
            O[i * DIM + d] = acc / sum;
        }
    }
}

int main() {
    g_seed = 4096u;
    std::vector<float> Q(SEQ * DIM), K(SEQ * DIM), V(SEQ * DIM), O(SEQ * DIM);
    for (auto& v : Q) v = next_uniform();
    for (auto& v : K) v = next_uniform();
    for (auto& v : V) v = next_uniform();
    const float scale = 1.0f / sqrtf((float)DIM) * 2.0f;
    float *dQ, *dK, *dV, *dO;
    CUDA_CHECK(cudaMalloc(&dQ, Q.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dK, K.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dV, V.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dO, O.size() * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dQ, Q.data(), Q.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dK, K.data(), K.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dV, V.data(), V.size() * sizeof(float), cudaMemcpyHostToDevice));
    bool ok = true;
    for (int causal = 0; causal <= 1; ++causal) {
        attention_row<<<SEQ, SEQ>>>(dQ, dK, dV, dO, scale, causal != 0);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpy(O.data(), dO, O.size() * sizeof(float), cudaMemcpyDeviceToHost));
        std::vector<double> ref(SEQ * DIM);
        attention_reference(Q, K, V, ref, scale, causal != 0);
        double max_err = 0.0, abs_sum = 0.0;
        for (int i = 0; i < SEQ * DIM; ++i) {
            max_err = fmax(max_err, fabs(ref[i] - O[i]));
            abs_sum += fabs(O[i]);
        }
        if (max_err > 1e-5) ok = false;
        printf("%s: abs_sum %.6e O[0][0] %.6e O[%d][%d] %.6e\n", causal ? "causal" : "full", abs_sum,
               O[0], SEQ - 1, DIM - 1, O[SEQ * DIM - 1]);
    }
    CUDA_CHECK(cudaFree(dQ));
    CUDA_CHECK(cudaFree(dK));
    CUDA_CHECK(cudaFree(dV));
    CUDA_CHECK(cudaFree(dO));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
