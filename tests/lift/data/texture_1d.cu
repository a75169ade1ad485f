// 1D textures, which ptxas samples as 2D at y = 0 (tex1D, tex1DLod, tex1DGrad) or as ARRAY_1D
// (tex1DLayered); texture_1d_host.hip runs them on a 1D and a layered 1D array.
#include <cuda_runtime.h>

extern "C" __global__ void sample1d(cudaTextureObject_t t, float* out) {
  out[threadIdx.x] = tex1D<float>(t, threadIdx.x + 0.5f);
}
extern "C" __global__ void lod1d(cudaTextureObject_t t, float* out, float level) {
  out[threadIdx.x] = tex1DLod<float>(t, threadIdx.x + 0.5f, level);
}
extern "C" __global__ void layered1d(cudaTextureObject_t t, float* out, int layer) {
  out[threadIdx.x] = tex1DLayered<float>(t, threadIdx.x + 0.5f, layer);
}
extern "C" __global__ void grad1d(cudaTextureObject_t t, float* out) {
  out[threadIdx.x] = tex1DGrad<float>(t, threadIdx.x + 0.5f, 1.0f, 2.0f);
}
