// Host program for surface_sizes.cu (the kernels' device code comes from the lifted SASS).
#include <hip/hip_runtime.h>
#include <cstdio>

extern "C" __global__ void bytes(hipSurfaceObject_t) {}
extern "C" __global__ void shorts(hipSurfaceObject_t) {}
extern "C" __global__ void pairs(hipSurfaceObject_t) {}

constexpr int W = 16, H = 4;

template <typename T>
static void run(void (*kernel)(hipSurfaceObject_t), T* data, const char* name) {
  hipChannelFormatDesc f = hipCreateChannelDesc<T>();
  hipArray_t a;
  hipMallocArray(&a, &f, W, H, hipArraySurfaceLoadStore);
  hipMemcpy2DToArray(a, 0, 0, data, W * sizeof(T), W * sizeof(T), H, hipMemcpyHostToDevice);
  hipResourceDesc r = {};
  r.resType = hipResourceTypeArray;
  r.res.array.array = a;
  hipSurfaceObject_t s;
  hipCreateSurfaceObject(&s, &r);
  kernel<<<H, W>>>(s);
  hipMemcpy2DFromArray(data, W * sizeof(T), a, 0, 0, W * sizeof(T), H, hipMemcpyDeviceToHost);
  printf("%s", name);
}

int main() {
  unsigned char b[W * H];
  short h[W * H];
  float2 p[W * H];
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      b[y * W + x] = (unsigned char)(x * 3 + y * 40);
      h[y * W + x] = (short)(x * 100 - y * 1000 - 500);
      p[y * W + x] = make_float2(x + 0.5f, -y);
    }
  run(bytes, b, "bytes");
  for (int i = 0; i < W * H; ++i) printf(" %d", b[i]);
  run(shorts, h, "\nshorts");
  for (int i = 0; i < W * H; ++i) printf(" %d", h[i]);
  run(pairs, p, "\npairs");
  for (int i = 0; i < W * H; ++i) printf(" %g %g", p[i].x, p[i].y);
  printf("\n");
  return 0;
}
