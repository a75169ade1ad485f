// Precision of linear texture filtering weights, measured on the GPU that runs it.
//
//   nvcc -arch=sm_90 -o tfp benchmarks/texture_filter_precision.cu && ./tfp
//   cass port benchmarks/texture_filter_precision.cu -o tfp.hip && cass run-hip tfp.hip
//
// A 1D texture of two texels (0 and 1), linear filtering, unnormalized coordinates, is sampled at
// x = 0.5 + k / 4096 for k = 0..4096: each result is the weight of the second texel. The program
// prints how many distinct weights appear, and how far the weights are from the fraction rounded
// down, rounded to nearest and left exact at 8 fractional bits (CUDA documents 9-bit 1.8 fixed
// point weights; the cass emulator models gfx11 with 8 fractional bits, rounded to nearest).
#include <cstdio>
#include <cmath>
#include <cuda_runtime.h>

static const int kSteps = 4096;

__global__ void weights(cudaTextureObject_t t, float* out) {
    int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k <= kSteps) out[k] = tex1D<float>(t, 0.5f + (float)k / kSteps);
}

int main() {
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray_t array;
    float texels[2] = {0.0f, 1.0f};
    cudaMallocArray(&array, &desc, 2, 0);
    cudaMemcpy2DToArray(array, 0, 0, texels, sizeof(texels), sizeof(texels), 1, cudaMemcpyHostToDevice);
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaTextureDesc tex = {};
    tex.addressMode[0] = cudaAddressModeClamp;
    tex.filterMode = cudaFilterModeLinear;
    tex.readMode = cudaReadModeElementType;
    cudaTextureObject_t t;
    cudaCreateTextureObject(&t, &res, &tex, nullptr);
    float* dOut;
    cudaMalloc(&dOut, (kSteps + 1) * sizeof(float));
    weights<<<(kSteps + 256) / 256, 256>>>(t, dOut);
    static float w[kSteps + 1];
    if (cudaMemcpy(w, dOut, sizeof(w), cudaMemcpyDeviceToHost) != cudaSuccess) return 2;
    int distinct = 1;
    double down = 0, nearest = 0, exact = 0;
    for (int k = 0; k <= kSteps; ++k) {
        if (k && w[k] != w[k - 1]) distinct++;
        double f = (double)k / kSteps;
        down = fmax(down, fabs(w[k] - floor(f * 256) / 256));
        nearest = fmax(nearest, fabs(w[k] - floor(f * 256 + 0.5) / 256));
        exact = fmax(exact, fabs(w[k] - f));
    }
    printf("distinct weights over %d positions: %d\n", kSteps + 1, distinct);
    printf("max |w - floor(f*256)/256| %.6e\n", down);
    printf("max |w - round(f*256)/256| %.6e\n", nearest);
    printf("max |w - f| %.6e\n", exact);
    printf("w at f = 1/512, 3/512, 0.5+1/1024, 255/256+1/1024: %.8f %.8f %.8f %.8f\n", w[8], w[24],
           w[2052], w[4084]);
    return 0;
}
