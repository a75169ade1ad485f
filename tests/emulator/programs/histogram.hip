#include "common.h"
#define BINS 64
__global__ void histogram(const unsigned char* data, int n, unsigned int* bins) {
  __shared__ unsigned int local[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) local[b] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&local[data[i] % BINS], 1u);
  __syncthreads();
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) atomicAdd(&bins[b], local[b]);
}
__global__ void max_and_cas(const unsigned char* data, int n, int* mx, float* fsum) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicMax(mx, (int)data[i]);
    if (threadIdx.x % 32 == 0) atomicAdd(fsum, 0.5f);  // one float CAS loop per wave
  }
}
int main() {
  const int n = 50000;
  unsigned char* h = (unsigned char*)malloc(n);
  unsigned int expect[BINS] = {0};
  int expect_max = 0;
  for (int i = 0; i < n; i++) {
    h[i] = (unsigned char)((i * 2654435761u) >> 13);
    expect[h[i] % BINS]++;
    if (h[i] > expect_max) expect_max = h[i];
  }
  unsigned char* d; unsigned int* bins; int* mx; float* fsum;
  CHECK(hipMalloc(&d, n)); CHECK(hipMalloc(&bins, BINS * 4));
  CHECK(hipMalloc(&mx, 4)); CHECK(hipMalloc(&fsum, 4));
  CHECK(hipMemcpy(d, h, n, hipMemcpyHostToDevice));
  CHECK(hipMemset(bins, 0, BINS * 4)); CHECK(hipMemset(mx, 0, 4)); CHECK(hipMemset(fsum, 0, 4));
  histogram<<<16, 128>>>(d, n, bins);
  max_and_cas<<<(n + 255) / 256, 256>>>(d, n, mx, fsum);
  unsigned int got[BINS]; int gmx; float gsum;
  CHECK(hipMemcpy(got, bins, sizeof(got), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&gmx, mx, 4, hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(&gsum, fsum, 4, hipMemcpyDeviceToHost));
  int bad = 0;
  for (int b = 0; b < BINS; b++) bad += got[b] != expect[b];
  bad += gmx != expect_max;
  bad += gsum != ((n + 31) / 32) * 0.5f;
  printf("max=%d sum=%.1f\n", gmx, gsum);
  return report("histogram", bad);
}
