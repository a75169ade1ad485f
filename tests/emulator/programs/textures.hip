// Texture and surface objects: every case prints its coordinates and results (hex floats) for
// tests/emulator/test_textures.py to compare against its numpy model of the sampling.
#include "common.h"

constexpr int W = 5, H = 4, D = 3, N = 48;

static float texel(int x, int y, int z, int c) { return ((x * 7 + y * 13 + z * 29 + c * 3) % 23) * 0.5f - 3.0f; }
static unsigned char texel8(int x, int y, int c) { return (unsigned char)((x * 37 + y * 11 + c * 61) & 255); }

template <typename T> __global__ void k1d(hipTextureObject_t t, const float4* c, T* out) {
  int i = threadIdx.x; out[i] = tex1D<T>(t, c[i].x);
}
template <typename T> __global__ void k2d(hipTextureObject_t t, const float4* c, T* out) {
  int i = threadIdx.x; out[i] = tex2D<T>(t, c[i].x, c[i].y);
}
template <typename T> __global__ void k3d(hipTextureObject_t t, const float4* c, T* out) {
  int i = threadIdx.x; out[i] = tex3D<T>(t, c[i].x, c[i].y, c[i].z);
}
// a 3D surface read at (x, y, z) and written at (y, x, z): clang-16 passes the store's address as an
// NSA list ([v2, v0, v3])
__global__ void ksurf3d(hipSurfaceObject_t s) {
  int x = threadIdx.x, y = blockIdx.x, z = blockIdx.y; float v;
  surf3Dread(&v, s, x * (int)sizeof(float), y, z);
  surf3Dwrite(v + 1.0f, s, y * (int)sizeof(float), x, z);
}
__global__ void klayered(hipTextureObject_t t, const float4* c, float* out) {
  int i = threadIdx.x; out[i] = tex2DLayered<float>(t, c[i].x, c[i].y, (int)c[i].w);
}
// HIP 5.2's tex2Dgather numbers components 1 (r) 2 (g) 3 (b), anything else (0 included) alpha
__global__ void kgather(hipTextureObject_t t, const float4* c, float4* out) {
  int i = threadIdx.x; out[i] = tex2Dgather<float4>(t, c[i].x, c[i].y, 1);
}
__global__ void kgather0(hipTextureObject_t t, const float4* c, float4* out) {
  int i = threadIdx.x; out[i] = tex2Dgather<float4>(t, c[i].x, c[i].y, 0);
}
template <typename T> __global__ void kfetch(hipTextureObject_t t, const float4* c, T* out) {
  int i = threadIdx.x; out[i] = tex1Dfetch<T>(t, (int)c[i].x);
}
__global__ void ksurf_write(hipSurfaceObject_t s) {
  int x = threadIdx.x, y = blockIdx.x;
  surf2Dwrite(x * 10.0f + y + 0.25f, s, x * (int)sizeof(float), y);
}
__global__ void ksurf_read(hipSurfaceObject_t s, float* out) {
  int x = threadIdx.x, y = blockIdx.x; float v;
  surf2Dread(&v, s, x * (int)sizeof(float), y);
  out[y * blockDim.x + x] = v * 2.0f;
}

static void put(float v) { printf(" %a", v); }
static void put(int v) { printf(" %d", v); }
static void put(float2 v) { put(v.x); put(v.y); }
static void put(float4 v) { put(v.x); put(v.y); put(v.z); put(v.w); }

struct Case { const char* name; hipArray_t array; hipTextureFilterMode filter; hipTextureAddressMode mode; int normalized; hipTextureReadMode read; };

static hipTextureObject_t object_for(const Case& c) {
  hipResourceDesc res = {}; res.resType = hipResourceTypeArray; res.res.array.array = c.array;
  hipTextureDesc td = {};
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = c.mode;
  td.filterMode = c.filter; td.readMode = c.read; td.normalizedCoords = c.normalized;
  hipTextureObject_t t; CHECK(hipCreateTextureObject(&t, &res, &td, nullptr));
  hipResourceDesc back; CHECK(hipGetTextureObjectResourceDesc(&back, t));
  if (back.resType != hipResourceTypeArray || back.res.array.array != c.array) { printf("resource desc lost\n"); exit(3); }
  return t;
}

template <typename T, typename K>
static void run(const char* name, K kernel, hipTextureObject_t t, const float4* hc, const float4* dc) {
  T* out; CHECK(hipMalloc(&out, N * sizeof(T)));
  kernel<<<1, N>>>(t, dc, out); CHECK(hipGetLastError());
  T host[N]; CHECK(hipMemcpy(host, out, sizeof(host), hipMemcpyDeviceToHost));
  printf("case %s\n", name);
  for (int i = 0; i < N; i++) { printf("%a %a %a %a |", hc[i].x, hc[i].y, hc[i].z, hc[i].w); put(host[i]); printf("\n"); }
  CHECK(hipFree(out));
}

