// Smoothed-particle hydrodynamics in 2D: density with the poly6 kernel and
// pressure forces with the spiky gradient, over a uniform cell grid built on
// the host (particles sorted by cell). Two kernels: density/pressure, then
// forces. Read-only neighbour data goes through __ldg.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <algorithm>
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

static const int kParticles = 2048;
static const float kH = 0.04f;
static const int kCells = 25;                   // 1 / kH cells per side
static const float kMass = 1.0f / kParticles;
static const float kStiffness = 2.0f, kRestDensity = 1.0f;
static const float kPi = 3.14159265f;

struct Grid { const float2* pos; const int* cellStart; const int* cellEnd; };

__host__ __device__ inline int cellOf(float v) { int c = (int)(v / kH); return c < 0 ? 0 : (c >= kCells ? kCells - 1 : c); }

__host__ __device__ inline float poly6(float r2) {
    float d = kH * kH - r2;
    return d > 0.0f ? 4.0f / (kPi * powf(kH, 8.0f)) * d * d * d : 0.0f;
}

__host__ __device__ inline float densityAt(const float2* pos, const int* cs, const int* ce, int i) {
    float2 p = pos[i];
    int cx = cellOf(p.x), cy = cellOf(p.y);
    float rho = 0.0f;
    for (int y = cy - 1; y <= cy + 1; ++y)
        for (int x = cx - 1; x <= cx + 1; ++x) {
            if (x < 0 || y < 0 || x >= kCells || y >= kCells) continue;
            int c = y * kCells + x;
            for (int j = cs[c]; j < ce[c]; ++j) {
                float dx = pos[j].x - p.x, dy = pos[j].y - p.y;
                rho += kMass * poly6(dx * dx + dy * dy);
            }
        }
    return rho;
}

__host__ __device__ inline float2 forceAt(const float2* pos, const int* cs, const int* ce, const float* rho, const float* pr, int i) {
    float2 p = pos[i], f = make_float2(0.0f, 0.0f);
    int cx = cellOf(p.x), cy = cellOf(p.y);
    const float spiky = -10.0f / (kPi * powf(kH, 5.0f));
    for (int y = cy - 1; y <= cy + 1; ++y)
        for (int x = cx - 1; x <= cx + 1; ++x) {
            if (x < 0 || y < 0 || x >= kCells || y >= kCells) continue;
            int c = y * kCells + x;
            for (int j = cs[c]; j < ce[c]; ++j) {
                if (j == i) continue;
                float dx = p.x - pos[j].x, dy = p.y - pos[j].y;
                float r = sqrtf(dx * dx + dy * dy);
                if (r >= kH || r == 0.0f) continue;
                float d = kH - r;
                float scale = -kMass * (pr[i] + pr[j]) / (2.0f * rho[j]) * spiky * d * d / r;
                f.x += scale * dx; f.y += scale * dy;
            }
        }
    return f;
}

__global__ void computeDensity(Grid g, float* rho, float* pressure, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float r = densityAt(g.pos, g.cellStart, g.cellEnd, i);
    rho[i] = r;
    pressure[i] = kStiffness * (r - kRestDensity);
}

__global__ void computeForces(Grid g, const float* __restrict__ rho, const float* __restrict__ pressure, float2* force, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    // warm the read-only path for this particle's own values
    float ownRho = __ldg(&rho[i]);
    float2 f = forceAt(g.pos, g.cellStart, g.cellEnd, rho, pressure, i);
    force[i] = make_float2(f.x / ownRho, f.y / ownRho);        // acceleration
}

