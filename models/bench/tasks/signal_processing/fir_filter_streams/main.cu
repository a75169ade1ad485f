// Multi-channel FIR low-pass filtering. Each channel is copied from pinned
// host memory, filtered and copied back on its own stream; an event per stream
// marks completion and the host waits on all events. Taps sit in constant
// memory; each block stages its input window (with the tap history) in shared
// memory. The tap count is a template parameter.
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

#define NUM_TAPS 31
#define BLOCK 256
static const int kChannels = 4;
static const int kSamples = 16384;
static const double kPi = 3.14159265358979323846;

__constant__ float cTaps[NUM_TAPS];

template <int TAPS>
__global__ void firFilter(const float* x, float* y, int n) {
    __shared__ float window[BLOCK + TAPS - 1];
    int base = blockIdx.x * BLOCK;
    for (int i = threadIdx.x; i < BLOCK + TAPS - 1; i += BLOCK) {
        int src = base + i - (TAPS - 1);
        window[i] = (src >= 0 && src < n) ? x[src] : 0.0f;
    }
    __syncthreads();
    int idx = base + threadIdx.x;
    if (idx >= n) return;
    float acc = 0.0f;
#pragma unroll
    for (int k = 0; k < TAPS; ++k) acc += cTaps[k] * window[threadIdx.x + TAPS - 1 - k];
    y[idx] = acc;
}

int main() {
    // windowed-sinc low-pass, cutoff 0.1 of the sample rate
    float taps[NUM_TAPS];
    double tapSum = 0.0;
    for (int k = 0; k < NUM_TAPS; ++k) {
        double m = k - (NUM_TAPS - 1) / 2.0;
        double sinc = (m == 0.0) ? 2 * 0.1 : sin(2 * kPi * 0.1 * m) / (kPi * m);
        double hamming = 0.54 - 0.46 * cos(2 * kPi * k / (NUM_TAPS - 1));
        taps[k] = (float)(sinc * hamming);
        tapSum += taps[k];
    }
    for (int k = 0; k < NUM_TAPS; ++k) taps[k] = (float)(taps[k] / tapSum);
    CUDA_CHECK(cudaMemcpyToSymbol(cTaps, taps, sizeof(taps)));

    size_t chanBytes = kSamples * sizeof(float);
    float *hIn, *hOut, *dIn, *dOut;
    CUDA_CHECK(cudaMallocHost(&hIn, kChannels * chanBytes));
    CUDA_CHECK(cudaMallocHost(&hOut, kChannels * chanBytes));
    CUDA_CHECK(cudaMalloc(&dIn, kChannels * chanBytes));
    CUDA_CHECK(cudaMalloc(&dOut, kChannels * chanBytes));
    uint32_t s = 31415926u;
    for (int c = 0; c < kChannels; ++c)
        for (int n = 0; n < kSamples; ++n) {
            s ^= s << 13; s ^= s >> 17; s ^= s << 5;
            float noise = ((int)(s & 0xffff) - 32768) / 32768.0f;
            hIn[c * kSamples + n] = (float)sin(2 * kPi * (0.01 + 0.005 * c) * n) + 0.5f * noise;
        }
    cudaStream_t streams[kChannels];
    cudaEvent_t done[kChannels];
    for (int c = 0; c < kChannels; ++c) {
        CUDA_CHECK(cudaStreamCreate(&streams[c]));
        CUDA_CHECK(cudaEventCreateWithFlags(&done[c], cudaEventDisableTiming));
    }
    int blocks = (kSamples + BLOCK - 1) / BLOCK;
    for (int c = 0; c < kChannels; ++c) {
        size_t off = (size_t)c * kSamples;
        CUDA_CHECK(cudaMemcpyAsync(dIn + off, hIn + off, chanBytes, cudaMemcpyHostToDevice, streams[c]));
        firFilter<NUM_TAPS><<<blocks, BLOCK, 0, streams[c]>>>(dIn + off, dOut + off, kSamples);
        CUDA_CHECK(cudaGetLastError());
        CUDA_CHECK(cudaMemcpyAsync(hOut + off, dOut + off, chanBytes, cudaMemcpyDeviceToHost, streams[c]));
        CUDA_CHECK(cudaEventRecord(done[c], streams[c]));
    }
    for (int c = 0; c < kChannels; ++c) CUDA_CHECK(cudaEventSynchronize(done[c]));

    double maxErr = 0.0;
    printf("channels %d samples %d taps %d\n", kChannels, kSamples, NUM_TAPS);
    for (int c = 0; c < kChannels; ++c) {
        double energyIn = 0.0, energyOut = 0.0;
        for (int n = 0; n < kSamples; ++n) {
            float acc = 0.0f;
            for (int k = 0; k < NUM_TAPS; ++k) {
                int src = n - k;
                acc += taps[k] * (src >= 0 ? hIn[c * kSamples + src] : 0.0f);
            }
            float g = hOut[c * kSamples + n];
            maxErr = fmax(maxErr, fabs((double)g - acc));
            energyIn += (double)hIn[c * kSamples + n] * hIn[c * kSamples + n];
            energyOut += (double)g * g;
        }
        printf("channel %d energy in %.6e out %.6e y[5000] %.6e\n", c, energyIn, energyOut, hOut[c * kSamples + 5000]);
    }
    bool ok = maxErr < 1e-4;
    printf("max abs error below 1e-4: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    for (int c = 0; c < kChannels; ++c) {
        CUDA_CHECK(cudaStreamDestroy(streams[c]));
        CUDA_CHECK(cudaEventDestroy(done[c]));
    }
    CUDA_CHECK(cudaFreeHost(hIn)); CUDA_CHECK(cudaFreeHost(hOut));
    CUDA_CHECK(cudaFree(dIn)); CUDA_CHECK(cudaFree(dOut));
    return ok ? 0 : 1;
}