static hipArray_t float_array(int channels, int w, int h, int d, unsigned flags) {
  hipChannelFormatDesc desc = hipCreateChannelDesc(32, channels > 1 ? 32 : 0, channels > 2 ? 32 : 0, channels > 3 ? 32 : 0, hipChannelFormatKindFloat);
  hipArray_t a; int rows = h ? h : 1, slices = d ? d : 1;
  float* host = (float*)malloc(sizeof(float) * channels * w * rows * slices);
  for (int z = 0; z < slices; z++) for (int y = 0; y < rows; y++) for (int x = 0; x < w; x++)
    for (int c = 0; c < channels; c++) host[((z * rows + y) * w + x) * channels + c] = texel(x, y, z, c);
  if (d) {
    CHECK(hipMalloc3DArray(&a, &desc, make_hipExtent(w, h, d), flags));
    hipMemcpy3DParms p = {}; p.srcPtr = make_hipPitchedPtr(host, w * channels * 4, w, rows);
    p.dstArray = a; p.extent = make_hipExtent(w, rows, d); p.kind = hipMemcpyHostToDevice;
    CHECK(hipMemcpy3D(&p));
  } else {
    CHECK(hipMallocArray(&a, &desc, w, h, flags));
    CHECK(hipMemcpy2DToArray(a, 0, 0, host, w * channels * 4, w * channels * 4, rows, hipMemcpyHostToDevice));
  }
  free(host);
  return a;
}

