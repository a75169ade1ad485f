// Texture and surface size queries (PTX txq/suq .width/.height/.depth: TXQ TEX_HEADER_DIMENSION
// in SASS) of a 2D texture, a 3D texture and a 2D surface; texture_query_host.hip runs them.
#include <cuda_runtime.h>

extern "C" __global__ void query(cudaTextureObject_t t2, cudaTextureObject_t t3,
                                 cudaSurfaceObject_t s, int* out) {
  int v[8];
  asm("txq.width.b32 %0, [%1];" : "=r"(v[0]) : "l"(t2));
  asm("txq.height.b32 %0, [%1];" : "=r"(v[1]) : "l"(t2));
  asm("txq.depth.b32 %0, [%1];" : "=r"(v[2]) : "l"(t3));
  asm("txq.width.b32 %0, [%1];" : "=r"(v[3]) : "l"(t3));
  asm("txq.height.b32 %0, [%1];" : "=r"(v[4]) : "l"(t3));
  asm("suq.width.b32 %0, [%1];" : "=r"(v[5]) : "l"(s));
  asm("suq.height.b32 %0, [%1];" : "=r"(v[6]) : "l"(s));
  v[7] = 0;
  out[threadIdx.x] = v[threadIdx.x];
}
