// Lennard-Jones forces with a cell list in double precision. A 3D grid has
// one block per cell; each thread owns one particle of the cell and scans the
// 27 neighbouring cells with minimum-image periodic distances. Total potential
// energy and virial are accumulated with a compare-and-swap double add.
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

static const int kCellsPerDim = 4;
static const int kPerDim = 8;                        // lattice sites per dimension
static const int kParticles = kPerDim * kPerDim * kPerDim;
static const int kPerCell = 8;                       // 2x2x2 lattice sites per cell
static const double kSpacing = 1.5;
static const double kBox = kPerDim * kSpacing;       // 12 sigma, cells of 3 sigma
static const double kCutoff = 2.5;

struct Vec3 { double x, y, z; };

__device__ double atomicAddDouble(double* addr, double val) {
    unsigned long long* p = (unsigned long long*)addr;
    unsigned long long old = *p, assumed;
    do {
        assumed = old;
        old = atomicCAS(p, assumed, __double_as_longlong(__longlong_as_double(assumed) + val));
    } while (assumed != old);
    return __longlong_as_double(old);
}

__host__ __device__ inline double minImage(double d, double box) {
    if (d > 0.5 * box) d -= box;
    if (d < -0.5 * box) d += box;
    return d;
}

// returns pair energy, adds the force on i to f and the pair virial to w
__host__ __device__ inline double ljPair(Vec3 a, Vec3 b, Vec3& f, double& w) {
    double dx = minImage(a.x - b.x, kBox), dy = minImage(a.y - b.y, kBox), dz = minImage(a.z - b.z, kBox);
    double r2 = dx * dx + dy * dy + dz * dz;
    if (r2 >= kCutoff * kCutoff || r2 == 0.0) return 0.0;
    double inv2 = 1.0 / r2, inv6 = inv2 * inv2 * inv2;
    double fr = 24.0 * inv6 * (2.0 * inv6 - 1.0) * inv2;   // |F| / r
    f.x += fr * dx; f.y += fr * dy; f.z += fr * dz;
    w += fr * r2;
    return 4.0 * inv6 * (inv6 - 1.0);
}

__global__ void cellForces(const Vec3* pos, Vec3* force, double* totals) {
    int cx = blockIdx.x, cy = blockIdx.y, cz = blockIdx.z;
    int cell = (cz * kCellsPerDim + cy) * kCellsPerDim + cx;
    int i = cell * kPerCell + threadIdx.x;          // particles are stored cell by cell
    Vec3 me = pos[i], f = {0.0, 0.0, 0.0};
    double energy = 0.0, virial = 0.0;
    for (int dz = -1; dz <= 1; ++dz)
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                int nx = (cx + dx + kCellsPerDim) % kCellsPerDim;
                int ny = (cy + dy + kCellsPerDim) % kCellsPerDim;
                int nz = (cz + dz + kCellsPerDim) % kCellsPerDim;
                int other = (nz * kCellsPerDim + ny) * kCellsPerDim + nx;
                for (int k = 0; k < kPerCell; ++k) energy += ljPair(me, pos[other * kPerCell + k], f, virial);
            }
    force[i] = f;
    atomicAddDouble(&totals[0], 0.5 * energy);   // each pair is seen from both sides
    atomicAddDouble(&totals[1], 0.5 * virial);
}

int main() {
    std::vector<Vec3> pos(kParticles);
    uint64_t s = 88172645463325252ull;
    auto jitter = [&s]() { s ^= s << 13; s ^= s >> 7; s ^= s << 17; return ((s >> 11) * (1.0 / 9007199254740992.0) - 0.5) * 0.5; };
    for (int cz = 0; cz < kCellsPerDim; ++cz)
        for (int cy = 0; cy < kCellsPerDim; ++cy)
            for (int cx = 0; cx < kCellsPerDim; ++cx)
                for (int k = 0; k < kPerCell; ++k) {
                    int cell = (cz * kCellsPerDim + cy) * kCellsPerDim + cx;
                    int ix = 2 * cx + (k & 1), iy = 2 * cy + ((k >> 1) & 1), iz = 2 * cz + (k >> 2);
                    pos[cell * kPerCell + k] = Vec3{(ix + 0.5) * kSpacing + jitter(), (iy + 0.5) * kSpacing + jitter(),
                                                    (iz + 0.5) * kSpacing + jitter()};
                }
    Vec3 *dPos, *dForce; double* dTotals;
    CUDA_CHECK(cudaMalloc(&dPos, kParticles * sizeof(Vec3)));
    CUDA_CHECK(cudaMalloc(&dForce, kParticles * sizeof(Vec3)));
    CUDA_CHECK(cudaMalloc(&dTotals, 2 * sizeof(double)));
    CUDA_CHECK(cudaMemcpy(dPos, pos.data(), kParticles * sizeof(Vec3), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dTotals, 0, 2 * sizeof(double)));
    dim3 grid(kCellsPerDim, kCellsPerDim, kCellsPerDim);
    cellForces<<<grid, kPerCell>>>(dPos, dForce, dTotals);
    CUDA_CHECK(cudaGetLastError());
    std::vector<Vec3> force(kParticles);
    double totals[2];
    CUDA_CHECK(cudaMemcpy(force.data(), dForce, kParticles * sizeof(Vec3), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(totals, dTotals, sizeof(totals), cudaMemcpyDeviceToHost));

    // CPU reference: all pairs with minimum image
    double refEnergy = 0.0, refVirial = 0.0, maxErr = 0.0, netFx = 0.0, fNorm = 0.0;
    for (int i = 0; i < kParticles; ++i) {
        Vec3 f = {0.0, 0.0, 0.0};
        double w = 0.0, e = 0.0;
        for (int j = 0; j < kParticles; ++j) e += ljPair(pos[i], pos[j], f, w);
        refEnergy += 0.5 * e; refVirial += 0.5 * w;
        maxErr = fmax(maxErr, fabs(f.x - force[i].x) + fabs(f.y - force[i].y) + fabs(f.z - force[i].z));
        netFx += force[i].x;
        fNorm += sqrt(force[i].x * force[i].x + force[i].y * force[i].y + force[i].z * force[i].z);
    }
    printf("particles %d box %.1f cutoff %.1f\n", kParticles, kBox, kCutoff);
    printf("potential energy %.9e virial %.9e\n", totals[0], totals[1]);
    printf("mean |F| %.9e f[100] %.9e %.9e %.9e\n", fNorm / kParticles, force[100].x, force[100].y, force[100].z);
    bool ok = maxErr < 1e-9 && fabs(totals[0] - refEnergy) < 1e-9 * fabs(refEnergy) + 1e-9 &&
              fabs(totals[1] - refVirial) < 1e-9 * fabs(refVirial) + 1e-9 && fabs(netFx) < 1e-8;
    printf("forces, energy and virial match reference: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dPos)); CUDA_CHECK(cudaFree(dForce)); CUDA_CHECK(cudaFree(dTotals));
    return ok ? 0 : 1;
}
