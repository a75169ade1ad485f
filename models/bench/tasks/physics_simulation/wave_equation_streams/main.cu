// 1D wave equation (leapfrog) for four strings with different tensions. Each
// string runs 200 time steps inside one 1024-thread block (three time levels
// in shared memory) on its own stream from pinned host memory. Events order a
// final energy kernel on stream 0 after all strings finish.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                        \
            exit(2);                                                            \
        }                                                                       \
    } while (0)

#define POINTS 1024
static const int kStrings = 4;
static const int kSteps = 200;

__host__ __device__ inline float waveUpdate(float left, float mid, float right, float prev, float c2) {
    return 2.0f * mid - prev + c2 * (left - 2.0f * mid + right);
}

__global__ void simulateString(float* u, float c2, int steps) {
    __shared__ float level[3][POINTS];
    int i = threadIdx.x;
    level[0][i] = u[i];          // u(t - dt)
    level[1][i] = u[i];          // u(t): string starts at rest
    __syncthreads();
    int prev = 0, cur = 1, next = 2;
    for (int t = 0; t < steps; ++t) {
        float v = 0.0f;          // fixed ends
        if (i > 0 && i < POINTS - 1)
            v = waveUpdate(level[cur][i - 1], level[cur][i], level[cur][i + 1], level[prev][i], c2);
        level[next][i] = v;
        __syncthreads();
        int tmp = prev; prev = cur; cur = next; next = tmp;
    }
    u[i] = level[cur][i];
    u[POINTS + i] = level[prev][i];
}

__global__ void stringEnergy(const float* all, float* energy, const float* c2) {
    __shared__ float part[256];
    int sIdx = blockIdx.x;
    const float* u = all + (size_t)sIdx * 2 * POINTS;
    float e = 0.0f;
    for (int i = threadIdx.x; i < POINTS - 1; i += blockDim.x) {
        float vel = u[i] - u[POINTS + i];
        float strain = u[i + 1] - u[i];
        e += 0.5f * vel * vel + 0.5f * c2[sIdx] * strain * strain;
    }
    part[threadIdx.x] = e;
    __syncthreads();
    for (int stride = 128; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride) part[threadIdx.x] += part[threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x == 0) energy[sIdx] = part[0];
}

int main() {
    float c2[kStrings] = {0.1f, 0.2f, 0.35f, 0.5f};
    size_t stride = 2 * POINTS;
    float *hU, *dU, *dEnergy, *dC2;
    CUDA_CHECK(cudaMallocHost(&hU, kStrings * stride * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dU, kStrings * stride * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dEnergy, kStrings * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dC2, sizeof(c2)));
    CUDA_CHECK(cudaMemcpy(dC2, c2, sizeof(c2), cudaMemcpyHostToDevice));
    uint32_t s = 1729u;
    for (int k = 0; k < kStrings; ++k)
        for (int i = 0; i < POINTS; ++i) {
            s = s * 1664525u + 1013904223u;
            float x = (i - 300.0f - 100.0f * k) / 40.0f;
            float pluck = expf(-x * x);
            hU[k * stride + i] = (i == 0 || i == POINTS - 1) ? 0.0f : pluck + ((s >> 24) & 3) * 1e-3f;
            hU[k * stride + POINTS + i] = 0.0f;
        }
    cudaStream_t streams[kStrings];
    cudaEvent_t finished[kStrings];
    for (int k = 0; k < kStrings; ++k) {
        CUDA_CHECK(cudaStreamCreateWithFlags(&streams[k], cudaStreamNonBlocking));
        CUDA_CHECK(cudaEventCreateWithFlags(&finished[k], cudaEventDisableTiming));
    }
    for (int k = 0; k < kStrings; ++k) {
        float* d = dU + k * stride;
        CUDA_CHECK(cudaMemcpyAsync(d, hU + k * stride, stride * sizeof(float), cudaMemcpyHostToDevice, streams[k]));
        simulateString<<<1, POINTS, 0, streams[k]>>>(d, c2[k], kSteps);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaEventRecord(finished[k], streams[k]));
    }
    for (int k = 1; k < kStrings; ++k) CUDA_CHECK(cudaStreamWaitEvent(streams[0], finished[k], 0));
    stringEnergy<<<kStrings, 256, 0, streams[0]>>>(dU, dEnergy, dC2);
    CUDA_CHECK(cudaGetLastError());
    float energy[kStrings];
    CUDA_CHECK(cudaMemcpyAsync(hU, dU, kStrings * stride * sizeof(float), cudaMemcpyDeviceToHost, streams[0]));
    CUDA_CHECK(cudaMemcpyAsync(energy, dEnergy, sizeof(energy), cudaMemcpyDeviceToHost, streams[0]));
    CUDA_CHECK(cudaStreamSynchronize(streams[0]));

    // CPU reference: same recurrence
    double maxErr = 0.0;
    uint32_t s2 = 1729u;
    for (int k = 0; k < kStrings; ++k) {
        std::vector<float> prev(POINTS), cur(POINTS), next(POINTS);
        for (int i = 0; i < POINTS; ++i) {
            s2 = s2 * 1664525u + 1013904223u;
            float x = (i - 300.0f - 100.0f * k) / 40.0f;
            cur[i] = (i == 0 || i == POINTS - 1) ? 0.0f : expf(-x * x) + ((s2 >> 24) & 3) * 1e-3f;
        }
        prev = cur;
        for (int t = 0; t < kSteps; ++t) {
            for (int i = 0; i < POINTS; ++i)
                next[i] = (i > 0 && i < POINTS - 1) ? waveUpdate(cur[i - 1], cur[i], cur[i + 1], prev[i], c2[k]) : 0.0f;
            prev.swap(cur); cur.swap(next);
        }
        double e = 0.0;
        for (int i = 0; i < POINTS; ++i) maxErr = fmax(maxErr, fabs(hU[k * stride + i] - cur[i]));
        for (int i = 0; i < POINTS - 1; ++i) {
            double vel = cur[i] - prev[i], strain = cur[i + 1] - cur[i];
            e += 0.5 * vel * vel + 0.5 * c2[k] * strain * strain;
        }
        double relE = fabs(energy[k] - e) / e;
        if (relE > 1e-3) maxErr = fmax(maxErr, 1.0);
        printf("string %d c^2 %.2f energy %.5e u[512] %.5e\n", k, c2[k], energy[k], hU[k * stride + 512]);
    }
    bool ok = maxErr < 1e-3;
    printf("max displacement error below 1e-3: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    for (int k = 0; k < kStrings; ++k) {
        CUDA_CHECK(cudaStreamDestroy(streams[k]));
        CUDA_CHECK(cudaEventDestroy(finished[k]));
    }
    CUDA_CHECK(cudaFreeHost(hU)); CUDA_CHECK(cudaFree(dU)); CUDA_CHECK(cudaFree(dEnergy)); CUDA_CHECK(cudaFree(dC2));
    return ok ? 0 : 1;
}
