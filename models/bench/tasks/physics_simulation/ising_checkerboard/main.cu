// 2D Ising model, Metropolis updates in checkerboard order on a 128x128
// periodic lattice. Random numbers come from a counter-based integer hash of
// (site, sweep, colour), and acceptance compares against integer thresholds
// exp(-beta dE) * 2^32 precomputed into constant memory, so GPU and CPU runs
// follow exactly the same trajectory.
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

static const int kL = 128;
static const int kSweeps = 8;
static const double kBeta = 0.42;

__constant__ uint32_t cAccept[5];   // index (dE/4 + 2) for dE in {-8,-4,0,4,8}

__host__ __device__ inline uint32_t hashSite(uint32_t site, uint32_t sweep, uint32_t colour) {
    uint32_t h = site * 0x9E3779B1u ^ (sweep * 0x85EBCA77u + colour * 0xC2B2AE3Du);
    h ^= h >> 16; h *= 0x7FEB352Du;
    h ^= h >> 15; h *= 0x846CA68Bu;
    h ^= h >> 16;
    return h;
}

__host__ __device__ inline signed char metropolis(const signed char* spin, int x, int y, uint32_t r,
                                                  const uint32_t* accept) {
    int s = spin[y * kL + x];
    int nb = spin[y * kL + (x + 1) % kL] + spin[y * kL + (x + kL - 1) % kL] +
             spin[((y + 1) % kL) * kL + x] + spin[((y + kL - 1) % kL) * kL + x];
    int dE = 2 * s * nb;                       // J = 1
    bool flip = dE <= 0 || r < accept[dE / 4 + 2];
    return (signed char)(flip ? -s : s);
}

__global__ void updateColour(signed char* spin, int colour, int sweep) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= kL || y >= kL || ((x + y) & 1) != colour) return;
    uint32_t r = hashSite((uint32_t)(y * kL + x), (uint32_t)sweep, (uint32_t)colour);
    spin[y * kL + x] = metropolis(spin, x, y, r, cAccept);
}

static void measure(const std::vector<signed char>& spin, int* magnet, int* energy) {
    int m = 0, e = 0;
    for (int y = 0; y < kL; ++y)
        for (int x = 0; x < kL; ++x) {
            int s = spin[y * kL + x];
            m += s;
            e -= s * (spin[y * kL + (x + 1) % kL] + spin[((y + 1) % kL) * kL + x]);
        }
    *magnet = m; *energy = e;
}

int main() {
    uint32_t accept[5];
    for (int k = 0; k < 5; ++k) {
        int dE = (k - 2) * 4;
        double p = dE <= 0 ? 1.0 : exp(-kBeta * dE);
        accept[k] = p >= 1.0 ? 0xFFFFFFFFu : (uint32_t)(p * 4294967296.0);
    }
    CUDA_CHECK(cudaMemcpyToSymbol(cAccept, accept, sizeof(accept)));
    std::vector<signed char> spin(kL * kL);
    uint32_t s = 314159u;
    for (int i = 0; i < kL * kL; ++i) {
        s ^= s << 13; s ^= s >> 17; s ^= s << 5;
        spin[i] = (s % 100) < 70 ? 1 : -1;    // biased random start
    }
    int m0, e0;
    measure(spin, &m0, &e0);
    signed char* dSpin;
    CUDA_CHECK(cudaMalloc(&dSpin, spin.size()));
    CUDA_CHECK(cudaMemcpy(dSpin, spin.data(), spin.size(), cudaMemcpyHostToDevice));
    dim3 block(32, 8), grid(kL / 32, kL / 8);
    for (int sweep = 0; sweep < kSweeps; ++sweep)
        for (int colour = 0; colour < 2; ++colour) {
            updateColour<<<grid, block>>>(dSpin, colour, sweep);
            CUDA_CHECK(cudaGetLastError());
        }
    std::vector<signed char> out(spin.size());
    CUDA_CHECK(cudaMemcpy(out.data(), dSpin, out.size(), cudaMemcpyDeviceToHost));

    std::vector<signed char> ref(spin);
    for (int sweep = 0; sweep < kSweeps; ++sweep)
        for (int colour = 0; colour < 2; ++colour)
            for (int y = 0; y < kL; ++y)
                for (int x = 0; x < kL; ++x)
                    if (((x + y) & 1) == colour)
                        ref[y * kL + x] = metropolis(ref.data(), x, y, hashSite((uint32_t)(y * kL + x), (uint32_t)sweep, (uint32_t)colour), accept);
    int mismatches = 0;
    uint32_t packedHash = 2166136261u;
    for (int i = 0; i < kL * kL; ++i) {
        mismatches += (out[i] != ref[i]);
        packedHash = (packedHash ^ (uint32_t)(out[i] > 0)) * 16777619u;
    }
    int m1, e1;
    measure(out, &m1, &e1);
    printf("lattice %dx%d beta %.2f sweeps %d\n", kL, kL, kBeta, kSweeps);
    printf("initial magnetisation %d energy %d\n", m0, e0);
    printf("final magnetisation %d energy %d spin hash %08x\n", m1, e1, packedHash);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dSpin));
    return ok ? 0 : 1;
}
