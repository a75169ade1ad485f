// Particle-in-cell charge deposition with cloud-in-cell weights on a periodic
// 64x64 grid (float atomicAdd scatter), followed by a gather of the smoothed
// density gradient back to the particles. Sums are compared with tolerances
// because the order of float atomics is not fixed.
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

static const int kGrid = 64;
static const int kParticles = 32768;

struct Particle { float x, y, q, pad; };

__host__ __device__ inline int wrap(int i) { return (i + kGrid) % kGrid; }

__global__ void depositCic(const Particle* p, float* rho, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Particle pt = p[i];
    int ix = (int)floorf(pt.x), iy = (int)floorf(pt.y);
    float fx = pt.x - ix, fy = pt.y - iy;
    atomicAdd(&rho[wrap(iy) * kGrid + wrap(ix)], pt.q * (1 - fx) * (1 - fy));
    atomicAdd(&rho[wrap(iy) * kGrid + wrap(ix + 1)], pt.q * fx * (1 - fy));
    atomicAdd(&rho[wrap(iy + 1) * kGrid + wrap(ix)], pt.q * (1 - fx) * fy);
    atomicAdd(&rho[wrap(iy + 1) * kGrid + wrap(ix + 1)], pt.q * fx * fy);
}

// central-difference gradient of rho interpolated at the particle (same CIC weights)
__global__ void gatherGradient(const Particle* p, const float* rho, float2* force, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Particle pt = p[i];
    int ix = (int)floorf(pt.x), iy = (int)floorf(pt.y);
    float fx = pt.x - ix, fy = pt.y - iy;
    float2 f = make_float2(0.0f, 0.0f);
    for (int dy = 0; dy <= 1; ++dy)
        for (int dx = 0; dx <= 1; ++dx) {
            int cx = wrap(ix + dx), cy = wrap(iy + dy);
            float w = (dx ? fx : 1 - fx) * (dy ? fy : 1 - fy);
            f.x -= w * 0.5f * (rho[cy * kGrid + wrap(cx + 1)] - rho[cy * kGrid + wrap(cx - 1)]);
            f.y -= w * 0.5f * (rho[wrap(cy + 1) * kGrid + cx] - rho[wrap(cy - 1) * kGrid + cx]);
        }
    force[i] = make_float2(f.x * pt.q, f.y * pt.q);
}

int main() {
    std::vector<Particle> parts(kParticles);
    uint32_t s = 1602176u;
    auto uni = [&s]() { s = s * 1664525u + 1013904223u; return (s >> 8) / 16777216.0f; };
    for (int i = 0; i < kParticles; ++i) {
        // two clumps plus a uniform background
        float cx = (i % 3 == 0) ? 20.0f : ((i % 3 == 1) ? 44.0f : kGrid * uni());
        float cy = (i % 3 == 0) ? 30.0f : ((i % 3 == 1) ? 36.0f : kGrid * uni());
        float r = (i % 3 == 2) ? 0.0f : 6.0f * uni(), a = 6.2831853f * uni();
        float x = fmodf(cx + r * cosf(a) + kGrid, (float)kGrid), y = fmodf(cy + r * sinf(a) + kGrid, (float)kGrid);
        parts[i] = Particle{x, y, (i % 7 == 0) ? -1.0f : 1.0f, 0.0f};
    }
    Particle* dParts; float* dRho; float2* dForce;
    CUDA_CHECK(cudaMalloc(&dParts, kParticles * sizeof(Particle)));
    CUDA_CHECK(cudaMalloc(&dRho, kGrid * kGrid * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dForce, kParticles * sizeof(float2)));
    CUDA_CHECK(cudaMemcpy(dParts, parts.data(), kParticles * sizeof(Particle), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dRho, 0, kGrid * kGrid * sizeof(float)));
    depositCic<<<kParticles / 256, 256>>>(dParts, dRho, kParticles);
    CUDA_CHECK(cudaGetLastError());
    gatherGradient<<<kParticles / 256, 256>>>(dParts, dRho, dForce, kParticles);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> rho(kGrid * kGrid);
    std::vector<float2> force(kParticles);
    CUDA_CHECK(cudaMemcpy(rho.data(), dRho, rho.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(force.data(), dForce, force.size() * sizeof(float2), cudaMemcpyDeviceToHost));

    std::vector<double> ref(kGrid * kGrid, 0.0);
    for (const Particle& pt : parts) {
        int ix = (int)floorf(pt.x), iy = (int)floorf(pt.y);
        double fx = pt.x - ix, fy = pt.y - iy;
        ref[wrap(iy) * kGrid + wrap(ix)] += pt.q * (1 - fx) * (1 - fy);
        ref[wrap(iy) * kGrid + wrap(ix + 1)] += pt.q * fx * (1 - fy);
        ref[wrap(iy + 1) * kGrid + wrap(ix)] += pt.q * (1 - fx) * fy;
        ref[wrap(iy + 1) * kGrid + wrap(ix + 1)] += pt.q * fx * fy;
    }
    double maxErr = 0.0, total = 0.0, absTotal = 0.0, peak = 0.0;
    for (int c = 0; c < kGrid * kGrid; ++c) {
        maxErr = fmax(maxErr, fabs(rho[c] - ref[c]));
        total += rho[c]; absTotal += fabs(rho[c]); peak = fmax(peak, rho[c]);
    }
    double forceNorm = 0.0;
    for (int i = 0; i < kParticles; ++i) forceNorm += sqrt((double)force[i].x * force[i].x + (double)force[i].y * force[i].y);
    printf("particles %d grid %dx%d\n", kParticles, kGrid, kGrid);
    printf("total charge %.4e abs charge %.4e peak density %.4e\n", total, absTotal, peak);
    printf("rho[30,20] %.4e rho[36,44] %.4e mean |force| %.4e\n", rho[30 * kGrid + 20], rho[36 * kGrid + 44], forceNorm / kParticles);
    bool ok = maxErr < 1e-2;
    printf("deposit matches reference within 1e-2: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dParts)); CUDA_CHECK(cudaFree(dRho)); CUDA_CHECK(cudaFree(dForce));
    return ok ? 0 : 1;
}
