// Shared-memory tree reduction: each block sums 256 integers, the host adds the block sums.
#include <cstdio>
#include <cuda_runtime.h>

#define BLOCK 256

__global__ void block_sum(const int* in, int* block_sums, int n) {
    __shared__ int tile[BLOCK];
    int t = threadIdx.x;
    int i = blockIdx.x * BLOCK + t;
    tile[t] = i < n ? in[i] : 0;
    __syncthreads();
    for (int stride = BLOCK / 2; stride > 0; stride >>= 1) {
        if (t < stride) tile[t] += tile[t + stride];
        __syncthreads();
    }
    if (t == 0) block_sums[blockIdx.x] = tile[0];
}

int main() {
    const int n = 10000, blocks = (n + BLOCK - 1) / BLOCK;
    static int h[n];
    int sums[blocks];
    long long expect = 0;
    for (int i = 0; i < n; ++i) { h[i] = (i * 7) % 101; expect += h[i]; }
    int *din, *dsums;
    cudaMalloc(&din, n * sizeof(int));
    cudaMalloc(&dsums, blocks * sizeof(int));
    cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice);
    block_sum<<<blocks, BLOCK>>>(din, dsums, n);
    cudaMemcpy(sums, dsums, blocks * sizeof(int), cudaMemcpyDeviceToHost);
    long long total = 0;
    for (int b = 0; b < blocks; ++b) total += sums[b];
    printf("blocks=%d sum=%lld expected=%lld\n", blocks, total, expect);
    cudaFree(din); cudaFree(dsums);
    printf(total == expect ? "CHECK PASS\n" : "CHECK FAIL\n");
    return total == expect ? 0 : 1;
}
