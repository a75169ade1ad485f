// A templated kernel instantiated for float and int: y[i] = alpha * x[i] + offset.
// (HIP port of the CUDA example of the same name.)
#include <cstdio>
#include <hip/hip_runtime.h>

template <typename T>
__global__ void scale_offset(const T* x, T* y, T alpha, T offset, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = alpha * x[i] + offset;
}

template <typename T>
int run(const char* label, T alpha, T offset) {
    const int n = 512;
    T hx[n], hy[n];
    for (int i = 0; i < n; ++i) hx[i] = static_cast<T>(i % 17);
    T *dx, *dy;
    hipMalloc(&dx, n * sizeof(T));
    hipMalloc(&dy, n * sizeof(T));
    hipMemcpy(dx, hx, n * sizeof(T), hipMemcpyHostToDevice);
    scale_offset<T><<<(n + 127) / 128, 128>>>(dx, dy, alpha, offset, n);
    hipMemcpy(hy, dy, n * sizeof(T), hipMemcpyDeviceToHost);
    int bad = 0;
    double total = 0;
    for (int i = 0; i < n; ++i) { bad += hy[i] != alpha * hx[i] + offset; total += hy[i]; }
    printf("%s: y[16]=%g total=%g\n", label, (double)hy[16], total);
    hipFree(dx); hipFree(dy);
    return bad;
}

int main() {
    int bad = run<float>("float", 1.5f, 0.25f) + run<int>("int", 3, -4);
    printf(bad ? "CHECK FAIL\n" : "CHECK PASS\n");
    return bad ? 1 : 0;
}
