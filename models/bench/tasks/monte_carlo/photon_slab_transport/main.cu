// Analog Monte Carlo photon transport through a 1D slab (2 mean free paths
// thick, single-scattering albedo 0.7, isotropic scattering). Each thread
// follows one photon with its own xorshift64* stream; tallies of transmitted,
// reflected and absorbed photons and an absorption-depth histogram are kept
// per block in shared memory and merged with global atomics.
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

static const int kPhotons = 32768;
static const float kThickness = 2.0f;
static const float kAlbedo = 0.7f;
static const int kDepthBins = 8;
static const int kMaxCollisions = 200;
enum Fate { kTransmitted = 0, kReflected = 1, kAbsorbed = 2, kLost = 3 };

struct Rng {
    uint64_t s;
    __host__ __device__ explicit Rng(uint64_t seed) : s(seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull) {
        if (!s) s = 1;
    }
    __host__ __device__ float uniform() {            // (0, 1]
        s ^= s >> 12; s ^= s << 25; s ^= s >> 27;
        uint64_t r = s * 0x2545F4914F6CDD1Dull;
        return ((uint32_t)(r >> 40) + 1u) * (1.0f / 16777216.0f);
    }
};

__host__ __device__ inline int tracePhoton(uint32_t id, int* depthBin) {
    Rng rng(id);
    float z = 0.0f, mu = 1.0f;
    for (int c = 0; c < kMaxCollisions; ++c) {
        z += mu * (-logf(rng.uniform()));
        if (z >= kThickness) return kTransmitted;
        if (z < 0.0f) return kReflected;
        if (rng.uniform() > kAlbedo) {
            int bin = (int)(z / kThickness * kDepthBins);
            *depthBin = bin < kDepthBins ? bin : kDepthBins - 1;
            return kAbsorbed;
        }
        mu = 2.0f * rng.uniform() - 1.0f;
    }
    return kLost;
}

__global__ void transport(unsigned int* fates, unsigned int* depth) {
    __shared__ unsigned int localFates[4];
    __shared__ unsigned int localDepth[kDepthBins];
    if (threadIdx.x < 4) localFates[threadIdx.x] = 0;
    if (threadIdx.x < kDepthBins) localDepth[threadIdx.x] = 0;
    __syncthreads();
    uint32_t id = blockIdx.x * blockDim.x + threadIdx.x;
    if (id < (uint32_t)kPhotons) {
        int bin = -1;
        int fate = tracePhoton(id, &bin);
        atomicAdd(&localFates[fate], 1u);
        if (fate == kAbsorbed) atomicAdd(&localDepth[bin], 1u);
    }
    __syncthreads();
    if (threadIdx.x < 4 && localFates[threadIdx.x]) atomicAdd(&fates[threadIdx.x], localFates[threadIdx.x]);
    if (threadIdx.x < kDepthBins && localDepth[threadIdx.x]) atomicAdd(&depth[threadIdx.x], localDepth[threadIdx.x]);
}

int main() {
    unsigned int *dFates, *dDepth;
    CUDA_CHECK(cudaMalloc(&dFates, 4 * sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&dDepth, kDepthBins * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemset(dFates, 0, 4 * sizeof(unsigned int)));
    CUDA_CHECK(cudaMemset(dDepth, 0, kDepthBins * sizeof(unsigned int)));
    transport<<<kPhotons / 128, 128>>>(dFates, dDepth);
    CUDA_CHECK(cudaGetLastError());
    unsigned int fates[4], depth[kDepthBins];
    CUDA_CHECK(cudaMemcpy(fates, dFates, sizeof(fates), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(depth, dDepth, sizeof(depth), cudaMemcpyDeviceToHost));

    unsigned int ref[4] = {0, 0, 0, 0}, refDepth[kDepthBins] = {0};
    for (uint32_t id = 0; id < (uint32_t)kPhotons; ++id) {
        int bin = -1;
        int fate = tracePhoton(id, &bin);
        ref[fate]++;
        if (fate == kAbsorbed) refDepth[bin]++;
    }
    // math-library results may differ in the last bit between host and device: allow a few photons
    unsigned int worst = 0;
    for (int k = 0; k < 4; ++k) worst = worst > (unsigned)abs((int)fates[k] - (int)ref[k]) ? worst : (unsigned)abs((int)fates[k] - (int)ref[k]);
    for (int b = 0; b < kDepthBins; ++b) worst = worst > (unsigned)abs((int)depth[b] - (int)refDepth[b]) ? worst : (unsigned)abs((int)depth[b] - (int)refDepth[b]);
    double meanBin = 0.0;
    for (int b = 0; b < kDepthBins; ++b) meanBin += (b + 0.5) * depth[b];
    meanBin /= (fates[kAbsorbed] ? fates[kAbsorbed] : 1);
    printf("photons %d thickness %.1f albedo %.2f\n", kPhotons, kThickness, kAlbedo);
    printf("transmitted %u reflected %u absorbed %u lost %u\n", fates[0], fates[1], fates[2], fates[3]);
    printf("transmission %.4f reflection %.4f mean absorption bin %.4f\n", fates[0] / (double)kPhotons,
           fates[1] / (double)kPhotons, meanBin);
    printf("largest tally difference from host run %s\n", worst <= (unsigned)(kPhotons / 200) ? "within 0.5%" : "too large");
    bool ok = worst <= (unsigned)(kPhotons / 200) && fates[0] + fates[1] + fates[2] + fates[3] == (unsigned)kPhotons;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dFates)); CUDA_CHECK(cudaFree(dDepth));
    return ok ? 0 : 1;
}
