// Kernels the lifter tests compile with nvcc, lift from SASS and run on the RDNA3 emulator.
#include <cstdio>
extern "C" __global__ void vecadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
__global__ void saxpy(float a, const float* __restrict__ x, float* __restrict__ y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = a * x[i] + y[i];
}
__global__ void reduce_sum(const float* in, float* out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  int i = blockIdx.x * blockDim.x * 2 + t;
  float v = 0;
  if (i < n) v = in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  s[t] = v;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) atomicAdd(out, s[0]);
}
__global__ void int_division(int* a, long long* b, unsigned* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    a[i] = a[i] / (i - 1037);
    b[i] = b[i] / (long long)(i * 1000003 + 7);
    c[i] = (c[i] >> (i & 7)) % (unsigned)(i + 3) + __popc(c[i]) + __clz(i) + __brev(i);
  }
}
__global__ void warp_ops(const int* in, int* out) {
  int lane = threadIdx.x & 31;
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int s = v;
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(0xffffffffu, s, o);
  unsigned b = __ballot_sync(0xffffffffu, v & 1);
  int up = __shfl_up_sync(0xffffffffu, v, 1);
  out[blockIdx.x * blockDim.x + threadIdx.x] = s * 3 + (int)__popc(b) + (lane ? up : 0);
}
__global__ void float_math(const float* in, float* out, double* dout, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float x = in[i];
    out[i] = fminf(fmaxf(x * 2.5f - 1.0f, -3.0f), 3.0f) + floorf(x) + (float)(int)(x * 7.0f) + x / (x * x + 2.0f);
    dout[i] = (double)x * 1.5 + (double)i;
  }
}
__global__ void say(int a, double b) {
  if (threadIdx.x < 2) printf("say %d %5.2f %x %lld\n", a + (int)threadIdx.x, b, 255u, -7LL);
}
