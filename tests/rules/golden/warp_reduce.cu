// Warp-level reduction with CUDA 9+ intrinsics: every *_sync call, ballots and a guard.
// cudaMalloc in this comment and "cudaFree" in strings must stay as written.
#include <cstdio>
#include <cuda_runtime.h>

#define FULL_MASK 0xffffffff
#define CUDA_CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
    printf("cudaError %s\n", cudaGetErrorString(e_)); return 1; } } while (0)

__device__ float warp_sum(float v) {
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(FULL_MASK, v, offset);
    return __shfl_sync(FULL_MASK, v, 0);
}

__global__ void reduce(const float* in, float* out, unsigned* votes, int n) {
    __shared__ float partial[32];
    int tid = blockIdx.x * blockDim.x + threadIdx.x;
    int lane = threadIdx.x & 31, warp = threadIdx.x / 32;
    float v = tid < n ? in[tid] : 0.0f;
    unsigned positive = __ballot_sync(FULL_MASK, v > 0.0f);
    unsigned active = __activemask();
    v = warp_sum(v);
    if (lane == 0) partial[warp] = v;
    __syncthreads();
    if (warp == 0) {
        v = lane < (blockDim.x + 31) / 32 ? partial[lane] : 0.0f;
        v = warp_sum(v);
        __syncwarp();
        if (lane == 0) atomicAdd(out, v);
    }
    unsigned ones = __reduce_add_sync(0xffffffff, (unsigned)(v != 0.0f));
    if (lane == 0) atomicAdd(votes, (unsigned)__popc(positive) + (active != 0) + (ones > 64u));
#if __CUDA_ARCH__ >= 700
    if (tid == 0) atomicAdd(votes, 1000u);
#endif
}

int main() {
    const int n = 1 << 12;
    float *d_in, *d_out; unsigned* d_votes;
    CUDA_CHECK(cudaMalloc(&d_in, n * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_out, sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_votes, sizeof(unsigned)));
    float* h = (float*)malloc(n * sizeof(float));
    for (int i = 0; i < n; ++i) h[i] = (i % 7) - 3.0f;
    CUDA_CHECK(cudaMemcpy(d_in, h, n * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_out, 0, sizeof(float)));
    CUDA_CHECK(cudaMemset(d_votes, 0, sizeof(unsigned)));
    reduce<<<n / 256, 256>>>(d_in, d_out, d_votes, n);
    CUDA_CHECK(cudaGetLastError());
    float sum; unsigned votes;
    CUDA_CHECK(cudaMemcpy(&sum, d_out, sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&votes, d_votes, sizeof(unsigned), cudaMemcpyDeviceToHost));
    printf("sum %.1f votes %u\n", sum, votes);
    cudaFree(d_in); cudaFree(d_out); cudaFree(d_votes); free(h);
    return 0;
}
