// Host program for texture_query.cu (the kernel's device code comes from the lifted SASS).
#include <hip/hip_runtime.h>
#include <cstdio>

extern "C" __global__ void query(hipTextureObject_t, hipTextureObject_t, hipSurfaceObject_t, int*) {}

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

int main() {
  hipChannelFormatDesc f = hipCreateChannelDesc<float>();
  hipArray_t a2, a3, as;
  hipMallocArray(&a2, &f, 24, 10);
  hipMallocArray(&as, &f, 12, 5, hipArraySurfaceLoadStore);
  hipExtent e = {20, 6, 3};
  hipMalloc3DArray(&a3, &f, e, 0);
  hipResourceDesc rs = {};
  rs.resType = hipResourceTypeArray;
  rs.res.array.array = as;
  hipSurfaceObject_t s;
  hipCreateSurfaceObject(&s, &rs);
  int* d;
  hipMalloc(&d, 8 * sizeof(int));
  query<<<1, 8>>>(texture_of(a2), texture_of(a3), s, d);
  int h[8];
  hipMemcpy(h, d, sizeof(h), hipMemcpyDeviceToHost);
  printf("query");
  for (int i = 0; i < 8; ++i) printf(" %d", h[i]);
  printf("\n");
  return 0;
}
