#include "common.h"
__global__ void warp_ops(const int* in, int* sums, unsigned long long* ballots, int* bcast,
                         int* anyall) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[i];
  int s = v;
  for (int off = warpSize / 2; off > 0; off /= 2) s += __shfl_down(s, off);
  int lane = threadIdx.x % warpSize, warp = i / warpSize;
  if (lane == 0) sums[warp] = s;
  unsigned long long b = __ballot(v % 3 == 0);
  if (lane == 0) ballots[warp] = b;
  bcast[i] = __shfl(v, 5) + __shfl_xor(v, 1);
  anyall[i] = (__any(v > 90) ? 1 : 0) | (__all(v >= 0) ? 2 : 0);  // every lane: no sinking
}
int main() {
  const int n = 256, warps = n / 32;
  int h[n];
  for (int i = 0; i < n; i++) h[i] = (i * 37) % 101;
  int *in, *sums, *bcast, *anyall; unsigned long long* ballots;
  CHECK(hipMalloc(&in, n * 4)); CHECK(hipMalloc(&sums, warps * 4));
  CHECK(hipMalloc(&ballots, warps * 8)); CHECK(hipMalloc(&bcast, n * 4));
  CHECK(hipMalloc(&anyall, n * 4));
  CHECK(hipMemcpy(in, h, n * 4, hipMemcpyHostToDevice));
  warp_ops<<<n / 64, 64>>>(in, sums, ballots, bcast, anyall);
  int gs[warps], gb[n], ga[n]; unsigned long long gballot[warps];
  CHECK(hipMemcpy(gs, sums, sizeof(gs), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(gballot, ballots, sizeof(gballot), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(gb, bcast, sizeof(gb), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(ga, anyall, sizeof(ga), hipMemcpyDeviceToHost));
  int bad = 0;
  for (int w = 0; w < warps; w++) {
    int s = 0, any = 0, all = 1; unsigned long long bl = 0;
    for (int l = 0; l < 32; l++) {
      int v = h[w * 32 + l];
      s += v; if (v % 3 == 0) bl |= 1ull << l; any |= v > 90; all &= v >= 0;
    }
    bad += gs[w] != s; bad += gballot[w] != bl; for (int l = 0; l < 32; l++) bad += ga[w * 32 + l] != (any | (all << 1));
    for (int l = 0; l < 32; l++) bad += gb[w * 32 + l] != h[w * 32 + 5] + h[w * 32 + (l ^ 1)];
  }
  return report("warp_ops", bad);
}
