// Compute-bound, mildly divergent kernel for the emulator benchmark: one ray per pixel against
// a row of spheres, Lambert shading of the nearest hit.
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
__global__ void shade(float* img, int w, int h, int spheres) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= w) return;
  float dx = (x - w * 0.5f) / w, dy = (y - h * 0.5f) / h, dz = 1.0f;
  float len = sqrtf(dx * dx + dy * dy + dz * dz);
  dx /= len; dy /= len; dz /= len;
  float best = 1e30f, shade = 0.0f;
  for (int s = 0; s < spheres; s++) {
    float cx = (s % 8) - 3.5f, cy = (s / 8) * 0.7f - 1.0f, cz = 6.0f + (s % 3), r = 0.45f;
    float b = dx * cx + dy * cy + dz * cz, c = cx * cx + cy * cy + cz * cz - r * r;
    float disc = b * b - c;
    if (disc > 0.0f) {
      float t = b - sqrtf(disc);
      if (t > 0.0f && t < best) {
        best = t;
        float nx = (dx * t - cx) / r, ny = (dy * t - cy) / r, nz = (dz * t - cz) / r;
        shade = fmaxf(0.0f, -0.5f * nx + 0.7f * ny - 0.5f * nz);
      }
    }
  }
  img[y * w + x] = shade;
}
int main(int argc, char** argv) {
  int size = argc > 1 ? atoi(argv[1]) : 256, spheres = argc > 2 ? atoi(argv[2]) : 32;
  float* img; hipMalloc(&img, size * size * 4);
  shade<<<dim3((size + 63) / 64, size), 64>>>(img, size, size, spheres);
  float* h = (float*)malloc(size * size * 4);
  hipMemcpy(h, img, size * size * 4, hipMemcpyDeviceToHost);
  double sum = 0;
  for (int i = 0; i < size * size; i++) sum += h[i];
  printf("raysphere size=%d spheres=%d checksum=%.4f\n", size, spheres, sum);
  return 0;
}
