// Texture and surface objects, one kernel per form: tex1Dfetch (float, int4, float2) on linear
// memory, tex2D point sampling with unnormalized coordinates, tex2D bilinear with normalized
// coordinates on float4 texels, tex3D, tex2DLayered, tex2Dgather, tex2DLod, and surface
// reads/writes (float, float4, uchar4 with clamp and zero boundaries, 1D). Printed for comparison with
// the H200's output (texture_kernels.h200.txt).
#include <cstdio>
#include <cuda_runtime.h>

constexpr int W = 16, H = 8, D = 4, L = 3, N = 256;

extern "C" __global__ void fetch_float(cudaTextureObject_t t, float* out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < N) out[i] = tex1Dfetch<float>(t, i) * 2.0f;
}
extern "C" __global__ void fetch_int4(cudaTextureObject_t t, int4* out) {
  int i = threadIdx.x;
  out[i] = tex1Dfetch<int4>(t, i);
}
extern "C" __global__ void fetch_float2(cudaTextureObject_t t, float2* out) {
  int i = threadIdx.x;
  out[i] = tex1Dfetch<float2>(t, i);
}
extern "C" __global__ void point2d(cudaTextureObject_t t, float* out) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * W + x] = tex2D<float>(t, x + 0.25f, y + 0.75f);
}
extern "C" __global__ void linear2d(cudaTextureObject_t t, float4* out) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * W + x] = tex2D<float4>(t, (x + 0.75f) / W, (y + 0.5f) / H);
}
extern "C" __global__ void point3d(cudaTextureObject_t t, float* out) {
  int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y;
  out[(z * H + y) * W + x] = tex3D<float>(t, x + 0.5f, y + 0.5f, z + 0.5f);
}
extern "C" __global__ void layered2d(cudaTextureObject_t t, float* out, int layer) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * W + x] = tex2DLayered<float>(t, x + 0.5f, y + 0.5f, layer);
}
extern "C" __global__ void gather2d(cudaTextureObject_t t, float4* out) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * (W - 1) + x] = tex2Dgather<float4>(t, x + 1.0f, y + 1.0f, 0);
}
extern "C" __global__ void lod2d(cudaTextureObject_t t, float* out) {
  int x = threadIdx.x, y = blockIdx.x;
  out[y * W + x] = tex2DLod<float>(t, x + 0.5f, y + 0.5f, 0.0f);
}
extern "C" __global__ void surface_float(cudaSurfaceObject_t s, cudaSurfaceObject_t d) {
  int x = threadIdx.x, y = blockIdx.x;
  float v;
  surf2Dread(&v, s, x * 4, y);
  surf2Dwrite(v * 3.0f + 1.0f, d, x * 4, y);
}
extern "C" __global__ void surface_uchar4(cudaSurfaceObject_t s) {
  int x = threadIdx.x, y = blockIdx.x;
  uchar4 v;
  surf2Dread(&v, s, (x + 1) * 4, y, cudaBoundaryModeClamp);
  __syncthreads();
  v.x += 1;
  v.w = v.y;
  surf2Dwrite(v, s, x * 4, y, cudaBoundaryModeZero);
}
extern "C" __global__ void surface_float4(cudaSurfaceObject_t s) {
  int x = threadIdx.x, y = blockIdx.x;
  float4 v;
  surf2Dread(&v, s, x * 16, y);
  surf2Dwrite(make_float4(v.w, v.z, v.y, v.x + 0.5f), s, x * 16, y);
}
extern "C" __global__ void surface_1d(cudaSurfaceObject_t s, float* out) {
  int x = threadIdx.x;
  float v;
  surf1Dread(&v, s, x * 4);
  out[x] = v;
}

static float g(int x, int y) { return x * 10.0f + y; }

static cudaTextureObject_t make_texture(cudaResourceDesc res, cudaTextureFilterMode filter,
                                   bool normalized) {
  cudaTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
  td.filterMode = filter;
  td.readMode = cudaReadModeElementType;
  td.normalizedCoords = normalized;
  cudaTextureObject_t t = 0;
  cudaCreateTextureObject(&t, &res, &td, nullptr);
  return t;
}

