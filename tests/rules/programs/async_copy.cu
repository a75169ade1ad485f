// Asynchronous copies into shared memory: cuda_pipeline.h's per-thread primitives (with a
// zero-filled tail) and cooperative groups' block copy with an aligned size. Prints per block
// the sums the kernels compute from the staged data.
#include <cstdio>
#include <cuda_pipeline.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void staged(const float4* in, float* out) {
  __shared__ float4 tile[64];
  // thread t copies element t; odd threads zero-fill the last 8 bytes (z and w)
  size_t zfill = (threadIdx.x & 1) ? 8 : 0;
  __pipeline_memcpy_async(&tile[threadIdx.x], &in[blockIdx.x * 64 + threadIdx.x], sizeof(float4), zfill);
  __pipeline_commit();
  __pipeline_wait_prior(0);
  __syncthreads();
  float4 v = tile[63 - threadIdx.x];
  out[blockIdx.x * 64 + threadIdx.x] = v.x + 2 * v.y + 3 * v.z + 4 * v.w;
}

__global__ void group_copy(const double* in, double* out) {
  __shared__ double stage[256];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, stage, in + blockIdx.x * 256, cuda::aligned_size_t<16>(sizeof(double) * 256));
  cg::wait(block);
  out[blockIdx.x * 64 + threadIdx.x] = stage[255 - threadIdx.x] + stage[threadIdx.x * 4];
}

int main() {
  const int blocks = 2;
  float4 host_in[blocks * 64];
  double host_d[blocks * 256];
  for (int i = 0; i < blocks * 64; ++i) host_in[i] = make_float4(i, i + 0.5f, 2 * i, 3 * i + 1);
  for (int i = 0; i < blocks * 256; ++i) host_d[i] = i * 0.25;
  float4* in; float* out; double* din; double* dout;
  cudaMalloc(&in, sizeof(host_in));
  cudaMalloc(&out, blocks * 64 * sizeof(float));
  cudaMalloc(&din, sizeof(host_d));
  cudaMalloc(&dout, blocks * 64 * sizeof(double));
  cudaMemcpy(in, host_in, sizeof(host_in), cudaMemcpyHostToDevice);
  cudaMemcpy(din, host_d, sizeof(host_d), cudaMemcpyHostToDevice);
  staged<<<blocks, 64>>>(in, out);
  group_copy<<<blocks, 64>>>(din, dout);
  float r[blocks * 64];
  double rd[blocks * 64];
  cudaMemcpy(r, out, sizeof(r), cudaMemcpyDeviceToHost);
  cudaMemcpy(rd, dout, sizeof(rd), cudaMemcpyDeviceToHost);
  for (int i = 0; i < blocks * 64; ++i) printf("%d %.2f %.2f\n", i, r[i], rd[i]);
  return 0;
}
