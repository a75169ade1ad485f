// Two kernels in one file: fill an array with i, then square it in place.
// (HIP port of the CUDA example of the same name.)
#include <cstdio>
#include <hip/hip_runtime.h>

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
    hipMalloc(&d, n * sizeof(int));
    fill_index<<<(n + 63) / 64, 64>>>(d, n);
    square_in_place<<<(n + 63) / 64, 64>>>(d, n);
    hipMemcpy(h, d, n * sizeof(int), hipMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += h[i] != i * i;
    printf("a[3]=%d a[299]=%d\n", h[3], h[299]);
    hipFree(d);
    printf(bad ? "CHECK FAIL\n" : "CHECK PASS\n");
    return bad ? 1 : 0;
}
