// Texture and surface forms the lifter reports as located errors: a texture object read from
// memory (ptxas passes only its low 32 bits, a HIP texture object is a 64-bit pointer), a mip
// level count query (ptxas reads a driver table for it) and a surface atomic (sured, no HIP
// counterpart).
#include <cuda_runtime.h>

struct Textures {
  cudaTextureObject_t t[2];
};

extern "C" __global__ void from_memory(const Textures* s, float* out) {
  out[threadIdx.x] = tex1Dfetch<float>(s->t[threadIdx.x & 1], threadIdx.x);
}
extern "C" __global__ void query(cudaTextureObject_t t, int* out) {
  int w;
  asm("txq.num_mipmap_levels.b32 %0, [%1];" : "=r"(w) : "l"(t));
  out[0] = w;
}
extern "C" __global__ void surface_add(cudaSurfaceObject_t s) {
  asm volatile("sured.b.add.2d.u32.trap [%0, {%1, %2}], %3;" ::"l"(s), "r"(threadIdx.x * 4), "r"(0), "r"(1));
}