static cudaTextureObject_t linear_texture(void* data, cudaChannelFormatDesc desc, size_t bytes) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeLinear;
  res.res.linear.devPtr = data;
  res.res.linear.desc = desc;
  res.res.linear.sizeInBytes = bytes;
  return make_texture(res, cudaFilterModePoint, false);
}

static cudaResourceDesc array_resource(cudaArray_t a) {
  cudaResourceDesc res = {};
  res.resType = cudaResourceTypeArray;
  res.res.array.array = a;
  return res;
}

static void show(const char* name, const float* d, int n) {
  float* h = new float[n];
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%s", name);
  for (int i = 0; i < n; ++i) printf(" %.9g", h[i]);
  printf("\n");
  delete[] h;
}

static cudaArray_t array3d(cudaChannelFormatDesc desc, const float* host, int depth, int flags) {
  cudaArray_t a;
  cudaExtent extent = {W, H, (size_t)depth};
  cudaMalloc3DArray(&a, &desc, extent, flags);
  cudaMemcpy3DParms p = {};
  p.srcPtr.ptr = (void*)host;
  p.srcPtr.pitch = W * sizeof(float);
  p.srcPtr.xsize = W;
  p.srcPtr.ysize = H;
  p.dstArray = a;
  p.extent = extent;
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&p);
  return a;
}

