// Monte Carlo volumes of the unit ball in 2, 3 and 4 dimensions with Thrust.
// Sample i's coordinates come from a counter-based integer hash, so points are
// reproducible anywhere; the inside test is exact integer arithmetic. A
// transform_reduce over a counting iterator sums a small struct of counters.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <cuda_runtime.h>
#include <thrust/transform_reduce.h>
#include <thrust/iterator/counting_iterator.h>
#include <thrust/execution_policy.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                        \
            exit(2);                                                            \
        }                                                                       \
    } while (0)

static const uint32_t kSamples = 1u << 19;
static const uint32_t kSeed = 0x51A7E5u;

struct BallCounts {
    unsigned long long inside[3];   // dimensions 2, 3, 4
};

__host__ __device__ inline uint32_t hash2(uint32_t a, uint32_t b) {
    uint32_t h = a * 0x9E3779B1u + b * 0x85EBCA77u + kSeed;
    h ^= h >> 16; h *= 0x7FEB352Du;
    h ^= h >> 15; h *= 0x846CA68Bu;
    h ^= h >> 16;
    return h;
}

struct SamplePoint {
    __host__ __device__ BallCounts operator()(uint32_t i) const {
        BallCounts c = {{0, 0, 0}};
        int64_t r2 = 0;
        const int64_t radius2 = 32768LL * 32768LL;
        for (int d = 0; d < 4; ++d) {
            int64_t x = (int64_t)(hash2(i, (uint32_t)d) >> 16) - 32768;   // in [-32768, 32767]
            r2 += x * x;
            if (d >= 1) c.inside[d - 1] = (r2 <= radius2);
        }
        return c;
    }
};

struct AddCounts {
    __host__ __device__ BallCounts operator()(const BallCounts& a, const BallCounts& b) const {
        BallCounts r;
        for (int k = 0; k < 3; ++k) r.inside[k] = a.inside[k] + b.inside[k];
        return r;
    }
};

int main() {
    BallCounts zero = {{0, 0, 0}};
    BallCounts gpu = thrust::transform_reduce(thrust::device, thrust::counting_iterator<uint32_t>(0),
                                              thrust::counting_iterator<uint32_t>(kSamples), SamplePoint(), zero, AddCounts());
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaDeviceSynchronize());

    BallCounts ref = zero;
    SamplePoint sample;
    for (uint32_t i = 0; i < kSamples; ++i) ref = AddCounts()(ref, sample(i));
    const double exact[3] = {M_PI, 4.0 * M_PI / 3.0, M_PI * M_PI / 2.0};
    bool ok = true;
    printf("samples %u\n", kSamples);
    for (int k = 0; k < 3; ++k) {
        int dim = k + 2;
        double cube = pow(2.0, dim);
        double volume = cube * (double)gpu.inside[k] / kSamples;
        double p = exact[k] / cube;
        double tol = 6.0 * cube * sqrt(p * (1 - p) / kSamples);
        bool good = gpu.inside[k] == ref.inside[k] && fabs(volume - exact[k]) < tol;
        ok = ok && good;
        printf("dimension %d inside %llu volume %.5f exact %.5f\n", dim, gpu.inside[k], volume, exact[k]);
    }
    printf("counts match reference and volumes within 6 sigma: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
