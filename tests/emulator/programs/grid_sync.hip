#include "common.h"
#include <hip/hip_cooperative_groups.h>
namespace cg = cooperative_groups;
// Cooperative launch with grid-wide barriers (grid.sync -> ds_gws_barrier): each round every
// block reads what all blocks wrote in the previous round.
__global__ void rounds(int* data, int* sums, int n, int iters) {
  cg::grid_group grid = cg::this_grid();
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int r = 0; r < iters; r++) {
    if (i < n) data[i] += 1;
    grid.sync();
    if (i == 0) { int s = 0; for (int k = 0; k < n; k++) s += data[k]; sums[r] = s; }
    grid.sync();
  }
}
int main() {
  const int n = 256, iters = 3;
  int *data, *sums;
  CHECK(hipMalloc(&data, n * 4)); CHECK(hipMalloc(&sums, iters * 4));
  CHECK(hipMemset(data, 0, n * 4));
  int nn = n, it = iters;
  void* args[] = {&data, &sums, &nn, &it};
  CHECK(hipLaunchCooperativeKernel((void*)rounds, dim3(4), dim3(64), args, 0, 0));
  int got[iters];
  CHECK(hipMemcpy(got, sums, sizeof(got), hipMemcpyDeviceToHost));
  int bad = 0;
  for (int r = 0; r < iters; r++) bad += got[r] != n * (r + 1);
  printf("sums %d %d %d\n", got[0], got[1], got[2]);
  return report("grid_sync", bad);
}
