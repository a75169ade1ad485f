// Host program for texture_1d.cu (the kernels' device code comes from the lifted SASS): a 1D
// array of 32 floats i * 1.5 and a layered 1D array (layer l adds 100 l), point sampled.
#include <hip/hip_runtime.h>
#include <cstdio>

extern "C" __global__ void sample1d(hipTextureObject_t, float*) {}
extern "C" __global__ void lod1d(hipTextureObject_t, float*, float) {}
extern "C" __global__ void layered1d(hipTextureObject_t, float*, int) {}

static hipTextureObject_t texture_of(hipArray_t a) {
  hipResourceDesc res = {};
  res.resType = hipResourceTypeArray;
  res.res.array.array = a;
  hipTextureDesc td = {};
  td.filterMode = hipFilterModePoint;
  td.readMode = hipReadModeElementType;
  hipTextureObject_t t;
  hipCreateTextureObject(&t, &res, &td, nullptr);
  return t;
}

static void show(const char* name, const float* d) {
  float h[32];
  hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost);
  printf("%s", name);
  for (int i = 0; i < 32; ++i) printf(" %g", h[i]);
  printf("\n");
}

int main() {
  const int n = 32;
  float line[n], layers[3 * n];
  for (int i = 0; i < n; ++i) line[i] = i * 1.5f;
  for (int i = 0; i < 3 * n; ++i) layers[i] = (i % n) * 1.5f + 100.0f * (i / n);
  hipChannelFormatDesc f = hipCreateChannelDesc<float>();
  hipArray_t a1, al;
  hipMallocArray(&a1, &f, n, 0);
  hipMemcpy2DToArray(a1, 0, 0, line, sizeof(line), sizeof(line), 1, hipMemcpyHostToDevice);
  hipExtent e = {n, 0, 3};
  hipMalloc3DArray(&al, &f, e, hipArrayLayered);
  hipMemcpy3DParms p = {};
  p.srcPtr = make_hipPitchedPtr(layers, n * sizeof(float), n, 1);
  p.dstArray = al;
  p.extent = make_hipExtent(n, 1, 3);
  p.kind = hipMemcpyHostToDevice;
  hipMemcpy3D(&p);
  float* d;
  hipMalloc(&d, n * sizeof(float));
  hipTextureObject_t t1 = texture_of(a1), tl = texture_of(al);
  sample1d<<<1, n>>>(t1, d);
  show("sample1d", d);
  lod1d<<<1, n>>>(t1, d, 0.0f);
  show("lod1d", d);
  layered1d<<<1, n>>>(tl, d, 2);
  show("layered1d", d);
  return 0;
}
