// Two kernels in one file: fill an array with i, then square it in place.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void fill_index(int* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = i;
}

__global__ void square_in_place(int* a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = a[i] * a[i];
}

int main() {
    const int n = 300;
    int h[n];
    int* d;
    cudaMalloc(&d, n * sizeof(int));
    fill_index<<<(n + 63) / 64, 64>>>(d, n);
    square_in_place<<<(n + 63) / 64, 64>>>(d, n);
    cudaMemcpy(h, d, n * sizeof(int), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += h[i] != i * i;
    printf("a[3]=%d a[299]=%d\n", h[3], h[299]);
    cudaFree(d);
    printf(bad ? "CHECK FAIL\n" : "CHECK PASS\n");
    return bad ? 1 : 0;
}