int main() {
  float lin[N], plane[W * H], volume[W * H * D], layers[W * H * L];
  int ints[4 * 64];
  float4 quad[W * H];
  unsigned char bytes[4 * W * H];
  for (int i = 0; i < N; ++i) lin[i] = (i * 7 % 23) - 5.0f;
  for (int i = 0; i < 4 * 64; ++i) ints[i] = i * 3 - 100;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      plane[y * W + x] = g(x, y);
      quad[y * W + x] = make_float4(x, y, x + y, x * y);
      for (int z = 0; z < D; ++z) volume[(z * H + y) * W + x] = g(x, y) + 100.0f * z;
      for (int l = 0; l < L; ++l) layers[(l * H + y) * W + x] = g(x, y) + 1000.0f * l;
      for (int c = 0; c < 4; ++c) bytes[4 * (y * W + x) + c] = (unsigned char)(x * 4 + y * 7 + c * 50);
    }
  float *dlin, *dout;
  int* dints;
  cudaMalloc(&dlin, sizeof(lin));
  cudaMalloc(&dints, sizeof(ints));
  cudaMalloc(&dout, 4 * W * H * D * sizeof(float));
  cudaMemcpy(dlin, lin, sizeof(lin), cudaMemcpyHostToDevice);
  cudaMemcpy(dints, ints, sizeof(ints), cudaMemcpyHostToDevice);

  fetch_float<<<2, 128>>>(linear_texture(dlin, cudaCreateChannelDesc<float>(), sizeof(lin)), dout);
  show("fetch_float", dout, N);
  fetch_int4<<<1, 64>>>(linear_texture(dints, cudaCreateChannelDesc<int4>(), sizeof(ints)), (int4*)dout);
  int4 h4[64];
  cudaMemcpy(h4, dout, sizeof(h4), cudaMemcpyDeviceToHost);
  printf("fetch_int4");
  for (int i = 0; i < 64; ++i) printf(" %d %d %d %d", h4[i].x, h4[i].y, h4[i].z, h4[i].w);
  printf("\n");
  fetch_float2<<<1, 128>>>(linear_texture(dlin, cudaCreateChannelDesc<float2>(), sizeof(lin)), (float2*)dout);
  show("fetch_float2", dout, N);

  cudaChannelFormatDesc f1 = cudaCreateChannelDesc<float>();
  cudaArray_t a2;
  cudaMallocArray(&a2, &f1, W, H);
  cudaMemcpy2DToArray(a2, 0, 0, plane, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice);
  cudaTextureObject_t tp = make_texture(array_resource(a2), cudaFilterModePoint, false);
  point2d<<<H, W>>>(tp, dout);
  show("point2d", dout, W * H);
  gather2d<<<H - 1, W - 1>>>(tp, (float4*)dout);
  show("gather2d", dout, 4 * (W - 1) * (H - 1));
  lod2d<<<H, W>>>(tp, dout);
  show("lod2d", dout, W * H);

  cudaChannelFormatDesc f4 = cudaCreateChannelDesc<float4>();
  cudaArray_t a4;
  cudaMallocArray(&a4, &f4, W, H);
  cudaMemcpy2DToArray(a4, 0, 0, quad, W * sizeof(float4), W * sizeof(float4), H, cudaMemcpyHostToDevice);
  linear2d<<<H, W>>>(make_texture(array_resource(a4), cudaFilterModeLinear, true), (float4*)dout);
  show("linear2d", dout, 4 * W * H);

  cudaArray_t a3 = array3d(f1, volume, D, 0);
  point3d<<<dim3(H, D), W>>>(make_texture(array_resource(a3), cudaFilterModePoint, false), dout);
  show("point3d", dout, W * H * D);
  cudaArray_t al = array3d(f1, layers, L, cudaArrayLayered);
  layered2d<<<H, W>>>(make_texture(array_resource(al), cudaFilterModePoint, false), dout, 2);
  show("layered2d", dout, W * H);

  cudaArray_t s1, s2, sb;
  cudaMallocArray(&s1, &f1, W, H, cudaArraySurfaceLoadStore);
  cudaMallocArray(&s2, &f1, W, H, cudaArraySurfaceLoadStore);
  cudaMemcpy2DToArray(s1, 0, 0, plane, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice);
  cudaSurfaceObject_t ss1, ss2, ssb;
  cudaResourceDesc r1 = array_resource(s1), r2 = array_resource(s2);
  cudaCreateSurfaceObject(&ss1, &r1);
  cudaCreateSurfaceObject(&ss2, &r2);
  surface_float<<<H, W>>>(ss1, ss2);
  float back[W * H];
  cudaMemcpy2DFromArray(back, W * sizeof(float), s2, 0, 0, W * sizeof(float), H, cudaMemcpyDeviceToHost);
  cudaMemcpy(dout, back, sizeof(back), cudaMemcpyHostToDevice);
  show("surface_float", dout, W * H);
  cudaArray_t s3;
  cudaSurfaceObject_t ss3;
  cudaMallocArray(&s3, &f1, N, 0, cudaArraySurfaceLoadStore);
  cudaMemcpy2DToArray(s3, 0, 0, lin, sizeof(lin), sizeof(lin), 1, cudaMemcpyHostToDevice);
  cudaResourceDesc r3 = array_resource(s3);
  cudaCreateSurfaceObject(&ss3, &r3);
  surface_1d<<<1, N>>>(ss3, dout);
  show("surface_1d", dout, N);

  cudaArray_t sq;
  cudaSurfaceObject_t ssq;
  cudaMallocArray(&sq, &f4, W, H, cudaArraySurfaceLoadStore);
  cudaMemcpy2DToArray(sq, 0, 0, quad, W * sizeof(float4), W * sizeof(float4), H, cudaMemcpyHostToDevice);
  cudaResourceDesc rq = array_resource(sq);
  cudaCreateSurfaceObject(&ssq, &rq);
  surface_float4<<<H, W>>>(ssq);
  cudaMemcpy2DFromArray(quad, W * sizeof(float4), sq, 0, 0, W * sizeof(float4), H, cudaMemcpyDeviceToHost);
  cudaMemcpy(dout, quad, sizeof(quad), cudaMemcpyHostToDevice);
  show("surface_float4", dout, 4 * W * H);

  cudaChannelFormatDesc u4 = cudaCreateChannelDesc<uchar4>();
  cudaMallocArray(&sb, &u4, W, H, cudaArraySurfaceLoadStore);
  cudaMemcpy2DToArray(sb, 0, 0, bytes, W * 4, W * 4, H, cudaMemcpyHostToDevice);
  cudaResourceDesc rb = array_resource(sb);
  cudaCreateSurfaceObject(&ssb, &rb);
  surface_uchar4<<<H, W + 2>>>(ssb);
  cudaMemcpy2DFromArray(bytes, W * 4, sb, 0, 0, W * 4, H, cudaMemcpyDeviceToHost);
  printf("surface_uchar4");
  for (int i = 0; i < 4 * W * H; ++i) printf(" %d", bytes[i]);
  printf("\n");
  return cudaDeviceSynchronize() == cudaSuccess ? 0 : 1;
}