int main() {
    std::vector<float2> raw(kParticles);
    uint32_t s = 1000001u;
    for (int i = 0; i < kParticles; ++i) {
        s = s * 1664525u + 1013904223u; float x = (s >> 8) / 16777216.0f;
        s = s * 1664525u + 1013904223u; float y = (s >> 8) / 16777216.0f;
        if (i % 2 == 0) { x = 0.3f + 0.25f * x; y = 0.3f + 0.25f * y; }      // a dense blob in a sparse gas
        raw[i] = make_float2(x, y);
    }
    // counting sort by cell so each cell's particles are contiguous
    std::vector<int> count(kCells * kCells, 0), start(kCells * kCells), end(kCells * kCells);
    for (auto& p : raw) count[cellOf(p.y) * kCells + cellOf(p.x)]++;
    int acc = 0;
    for (int c = 0; c < kCells * kCells; ++c) { start[c] = acc; acc += count[c]; end[c] = start[c]; }
    std::vector<float2> pos(kParticles);
    for (auto& p : raw) pos[end[cellOf(p.y) * kCells + cellOf(p.x)]++] = p;

    float2 *dPos, *dForce; int *dStart, *dEnd; float *dRho, *dPr;
    CUDA_CHECK(cudaMalloc(&dPos, kParticles * sizeof(float2)));
    CUDA_CHECK(cudaMalloc(&dForce, kParticles * sizeof(float2)));
    CUDA_CHECK(cudaMalloc(&dStart, start.size() * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dEnd, end.size() * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dRho, kParticles * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&dPr, kParticles * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dPos, pos.data(), kParticles * sizeof(float2), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dStart, start.data(), start.size() * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dEnd, end.data(), end.size() * sizeof(int), cudaMemcpyHostToDevice));
    Grid g{dPos, dStart, dEnd};
    computeDensity<<<kParticles / 128, 128>>>(g, dRho, dPr, kParticles);
    CUDA_CHECK(cudaGetLastError());
    computeForces<<<kParticles / 128, 128>>>(g, dRho, dPr, dForce, kParticles);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> rho(kParticles), pr(kParticles);
    std::vector<float2> force(kParticles);
    CUDA_CHECK(cudaMemcpy(rho.data(), dRho, kParticles * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(pr.data(), dPr, kParticles * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(force.data(), dForce, kParticles * sizeof(float2), cudaMemcpyDeviceToHost));

    double maxRhoErr = 0.0, maxForceErr = 0.0, rhoSum = 0.0, forceNorm = 0.0, rhoMax = 0.0;
    std::vector<float> refRho(kParticles), refPr(kParticles);
    for (int i = 0; i < kParticles; ++i) {
        refRho[i] = densityAt(pos.data(), start.data(), end.data(), i);
        refPr[i] = kStiffness * (refRho[i] - kRestDensity);
        maxRhoErr = fmax(maxRhoErr, fabs(rho[i] - refRho[i]) / refRho[i]);
        rhoSum += rho[i]; rhoMax = fmax(rhoMax, rho[i]);
    }
    for (int i = 0; i < kParticles; ++i) {
        float2 f = forceAt(pos.data(), start.data(), end.data(), refRho.data(), refPr.data(), i);
        double fx = f.x / refRho[i], fy = f.y / refRho[i];
        double mag = sqrt(fx * fx + fy * fy);
        maxForceErr = fmax(maxForceErr, (fabs(fx - force[i].x) + fabs(fy - force[i].y)) / (mag + 1.0));
        forceNorm += sqrt((double)force[i].x * force[i].x + (double)force[i].y * force[i].y);
    }
    printf("particles %d smoothing length %.3f cells %dx%d\n", kParticles, kH, kCells, kCells);
    printf("mean density %.5e max density %.5e\n", rhoSum / kParticles, rhoMax);
    printf("mean |acceleration| %.5e\n", forceNorm / kParticles);
    bool ok = maxRhoErr < 1e-4 && maxForceErr < 1e-3;
    printf("density and forces match reference: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dPos)); CUDA_CHECK(cudaFree(dForce)); CUDA_CHECK(cudaFree(dStart));
    CUDA_CHECK(cudaFree(dEnd)); CUDA_CHECK(cudaFree(dRho)); CUDA_CHECK(cudaFree(dPr));
    return ok ? 0 : 1;
}
