// Moving-window sums of an integer sensor stream through a prefix sum. The
// block scan is written with cooperative groups: 32-thread tiles scan with
// shuffles, tile totals are scanned by the first tile, and a second pass adds
// each block's offset. The window sum is a difference of two prefix values.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <cuda_runtime.h>
#include <cooperative_groups.h>

namespace cg = cooperative_groups;

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                        \
            exit(2);                                                            \
        }                                                                       \
    } while (0)

#define BLOCK 512
static const int kLen = 65536;
static const int kWindow = 50;

__device__ int tileInclusiveScan(cg::thread_block_tile<32> tile, int v) {
    for (int offset = 1; offset < 32; offset <<= 1) {
        int up = tile.shfl_up(v, offset);
        if (tile.thread_rank() >= offset) v += up;
    }
    return v;
}

__global__ void blockScan(const int* in, int* prefix, int* blockTotals, int n) {
    __shared__ int tileTotals[BLOCK / 32];
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    int i = blockIdx.x * BLOCK + threadIdx.x;
    int v = i < n ? in[i] : 0;
    v = tileInclusiveScan(tile, v);
    if (tile.thread_rank() == 31) tileTotals[tile.meta_group_rank()] = v;
    block.sync();
    if (tile.meta_group_rank() == 0) {
        int t = tile.thread_rank() < BLOCK / 32 ? tileTotals[tile.thread_rank()] : 0;
        t = tileInclusiveScan(tile, t);
        if (tile.thread_rank() < BLOCK / 32) tileTotals[tile.thread_rank()] = t;
    }
    block.sync();
    if (tile.meta_group_rank() > 0) v += tileTotals[tile.meta_group_rank() - 1];
    if (i < n) prefix[i] = v;
    if (threadIdx.x == BLOCK - 1) blockTotals[blockIdx.x] = v;
}

// single block: exclusive scan of block totals (at most BLOCK of them)
__global__ void scanBlockTotals(int* totals, int count) {
    __shared__ int buf[BLOCK];
    int t = threadIdx.x;
    buf[t] = t < count ? totals[t] : 0;
    __syncthreads();
    for (int offset = 1; offset < BLOCK; offset <<= 1) {
        int add = t >= offset ? buf[t - offset] : 0;
        __syncthreads();
        buf[t] += add;
        __syncthreads();
    }
    if (t < count) totals[t] = t > 0 ? buf[t - 1] : 0;
}

__global__ void windowSums(int* prefix, const int* blockOffsets, int* window, int n, int w) {
    int i = blockIdx.x * BLOCK + threadIdx.x;
    if (i >= n) return;
    // prefix values of other blocks are still block-local here, so add offsets on the fly
    int hi = prefix[i] + blockOffsets[i / BLOCK];
    int j = i - w;
    int lo = j >= 0 ? prefix[j] + blockOffsets[j / BLOCK] : 0;
    window[i] = hi - lo;
}

int main() {
    std::vector<int> x(kLen);
    uint32_t s = 606060u;
    int drift = 500;
    for (int i = 0; i < kLen; ++i) {
        s = s * 1664525u + 1013904223u;
        drift += (int)((s >> 28) & 3) - 1 - (drift > 900) + (drift < 100);
        x[i] = drift + (int)((s >> 8) % 64);
    }
    int blocks = (kLen + BLOCK - 1) / BLOCK;
    int *dX, *dPrefix, *dTotals, *dWindow;
    CUDA_CHECK(cudaMalloc(&dX, kLen * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dPrefix, kLen * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dTotals, blocks * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dWindow, kLen * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dX, x.data(), kLen * sizeof(int), cudaMemcpyHostToDevice));
    blockScan<<<blocks, BLOCK>>>(dX, dPrefix, dTotals, kLen);
    CUDA_CHECK(cudaGetLastError());
    scanBlockTotals<<<1, BLOCK>>>(dTotals, blocks);
    CUDA_CHECK(cudaGetLastError());
    windowSums<<<blocks, BLOCK>>>(dPrefix, dTotals, dWindow, kLen, kWindow);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> win(kLen);
    CUDA_CHECK(cudaMemcpy(win.data(), dWindow, kLen * sizeof(int), cudaMemcpyDeviceToHost));

    int mismatches = 0, maxWin = 0, argMax = 0;
    long long runSum = 0, checksum = 0;
    for (int i = 0; i < kLen; ++i) {
        runSum += x[i];
        if (i >= kWindow) runSum -= x[i - kWindow];
        mismatches += (win[i] != runSum);
        if (win[i] > maxWin) { maxWin = win[i]; argMax = i; }
        checksum += (long long)win[i] * (i % 17 + 1);
    }
    printf("samples %d window %d\n", kLen, kWindow);
    printf("max window sum %d at %d, average over last window %.4f\n", maxWin, argMax, win[kLen - 1] / (double)kWindow);
    printf("window checksum %lld win[49]=%d win[30000]=%d\n", checksum, win[49], win[30000]);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dX)); CUDA_CHECK(cudaFree(dPrefix)); CUDA_CHECK(cudaFree(dTotals)); CUDA_CHECK(cudaFree(dWindow));
    return ok ? 0 : 1;
}
