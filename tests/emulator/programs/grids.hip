#include "common.h"
__global__ void fill2d(int* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = x * 1000 + y;
}
__global__ void fill3d(int* out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz) out[(z * ny + y) * nx + x] = x + 100 * y + 10000 * z;
}
int main() {
  const int w = 37, h = 23, nx = 9, ny = 7, nz = 5;
  int *a, *b;
  CHECK(hipMalloc(&a, w * h * 4)); CHECK(hipMalloc(&b, nx * ny * nz * 4));
  fill2d<<<dim3((w + 15) / 16, (h + 7) / 8), dim3(16, 8)>>>(a, w, h);
  fill3d<<<dim3(3, 2, 3), dim3(4, 4, 2)>>>(b, nx, ny, nz);
  int ha[w * h], hb[nx * ny * nz];
  CHECK(hipMemcpy(ha, a, sizeof(ha), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy(hb, b, sizeof(hb), hipMemcpyDeviceToHost));
  int bad = 0;
  for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) bad += ha[y * w + x] != x * 1000 + y;
  for (int z = 0; z < nz; z++) for (int y = 0; y < ny; y++) for (int x = 0; x < nx; x++)
    bad += hb[(z * ny + y) * nx + x] != x + 100 * y + 10000 * z;
  return report("grids", bad);
}
