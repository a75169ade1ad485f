// LDS races for CASS_EMULATOR_RACE_CHECK (tests/emulator/test_lds_races.py): one kernel whose
// waves read each other's LDS words between the same barriers (flat and DS accesses), and four that do not (a barrier
// between, a wave's own lanes only, atomics, other workgroups' blocks). 128 threads: 4 waves.
#include <hip/hip_runtime.h>
#include <cstdio>

__global__ void shift_racy(int *out) {
  __shared__ volatile int s[128];
  int t = threadIdx.x;
  s[t] = t + 1;
  out[blockIdx.x * 128 + t] = s[(t + 32) % 128];  // the next wave's word, no barrier between
}

__global__ void pairs_racy(int *out) {  // plain LDS accesses (ds_*), two words a lane
  __shared__ int s[129];
  int t = threadIdx.x;
  s[t] = t + 1;
  if (t == 0) s[128] = 0;
  int i = (t + 31) % 128;
  out[blockIdx.x * 128 + t] = s[i] + s[i + 1];
}

__global__ void shift_synced(int *out) {
  __shared__ volatile int s[128];
  int t = threadIdx.x;
  s[t] = t + 1;
  __syncthreads();
  int got = s[(t + 32) % 128];
  __syncthreads();
  s[t] = got * 2;  // written again after the readers' barrier
  __syncthreads();
  out[blockIdx.x * 128 + t] = s[(t + 64) % 128];
}

__global__ void own_lanes(int *out) {
  __shared__ volatile int s[128];
  int t = threadIdx.x;
  s[t] = t;
  s[t ^ 1] += 100;  // a neighbouring lane of the same wave: lock-step, no race
  out[blockIdx.x * 128 + t] = s[t];
}

__global__ void atomic_count(int *out) {
  __shared__ int count;
  if (threadIdx.x == 0) count = 0;
  __syncthreads();
  atomicAdd(&count, 1);
  __syncthreads();
  out[blockIdx.x * 128 + threadIdx.x] = count;
}

int main() {
  int *d, h[256];
  hipMalloc(&d, sizeof(h));
  const char *names[] = {"shift_racy", "pairs_racy", "shift_synced", "own_lanes", "atomic_count"};
  void (*kernels[])(int *) = {shift_racy, pairs_racy, shift_synced, own_lanes, atomic_count};
  for (int k = 0; k < 5; ++k) {
    hipLaunchKernelGGL(kernels[k], dim3(2), dim3(128), 0, 0, d);
    hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost);
    long sum = 0;
    for (int i = 0; i < 256; ++i) sum += h[i];
    printf("%s %ld\n", names[k], sum);
  }
  hipFree(d);
  return 0;
}
