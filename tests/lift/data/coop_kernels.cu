// A cooperative launch: every block writes its slice, the whole grid synchronises with
// cooperative_groups' grid.sync() (a barrier on the driver's workspace, %envreg1/%envreg2), then
// every block reads its neighbour's slice. Three rounds; main() checks against a CPU reference.
#include <cstdio>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define BLOCKS 6
#define THREADS 64

__global__ void rotate_rounds(int* a, int* b, int rounds, int* valid) {
  cg::grid_group grid = cg::this_grid();
  int i = grid.thread_rank();
  int n = grid.size();
  if (i == 0) *valid = grid.is_valid();
  for (int r = 0; r < rounds; r++) {
    b[i] = a[(i + THREADS) % n] * 3 + r;
    grid.sync();
    a[i] = b[i] + b[(i + n - 1) % n];
    grid.sync();
  }
}

int main() {
  const int n = BLOCKS * THREADS, rounds = 3;
  int ha[n], want[n], tmp[n], got[n], valid = 0;
  for (int i = 0; i < n; i++) ha[i] = want[i] = (i * 31) % 17;
  int *da, *db, *dvalid;
  cudaMalloc(&da, sizeof(ha));
  cudaMalloc(&db, sizeof(ha));
  cudaMalloc(&dvalid, sizeof(int));
  cudaMemcpy(da, ha, sizeof(ha), cudaMemcpyHostToDevice);
  int r = rounds;
  void* args[] = {&da, &db, &r, &dvalid};
  cudaError_t err = cudaLaunchCooperativeKernel((void*)rotate_rounds, dim3(BLOCKS), dim3(THREADS), args, 0, 0);
  if (err != cudaSuccess) { printf("launch failed: %s\n", cudaGetErrorString(err)); return 2; }
  cudaMemcpy(got, da, sizeof(got), cudaMemcpyDeviceToHost);
  cudaMemcpy(&valid, dvalid, sizeof(int), cudaMemcpyDeviceToHost);
  for (int k = 0; k < rounds; k++) {
    for (int i = 0; i < n; i++) tmp[i] = want[(i + THREADS) % n] * 3 + k;
    for (int i = 0; i < n; i++) want[i] = tmp[i] + tmp[(i + n - 1) % n];
  }
  for (int i = 0; i < n; i++)
    if (got[i] != want[i]) { printf("grid_sync FAIL at %d: got %d expected %d\n", i, got[i], want[i]); return 1; }
  printf("grid_sync ok valid=%d\n", valid);
  return 0;
}
