// kernels.cu in HIP plus a host program. Built whole, it is the oracle; built host-only around the
// lifted SASS of kernels.cu, it runs the translation. Both must print the same lines.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cmath>
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
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor(s, o);
  unsigned b = (unsigned)__ballot(v & 1);
  int up = __shfl_up(v, 1);
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

template <class T> T* dev(const T* h, int n) { T* d; hipMalloc(&d, n * sizeof(T)); hipMemcpy(d, h, n * sizeof(T), hipMemcpyHostToDevice); return d; }
template <class T> void back(T* h, const T* d, int n) { hipMemcpy(h, d, n * sizeof(T), hipMemcpyDeviceToHost); }

int main() {
  const int n = 1000;
  float a[n], b[n], c[n];
  for (int i = 0; i < n; ++i) { a[i] = i * 0.5f - 100.0f; b[i] = 3.0f - i * 0.25f; }
  float *da = dev(a, n), *db = dev(b, n), *dc = dev(c, n);
  vecadd<<<(n + 127) / 128, 128>>>(da, db, dc, n);
  back(c, dc, n);
  double s1 = 0; for (int i = 0; i < n; ++i) s1 += c[i] * (i % 7);
  printf("vecadd %.3f\n", s1);
  saxpy<<<3, 64>>>(1.5f, da, db, n);
  back(b, db, n);
  double s2 = 0; for (int i = 0; i < n; ++i) s2 += b[i] * (i % 5);
  printf("saxpy %.3f\n", s2);
  float zero = 0; float* dout = dev(&zero, 1);
  reduce_sum<<<(n + 255) / 256, 128>>>(da, dout, n);
  float total; back(&total, dout, 1);
  printf("reduce %.3f\n", total);
  int ia[n]; long long ib[n]; unsigned ic[n];
  for (int i = 0; i < n; ++i) { ia[i] = i * 7919 - 300000; ib[i] = (long long)i * 123456789123LL - 5; ic[i] = 2654435761u * i; }
  int* dia = dev(ia, n); long long* dib = dev(ib, n); unsigned* dic = dev(ic, n);
  int_division<<<8, 128>>>(dia, dib, dic, n);
  back(ia, dia, n); back(ib, dib, n); back(ic, dic, n);
  long long h = 0; for (int i = 0; i < n; ++i) h = h * 31 + ia[i] + ib[i] + ic[i];
  printf("intdiv %lld\n", h);
  int w[256], wo[256];
  for (int i = 0; i < 256; ++i) w[i] = (i * 37) % 101;
  int *dw = dev(w, 256), *dwo = dev(wo, 256);
  warp_ops<<<2, 128>>>(dw, dwo);
  back(wo, dwo, 256);
  long long hw = 0; for (int i = 0; i < 256; ++i) hw = hw * 17 + wo[i];
  printf("warp %lld\n", hw);
  double dd[n]; double* ddd = dev(dd, n);
  float_math<<<8, 128>>>(da, dc, ddd, n);
  back(c, dc, n); back(dd, ddd, n);
  double s3 = 0; for (int i = 0; i < n; ++i) s3 += c[i] * (i % 3) + dd[i];
  printf("float %.4f\n", s3);
  say<<<1, 32>>>(41, 2.5);
  hipDeviceSynchronize();
  return 0;
}
