// __constant__ memory: evaluate a cubic polynomial whose coefficients live in constant memory.
// (HIP port of the CUDA example of the same name.)
#include <cstdio>
#include <hip/hip_runtime.h>

__constant__ float coeffs[4];

__global__ void poly_eval(const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        float v = x[i];
        y[i] = ((coeffs[3] * v + coeffs[2]) * v + coeffs[1]) * v + coeffs[0];
    }
}

int main() {
    const int n = 256;
    const float hc[4] = {1.0f, -2.0f, 0.5f, 0.25f};
    float hx[n], hy[n];
    for (int i = 0; i < n; ++i) hx[i] = (i - 128) / 32.0f;
    hipMemcpyToSymbol(HIP_SYMBOL(coeffs), hc, sizeof(hc));
    float *dx, *dy;
    hipMalloc(&dx, n * sizeof(float));
    hipMalloc(&dy, n * sizeof(float));
    hipMemcpy(dx, hx, n * sizeof(float), hipMemcpyHostToDevice);
    poly_eval<<<(n + 127) / 128, 128>>>(dx, dy, n);
    hipMemcpy(hy, dy, n * sizeof(float), hipMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        float v = hx[i], expect = ((hc[3] * v + hc[2]) * v + hc[1]) * v + hc[0];
        float diff = hy[i] - expect;
        bad += diff > 1e-4f || diff < -1e-4f;
    }
    printf("y(-4)=%.4f y(0)=%.4f y(3.96875)=%.4f\n", hy[0], hy[128], hy[255]);
    hipFree(dx); hipFree(dy);
    printf(bad ? "CHECK FAIL\n" : "CHECK PASS\n");
    return bad ? 1 : 0;
}
