// SAXPY on the GPU: y = a*x + y, then a checksum and a few values.
// A deliberately wrong port of saxpy.cu (subtracts instead of adds): must be a mismatch.
#include <cstdio>
#include <cstdlib>
#include <hip/hip_runtime.h>

__global__ void saxpy(int n, float a, const float* x, float* y) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] - y[i];
}

int main(int argc, char** argv) {
    int n = argc > 1 ? atoi(argv[1]) : 1024;
    float a = argc > 2 ? (float)atof(argv[2]) : 2.0f;
    size_t bytes = n * sizeof(float);
    float* x = (float*)malloc(bytes);
    float* y = (float*)malloc(bytes);
    for (int i = 0; i < n; ++i) {
        x[i] = 0.001f * i;
        y[i] = 1.0f - 0.0005f * i;
    }
    float *dx, *dy;
    hipMalloc(&dx, bytes);
    hipMalloc(&dy, bytes);
    hipMemcpy(dx, x, bytes, hipMemcpyHostToDevice);
    hipMemcpy(dy, y, bytes, hipMemcpyHostToDevice);
    saxpy<<<(n + 255) / 256, 256>>>(n, a, dx, dy);
    hipError_t err = hipDeviceSynchronize();
    if (err != hipSuccess) {
        fprintf(stderr, "kernel failed: %s\n", hipGetErrorString(err));
        return 1;
    }
    hipMemcpy(y, dy, bytes, hipMemcpyDeviceToHost);
    double sum = 0.0;
    for (int i = 0; i < n; ++i) sum += y[i];
    printf("n = %d, a = %g\n", n, a);
    printf("y[0] = %.6f, y[1] = %.6f, y[n-1] = %.6f\n", y[0], y[1], y[n - 1]);
    printf("checksum = %.6e\n", sum);
    hipFree(dx);
    hipFree(dy);
    free(x);
    free(y);
    return 0;
}
