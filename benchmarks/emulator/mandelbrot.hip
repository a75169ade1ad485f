// Divergent kernel for the emulator benchmark: Mandelbrot escape counts (lanes leave the loop
// at different iterations).
#include <hip/hip_runtime.h>
#include <cstdio>
#include <cstdlib>
__global__ void mandel(int* out, int w, int h, int max_iter) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x >= w) return;
  float cr = -2.0f + 2.5f * x / w, ci = -1.25f + 2.5f * y / h, zr = 0, zi = 0;
  int it = 0;
  while (it < max_iter && zr * zr + zi * zi < 4.0f) {
    float t = zr * zr - zi * zi + cr;
    zi = 2.0f * zr * zi + ci;
    zr = t;
    it++;
  }
  out[y * w + x] = it;
}
int main(int argc, char** argv) {
  int size = argc > 1 ? atoi(argv[1]) : 256, iters = argc > 2 ? atoi(argv[2]) : 256;
  int* out; hipMalloc(&out, size * size * 4);
  mandel<<<dim3((size + 63) / 64, size), 64>>>(out, size, size, iters);
  int* h = (int*)malloc(size * size * 4);
  hipMemcpy(h, out, size * size * 4, hipMemcpyDeviceToHost);
  long total = 0;
  for (int i = 0; i < size * size; i++) total += h[i];
  printf("mandelbrot size=%d iterations=%ld\n", size, total);
  return 0;
}
