// Contact detection for 4096 discs (discrete element method): discs are
// pushed onto per-cell linked lists with atomicExch, each disc scans the 3x3
// neighbouring cells for overlaps, contact pairs are counted once, and the
// largest overlap is found with a float atomicMax built from atomicCAS (the
// maximum does not depend on the order of updates).
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

static const int kDiscs = 4096;
static const float kRadius = 0.006f;
static const int kCells = 64;                       // cell size 1/64 >= 2 * radius
static const int kEmpty = -1;

struct Disc { float x, y; };

__host__ __device__ inline int cellIndex(float x, float y) {
    int cx = min(max((int)(x * kCells), 0), kCells - 1), cy = min(max((int)(y * kCells), 0), kCells - 1);
    return cy * kCells + cx;
}

__device__ float atomicMaxFloat(float* addr, float value) {
    int* p = (int*)addr;
    int old = *p;
    while (__int_as_float(old) < value) {
        int assumed = old;
        old = atomicCAS(p, assumed, __float_as_int(value));
        if (old == assumed) break;
    }
    return __int_as_float(old);
}

__global__ void buildCells(const Disc* discs, int* head, int* next, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) next[i] = atomicExch(&head[cellIndex(discs[i].x, discs[i].y)], i);
}

__global__ void findContacts(const Disc* discs, const int* head, const int* next, int n,
                             int* contactsPerDisc, unsigned int* totalPairs, float* maxOverlap) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Disc d = discs[i];
    int c = cellIndex(d.x, d.y), cx = c % kCells, cy = c / kCells;
    int contacts = 0, pairsAsLower = 0;
    float worst = 0.0f;
    for (int y = cy - 1; y <= cy + 1; ++y)
        for (int x = cx - 1; x <= cx + 1; ++x) {
            if (x < 0 || y < 0 || x >= kCells || y >= kCells) continue;
            for (int j = head[y * kCells + x]; j != kEmpty; j = next[j]) {
                if (j == i) continue;
                float dx = discs[j].x - d.x, dy = discs[j].y - d.y;
                float dist2 = dx * dx + dy * dy;
                if (dist2 < 4.0f * kRadius * kRadius) {
                    ++contacts;
                    if (i < j) ++pairsAsLower;
                    worst = fmaxf(worst, 2.0f * kRadius - sqrtf(dist2));
                }
            }
        }
    contactsPerDisc[i] = contacts;
    if (pairsAsLower) atomicAdd(totalPairs, (unsigned int)pairsAsLower);
    if (worst > 0.0f) atomicMaxFloat(maxOverlap, worst);
}

int main() {
    std::vector<Disc> discs(kDiscs);
    uint32_t s = 24680u;
    for (int i = 0; i < kDiscs; ++i) {
        s = s * 1664525u + 1013904223u; float x = (s >> 8) / 16777216.0f;
        s = s * 1664525u + 1013904223u; float y = (s >> 8) / 16777216.0f;
        if (i % 4 == 0) { x = 0.4f + 0.2f * x; y = 0.4f + 0.2f * y; }   // a crowded patch
        discs[i] = Disc{x, y};
    }
    Disc* dDiscs; int *dHead, *dNext, *dContacts; unsigned int* dPairs; float* dMax;
    CUDA_CHECK(cudaMalloc(&dDiscs, kDiscs * sizeof(Disc)));
    CUDA_CHECK(cudaMalloc(&dHead, kCells * kCells * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dNext, kDiscs * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dContacts, kDiscs * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dPairs, sizeof(unsigned int)));
    CUDA_CHECK(cudaMalloc(&dMax, sizeof(float)));
    CUDA_CHECK(cudaMemcpy(dDiscs, discs.data(), kDiscs * sizeof(Disc), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(dHead, 0xFF, kCells * kCells * sizeof(int)));     // kEmpty
    CUDA_CHECK(cudaMemset(dPairs, 0, sizeof(unsigned int)));
    CUDA_CHECK(cudaMemset(dMax, 0, sizeof(float)));
    buildCells<<<kDiscs / 256, 256>>>(dDiscs, dHead, dNext, kDiscs);
    CUDA_CHECK(cudaGetLastError());
    findContacts<<<kDiscs / 256, 256>>>(dDiscs, dHead, dNext, kDiscs, dContacts, dPairs, dMax);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> contacts(kDiscs);
    unsigned int pairs = 0;
    float maxOverlap = 0.0f;
    CUDA_CHECK(cudaMemcpy(contacts.data(), dContacts, kDiscs * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&pairs, dPairs, sizeof(pairs), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&maxOverlap, dMax, sizeof(maxOverlap), cudaMemcpyDeviceToHost));

    // host: all pairs
    std::vector<int> refContacts(kDiscs, 0);
    unsigned int refPairs = 0;
    float refMax = 0.0f;
    for (int i = 0; i < kDiscs; ++i)
        for (int j = i + 1; j < kDiscs; ++j) {
            float dx = discs[j].x - discs[i].x, dy = discs[j].y - discs[i].y;
            float dist2 = dx * dx + dy * dy;
            if (dist2 < 4.0f * kRadius * kRadius) {
                refContacts[i]++; refContacts[j]++; refPairs++;
                refMax = fmaxf(refMax, 2.0f * kRadius - sqrtf(dist2));
            }
        }
    int mismatches = (pairs != refPairs), maxContacts = 0;
    long long weighted = 0;
    for (int i = 0; i < kDiscs; ++i) {
        mismatches += (contacts[i] != refContacts[i]);
        maxContacts = contacts[i] > maxContacts ? contacts[i] : maxContacts;
        weighted += (long long)contacts[i] * (i % 31 + 1);
    }
    printf("discs %d radius %.4f cells %dx%d\n", kDiscs, kRadius, kCells, kCells);
    printf("contact pairs %u most contacts on one disc %d weighted checksum %lld\n", pairs, maxContacts, weighted);
    printf("largest overlap %.6e (reference %.6e)\n", maxOverlap, refMax);
    bool ok = mismatches == 0 && fabsf(maxOverlap - refMax) <= 1e-6f * refMax;
    printf("mismatches %d\n", mismatches);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dDiscs)); CUDA_CHECK(cudaFree(dHead)); CUDA_CHECK(cudaFree(dNext));
    CUDA_CHECK(cudaFree(dContacts)); CUDA_CHECK(cudaFree(dPairs)); CUDA_CHECK(cudaFree(dMax));
    return ok ? 0 : 1;
}
