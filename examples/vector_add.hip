// Vector add: c[i] = a[i] + b[i] over 1000 elements, checked against the host.
// (HIP port of the CUDA example of the same name.)
#include <cstdio>
#include <hip/hip_runtime.h>

__global__ void vector_add(const float* a, const float* b, float* c, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) c[i] = a[i] + b[i];
}

int main() {
    const int n = 1000;
    float ha[n], hb[n], hc[n];
    for (int i = 0; i < n; ++i) { ha[i] = 0.5f * i; hb[i] = 2.0f * i + 1.0f; }
    float *da, *db, *dc;
    hipMalloc(&da, n * sizeof(float));
    hipMalloc(&db, n * sizeof(float));
    hipMalloc(&dc, n * sizeof(float));
    hipMemcpy(da, ha, n * sizeof(float), hipMemcpyHostToDevice);
    hipMemcpy(db, hb, n * sizeof(float), hipMemcpyHostToDevice);
    vector_add<<<(n + 255) / 256, 256>>>(da, db, dc, n);
    hipMemcpy(hc, dc, n * sizeof(float), hipMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += hc[i] != ha[i] + hb[i];
    printf("c[0]=%.1f c[1]=%.1f c[999]=%.1f\n", hc[0], hc[1], hc[999]);
    hipFree(da); hipFree(db); hipFree(dc);
    printf(bad ? "CHECK FAIL (%d wrong)\n" : "CHECK PASS\n", bad);
    return bad ? 1 : 0;
}
