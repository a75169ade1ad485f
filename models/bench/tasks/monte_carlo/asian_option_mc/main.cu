// Monte Carlo pricing of a European call and an arithmetic-average Asian call
// under geometric Brownian motion (16 monitoring dates). Normals come from a
// counter-based hash and Box-Muller; each thread simulates one path, blocks
// reduce discounted payoffs (and squares) in double precision in shared memory.
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

#define THREADS 256
static const int kPaths = 16384;
static const int kSteps = 16;

struct Market { float s0, strike, rate, vol, maturity; };

__host__ __device__ inline uint32_t hash3(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t h = a * 0x9E3779B1u ^ (b * 0x85EBCA77u + c * 0xC2B2AE3Du + 0x27D4EB2Fu);
    h ^= h >> 16; h *= 0x7FEB352Du; h ^= h >> 15; h *= 0x846CA68Bu; h ^= h >> 16;
    return h;
}

__host__ __device__ inline float normalDraw(uint32_t path, uint32_t step) {
    float u1 = ((hash3(path, step, 1u) >> 8) + 0.5f) * (1.0f / 16777216.0f);   // (0, 1)
    float u2 = ((hash3(path, step, 2u) >> 8) + 0.5f) * (1.0f / 16777216.0f);
    return sqrtf(-2.0f * logf(u1)) * cosf(6.28318530718f * u2);
}

// returns discounted European and Asian payoffs of one path
__host__ __device__ inline void simulatePath(const Market& m, uint32_t path, float* euro, float* asian) {
    float dt = m.maturity / kSteps;
    float drift = (m.rate - 0.5f * m.vol * m.vol) * dt, diffusion = m.vol * sqrtf(dt);
    float s = m.s0, sum = 0.0f;
    for (int k = 0; k < kSteps; ++k) {
        s *= expf(drift + diffusion * normalDraw(path, (uint32_t)k));
        sum += s;
    }
    float disc = expf(-m.rate * m.maturity);
    *euro = disc * fmaxf(s - m.strike, 0.0f);
    *asian = disc * fmaxf(sum / kSteps - m.strike, 0.0f);
}

__global__ void __launch_bounds__(THREADS) pricePaths(Market m, double* partial) {
    __shared__ double acc[4][THREADS];
    uint32_t path = blockIdx.x * THREADS + threadIdx.x;
    float e, a;
    simulatePath(m, path, &e, &a);
    acc[0][threadIdx.x] = e; acc[1][threadIdx.x] = (double)e * e;
    acc[2][threadIdx.x] = a; acc[3][threadIdx.x] = (double)a * a;
    __syncthreads();
    for (int stride = THREADS / 2; stride > 0; stride >>= 1) {
        if (threadIdx.x < stride)
            for (int q = 0; q < 4; ++q) acc[q][threadIdx.x] += acc[q][threadIdx.x + stride];
        __syncthreads();
    }
    if (threadIdx.x < 4) partial[blockIdx.x * 4 + threadIdx.x] = acc[threadIdx.x][0];
}

static double normCdf(double x) { return 0.5 * erfc(-x / sqrt(2.0)); }

int main() {
    Market m = {100.0f, 105.0f, 0.03f, 0.25f, 1.0f};
    const int blocks = kPaths / THREADS;
    double* dPartial;
    CUDA_CHECK(cudaMalloc(&dPartial, blocks * 4 * sizeof(double)));
    pricePaths<<<blocks, THREADS>>>(m, dPartial);
    CUDA_CHECK(cudaGetLastError());
    std::vector<double> partial(blocks * 4);
    CUDA_CHECK(cudaMemcpy(partial.data(), dPartial, partial.size() * sizeof(double), cudaMemcpyDeviceToHost));
    double sums[4] = {0, 0, 0, 0};
    for (int b = 0; b < blocks; ++b) for (int q = 0; q < 4; ++q) sums[q] += partial[b * 4 + q];

    double ref[2] = {0, 0};
    for (uint32_t p = 0; p < (uint32_t)kPaths; ++p) {
        float e, a;
        simulatePath(m, p, &e, &a);
        ref[0] += e; ref[1] += a;
    }
    double euro = sums[0] / kPaths, asian = sums[2] / kPaths;
    double euroErr = sqrt((sums[1] / kPaths - euro * euro) / kPaths);
    double asianErr = sqrt((sums[3] / kPaths - asian * asian) / kPaths);
    // Black-Scholes closed form for the European call (the MC sees 16 compounded steps: same law)
    double d1 = (log(m.s0 / m.strike) + (m.rate + 0.5 * m.vol * m.vol) * m.maturity) / (m.vol * sqrt((double)m.maturity));
    double d2 = d1 - m.vol * sqrt((double)m.maturity);
    double bs = m.s0 * normCdf(d1) - m.strike * exp(-m.rate * m.maturity) * normCdf(d2);
    printf("paths %d steps %d\n", kPaths, kSteps);
    printf("european call %.6e (std err %.3e) black-scholes %.6e\n", euro, euroErr, bs);
    printf("asian call %.6e (std err %.3e)\n", asian, asianErr);
    bool matchesCpu = fabs(euro - ref[0] / kPaths) < 1e-4 * euro && fabs(asian - ref[1] / kPaths) < 1e-4 * asian;
    bool matchesTheory = fabs(euro - bs) < 4 * euroErr && asian < euro;
    printf("matches host simulation: %s, consistent with theory: %s\n", matchesCpu ? "yes" : "no", matchesTheory ? "yes" : "no");
    bool ok = matchesCpu && matchesTheory;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dPartial));
    return ok ? 0 : 1;
}