int main() {
  float4 hc[N], hu[N];  // normalized and unnormalized coordinates
  for (int i = 0; i < N; i++) {
    hc[i] = make_float4(-0.6f + i * 0.0371f, 1.3f - i * 0.0313f, -0.2f + i * 0.029f, (float)(i % D));
    hu[i] = make_float4(hc[i].x * W, hc[i].y * H, (float)(i % D), 0.0f);
  }
  float4 *dc, *du; CHECK(hipMalloc(&dc, sizeof(hc))); CHECK(hipMalloc(&du, sizeof(hu)));
  CHECK(hipMemcpy(dc, hc, sizeof(hc), hipMemcpyHostToDevice)); CHECK(hipMemcpy(du, hu, sizeof(hu), hipMemcpyHostToDevice));

  hipArray_t a2 = float_array(1, W, H, 0, 0), a2f2 = float_array(2, W, H, 0, 0), a1 = float_array(1, W, 0, 0, 0);
  hipArray_t a3 = float_array(1, W, H, D, 0), al = float_array(1, W, H, D, hipArrayLayered);
  const hipTextureReadMode E = hipReadModeElementType;
  Case lc = {"", a2, hipFilterModeLinear, hipAddressModeClamp, 1, E};
  run<float>("2d_linear_clamp_norm", k2d<float>, object_for(lc), hc, dc);
  run<float>("2d_point_wrap_norm", k2d<float>, object_for({"", a2, hipFilterModePoint, hipAddressModeWrap, 1, E}), hc, dc);
  run<float>("2d_linear_wrap_norm", k2d<float>, object_for({"", a2, hipFilterModeLinear, hipAddressModeWrap, 1, E}), hc, dc);
  run<float>("2d_linear_mirror_norm", k2d<float>, object_for({"", a2, hipFilterModeLinear, hipAddressModeMirror, 1, E}), hc, dc);
  run<float>("2d_linear_border_unnorm", k2d<float>, object_for({"", a2, hipFilterModeLinear, hipAddressModeBorder, 0, E}), hu, du);
  run<float>("2d_point_border_unnorm", k2d<float>, object_for({"", a2, hipFilterModePoint, hipAddressModeBorder, 0, E}), hu, du);
  run<float2>("2d_linear_clamp_norm_float2", k2d<float2>, object_for({"", a2f2, hipFilterModeLinear, hipAddressModeClamp, 1, E}), hc, dc);
  hipArray_t a2f4 = float_array(4, W, H, 0, 0);
  run<float4>("2d_point_wrap_norm_float4", k2d<float4>, object_for({"", a2f4, hipFilterModePoint, hipAddressModeWrap, 1, E}), hc, dc);
  {  // pitched linear memory (hipMallocPitch) as a 2D texture
    float host[H][W];
    for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) host[y][x] = texel(x, y, 0, 0);
    float* pitched; size_t pitch;
    CHECK(hipMallocPitch((void**)&pitched, &pitch, W * sizeof(float), H));
    CHECK(hipMemcpy2D(pitched, pitch, host, W * sizeof(float), W * sizeof(float), H, hipMemcpyHostToDevice));
    hipResourceDesc pr = {}; pr.resType = hipResourceTypePitch2D; pr.res.pitch2D.devPtr = pitched;
    pr.res.pitch2D.desc = hipCreateChannelDesc<float>(); pr.res.pitch2D.width = W; pr.res.pitch2D.height = H;
    pr.res.pitch2D.pitchInBytes = pitch;
    hipTextureDesc ptd = {}; ptd.addressMode[0] = ptd.addressMode[1] = hipAddressModeMirror;
    ptd.filterMode = hipFilterModeLinear; ptd.normalizedCoords = 1;
    hipTextureObject_t pt; CHECK(hipCreateTextureObject(&pt, &pr, &ptd, nullptr));
    run<float>("pitch2d_linear_mirror_norm", k2d<float>, pt, hc, dc);
  }
  run<float>("1d_linear_clamp_norm", k1d<float>, object_for({"", a1, hipFilterModeLinear, hipAddressModeClamp, 1, E}), hc, dc);
  run<float>("3d_linear_clamp_norm", k3d<float>, object_for({"", a3, hipFilterModeLinear, hipAddressModeClamp, 1, E}), hc, dc);
  run<float>("layered_linear_clamp_norm", klayered, object_for({"", al, hipFilterModeLinear, hipAddressModeClamp, 1, E}), hc, dc);
  // a linear sampler: with a point sampler ockl first snaps coordinates to texel edges
  run<float4>("gather_clamp_norm", kgather, object_for({"", a2, hipFilterModeLinear, hipAddressModeClamp, 1, E}), hc, dc);
  run<float4>("gather_comp0_clamp_norm", kgather0, object_for({"", a2, hipFilterModePoint, hipAddressModeClamp, 1, E}), hc, dc);

  // uchar4 read as normalized floats; int read as elements
  hipChannelFormatDesc d8 = hipCreateChannelDesc(8, 8, 8, 8, hipChannelFormatKindUnsigned);
  hipArray_t a8; CHECK(hipMallocArray(&a8, &d8, W, H, 0));
  unsigned char h8[H][W][4];
  for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) for (int c = 0; c < 4; c++) h8[y][x][c] = texel8(x, y, c);
  CHECK(hipMemcpyToArray(a8, 0, 0, h8, sizeof(h8), hipMemcpyHostToDevice));
  run<float4>("2d_linear_wrap_norm_uchar4", k2d<float4>, object_for({"", a8, hipFilterModeLinear, hipAddressModeWrap, 1, hipReadModeNormalizedFloat}), hc, dc);
  hipChannelFormatDesc d16 = hipCreateChannelDesc(16, 16, 0, 0, hipChannelFormatKindUnsigned);
  hipArray_t a16; CHECK(hipMallocArray(&a16, &d16, W, H, 0));
  unsigned short h16[H][W][2];
  for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) for (int c = 0; c < 2; c++) h16[y][x][c] = (unsigned short)(texel8(x, y, c) * 257 + c * 1000);
  CHECK(hipMemcpy2DToArray(a16, 0, 0, h16, W * 4, W * 4, H, hipMemcpyHostToDevice));
  run<float2>("2d_linear_clamp_norm_ushort2", k2d<float2>, object_for({"", a16, hipFilterModeLinear, hipAddressModeClamp, 1, hipReadModeNormalizedFloat}), hc, dc);
  hipChannelFormatDesc dh = hipCreateChannelDescHalf();
  hipArray_t ah; CHECK(hipMallocArray(&ah, &dh, W, H, 0));
  _Float16 hh[H][W];
  for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) hh[y][x] = (_Float16)(texel(x, y, 0, 0) / 3.0f);
  CHECK(hipMemcpy2DToArray(ah, 0, 0, hh, W * 2, W * 2, H, hipMemcpyHostToDevice));
  run<float>("2d_linear_clamp_norm_half", k2d<float>, object_for({"", ah, hipFilterModeLinear, hipAddressModeClamp, 1, E}), hc, dc);
  hipChannelFormatDesc di = hipCreateChannelDesc(32, 0, 0, 0, hipChannelFormatKindSigned);
  hipArray_t ai; CHECK(hipMallocArray(&ai, &di, W, H, 0));
  int hi[H][W];
  for (int y = 0; y < H; y++) for (int x = 0; x < W; x++) hi[y][x] = (int)(texel(x, y, 0, 0) * 4) - 1000;
  CHECK(hipMemcpy2DToArray(ai, 0, 0, hi, W * 4, W * 4, H, hipMemcpyHostToDevice));
  run<int>("2d_point_clamp_unnorm_int", k2d<int>, object_for({"", ai, hipFilterModePoint, hipAddressModeClamp, 0, E}), hu, du);

  // linear memory through tex1Dfetch: indexes -4..43 of 40 elements
  const int L = 40; float4 hf[N]; float hl[L * 4];
  for (int i = 0; i < N; i++) hf[i] = make_float4((float)(i - 4), 0, 0, 0);
  for (int i = 0; i < L * 4; i++) hl[i] = texel(i % 11, i / 11, 1, 0);
  float4* df; CHECK(hipMalloc(&df, sizeof(hf))); CHECK(hipMemcpy(df, hf, sizeof(hf), hipMemcpyHostToDevice));
  float* lin; CHECK(hipMalloc(&lin, sizeof(hl))); CHECK(hipMemcpy(lin, hl, sizeof(hl), hipMemcpyHostToDevice));
  hipResourceDesc res = {}; res.resType = hipResourceTypeLinear; res.res.linear.devPtr = lin;
  res.res.linear.desc = hipCreateChannelDesc<float>(); res.res.linear.sizeInBytes = L * sizeof(float);
  hipTextureDesc td = {}; td.readMode = E;
  hipTextureObject_t tl; CHECK(hipCreateTextureObject(&tl, &res, &td, nullptr));
  run<float>("fetch_float", kfetch<float>, tl, hf, df);
  res.res.linear.desc = hipCreateChannelDesc<float4>(); res.res.linear.sizeInBytes = L * sizeof(float);  // 10 texels
  hipTextureObject_t tl4; CHECK(hipCreateTextureObject(&tl4, &res, &td, nullptr));
  run<float4>("fetch_float4", kfetch<float4>, tl4, hf, df);

  // surface: write, read back through the surface and through a copy
  const int SW = 6, SH = 5;
  hipChannelFormatDesc df32 = hipCreateChannelDesc<float>();
  hipArray_t as; CHECK(hipMallocArray(&as, &df32, SW, SH, hipArraySurfaceLoadStore));
  hipResourceDesc sres = {}; sres.resType = hipResourceTypeArray; sres.res.array.array = as;
  hipSurfaceObject_t s; CHECK(hipCreateSurfaceObject(&s, &sres));
  ksurf_write<<<SH, SW>>>(s);
  float* sout; CHECK(hipMalloc(&sout, SW * SH * 4));
  ksurf_read<<<SH, SW>>>(s, sout);
  float back[SH][SW], copy[SH][SW];
  CHECK(hipMemcpy(back, sout, sizeof(back), hipMemcpyDeviceToHost));
  CHECK(hipMemcpy2DFromArray(copy, SW * 4, as, 0, 0, SW * 4, SH, hipMemcpyDeviceToHost));
  int bad = 0;
  for (int y = 0; y < SH; y++) for (int x = 0; x < SW; x++) {
    float want = x * 10.0f + y + 0.25f;
    bad += copy[y][x] != want || back[y][x] != 2 * want;
  }
  report("surface", bad);

  // 3D surface: transpose each slice (+1), read back with hipMemcpy3D into pitched host memory
  const int S3 = 8, S3D = 3;
  hipArray_t a3s; CHECK(hipMalloc3DArray(&a3s, &df32, make_hipExtent(S3, S3, S3D), hipArraySurfaceLoadStore));
  float h3[S3D][S3][S3], t3[S3D][S3][S3];
  for (int z = 0; z < S3D; z++) for (int y = 0; y < S3; y++) for (int x = 0; x < S3; x++) h3[z][y][x] = z * 100 + y * 10 + x;
  hipMemcpy3DParms up = {}; up.srcPtr = make_hipPitchedPtr(h3, S3 * 4, S3, S3); up.dstArray = a3s;
  up.extent = make_hipExtent(S3, S3, S3D); up.kind = hipMemcpyHostToDevice; CHECK(hipMemcpy3D(&up));
  hipResourceDesc r3 = {}; r3.resType = hipResourceTypeArray; r3.res.array.array = a3s;
  hipSurfaceObject_t s3; CHECK(hipCreateSurfaceObject(&s3, &r3));
  ksurf3d<<<dim3(S3, S3D), S3>>>(s3);
  hipMemcpy3DParms down = {}; down.srcArray = a3s; down.dstPtr = make_hipPitchedPtr(t3, S3 * 4, S3, S3);
  down.extent = make_hipExtent(S3, S3, S3D); down.kind = hipMemcpyDeviceToHost; CHECK(hipMemcpy3D(&down));
  int bad3 = 0;
  for (int z = 0; z < S3D; z++) for (int y = 0; y < S3; y++) for (int x = 0; x < S3; x++) bad3 += t3[z][x][y] != h3[z][y][x] + 1;
  report("surface3d", bad3);
  bad += bad3;
  CHECK(hipDestroySurfaceObject(s)); CHECK(hipDestroyTextureObject(tl)); CHECK(hipDestroyTextureObject(tl4));
  CHECK(hipFreeArray(a2)); CHECK(hipFreeArray(as));
  printf("textures: done\n");
  return bad != 0;
}
