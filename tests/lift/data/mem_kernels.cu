// Memory forms for the SASS lifter: async copies (cp.async with zero-fill, cooperative groups'
// memcpy_async), generic pointers into shared/global/local memory, access widths, atomics,
// volatile and relaxed-atomic accesses, __device__ and __constant__ variables, a cooperative
// launch with grid.sync().
// main() checks every kernel against a CPU reference and prints one line per kernel.
#include <cstdio>
#include <cstring>
#include <cuda_runtime.h>
#ifdef MEM_KERNELS_NVCC  // nvcc -DMEM_KERNELS_NVCC (the test passes it)
#include <cuda_pipeline.h>
#define COPY_ASYNC(dst, src, size, zfill) __pipeline_memcpy_async(dst, src, size, zfill)
#define COPY_COMMIT_AND_WAIT() (__pipeline_commit(), __pipeline_wait_prior(0))
#else  // the host port (HIP, host-only) needs the kernels' names and parameters, not their bodies
#define COPY_ASYNC(dst, src, size, zfill) (*(dst) = *(src))
#define COPY_COMMIT_AND_WAIT() ((void)0)
#endif
#include <cuda_fp16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

#define N 256

__global__ void async_copy(const float* g, float* out, int n) {
  __shared__ float s[N];
  __shared__ double d[N];
  __shared__ float4 q[N];
  __shared__ float z[N];
  int t = threadIdx.x;
  COPY_ASYNC(&s[t], &g[t], 4, 0);
  COPY_ASYNC(&d[t], (const double*)g + t, 8, 0);
  COPY_ASYNC(&q[t], (const float4*)g + t, 16, t < n ? 0 : 16);  // zero-fill tail
  COPY_ASYNC(&z[t], &g[t + 7], 4, (t & 1) ? 4 : 0);
  COPY_COMMIT_AND_WAIT();
  __syncthreads();
  out[t] = s[t] + (float)d[t] + q[t].x + 2 * q[t].w + 3 * z[t];
}

__global__ void async_partial(const float* g, float* out) {
  __shared__ float4 q[N];
  int t = threadIdx.x;
  COPY_ASYNC(&q[t], (const float4*)g + t, 16, (t % 3) * 4);  // zero-fill 0, 4 or 8 bytes
  COPY_COMMIT_AND_WAIT();
  __syncthreads();
  out[t] = q[t].x + 10 * q[t].y + 100 * q[t].z + 1000 * q[t].w;
}

__global__ void cg_copy(const float* g, float* out) {
  __shared__ float s[2 * N];
  cg::thread_block block = cg::this_thread_block();
  cg::memcpy_async(block, s, g + blockIdx.x * 2 * N, sizeof(float) * 2 * N);
  cg::wait(block);
  int t = threadIdx.x;
  out[blockIdx.x * N + t] = s[t] * 2 + s[2 * N - 1 - t];
}

__device__ __noinline__ void bump(float* p, float v) {  // generic pointer: shared or global
  atomicAdd(p, v);
  p[1] += v;
}
__device__ __noinline__ float pick(const float* p, int i) { return p[i]; }  // generic read

__global__ void generic_ptrs(float* g, int n) {
  __shared__ float s[64];
  float loc[8];
  int t = threadIdx.x;
  for (int k = 0; k < 8; k++) loc[k] = g[k + t] * (k + 1);
  s[t] = t;
  __syncthreads();
  if (t < 8) bump(&s[2 * t], 1.0f);
  if (t == 0) bump(g + 200, 2.0f);
  __syncthreads();
  g[64 + t] = s[t] + pick(loc, (t + n) & 7) + pick(s, (t + n) & 63);
}

__global__ void widths(const unsigned char* b, const short* h, const double2* v, unsigned char* ob, short* oh,
                       double2* ov, int* oi) {
  __shared__ unsigned char sb[N];
  __shared__ short sh[N];
  __shared__ double2 sv[N];
  int t = threadIdx.x;
  sb[t] = b[t] + 1;
  sh[t] = h[t] - 3;
  sv[t] = v[t];
  __syncthreads();
  int local[16];
  for (int k = 0; k < 16; k++) local[k] = sb[(t + k) % N] * k + sh[(t * 3 + k) % N];
  ob[t] = sb[N - 1 - t];
  oh[t] = sh[N - 1 - t];
  double2 w = sv[N - 1 - t];
  ov[t] = make_double2(w.y, w.x + 1.0);
  oi[t] = local[(t * 7) & 15] + (signed char)b[t] + (int)(short)h[t];
}

__global__ void atomics(int* gi, unsigned* gu, unsigned long long* g64, float* gf, double* gd, int* out) {
  __shared__ int si[8];
  __shared__ float sf;
  int t = threadIdx.x;
  if (t < 8) si[t] = t == 5 ? -1 : 0;
  if (t == 0) sf = 0;
  __syncthreads();
  atomicAdd(&si[0], t);
  atomicMax(&si[1], t * 7 % 101 - 50);
  atomicMin(&si[2], t * 7 % 101 - 50);
  atomicOr(&si[3], 1 << (t & 31));
  atomicXor(&si[4], t);
  atomicAnd(&si[5], ~(1 << (t & 15)));
  atomicAdd(&sf, 0.5f);
  atomicCAS(&si[6], t, t + 1);  // threads in order: ends at some value >= 1
  __syncthreads();
  atomicAdd(&gi[0], t);
  atomicMax(&gi[1], t * 13 % 97 - 40);
  atomicMin(&gi[2], t * 13 % 97 - 40);
  atomicExch(&gi[3], 77);
  atomicInc(&gu[0], 9u);
  atomicDec(&gu[1], 9u);
  atomicMax(&gu[2], (unsigned)t * 2654435761u);
  atomicAdd(&g64[0], (unsigned long long)t << 33);
  atomicMax(&g64[1], (unsigned long long)t * 0x100000001ull);
  atomicAdd(gf, 0.25f);
  atomicAdd(gd, 0.125);
  if (t == 0) {
    for (int k = 0; k < 6; k++) out[k] = si[k];
    out[6] = si[6] >= 1;
    out[7] = (int)(sf * 2);
  }
}

__global__ void atomics_wide(__half2* h2, long long* out64) {
#ifdef MEM_KERNELS_NVCC  // HIP 5.2 has no half2 or signed 64-bit atomicAdd/Max/Min for the host port
  __shared__ long long ss[2];
  __shared__ unsigned long long su;
  int t = threadIdx.x;
  if (t == 0) { ss[0] = 0; ss[1] = 0; su = 0; }
  __syncthreads();
  atomicAdd(h2, __halves2half2(__float2half(0.5f), __float2half(-0.25f)));  // packed fp16 add
  atomicMax(&ss[0], (long long)t << 35);  // 64-bit shared min/max: CAS loops in SASS
  atomicMin(&ss[1], -((long long)t << 35));
  atomicAdd(&su, 3ull << 33);
  __syncthreads();
  if (t == 0) { out64[0] = ss[0]; out64[1] = ss[1]; out64[2] = (long long)su; }
#endif
}

__global__ void strong(volatile int* flag, int* g, unsigned long long* h) {
  int t = threadIdx.x;
  if (t == 0) flag[1] = 5;
  __syncthreads();
  int seen = 0;
  for (int k = 0; k < 4; k++) seen += flag[1];
  __threadfence();
  atomicAdd(&g[0], seen);
  if (t == 0) {
    volatile unsigned long long* v = h;
    v[1] = v[0] + 1;
  }
}

__device__ unsigned d_count;                   // .nv.global (zeroed), read back with cudaMemcpyFromSymbol
__device__ int d_table[4] = {3, -7, 11, 100};  // .nv.global.init, updated by the kernel

__global__ void device_vars(const float* in) {
  int t = threadIdx.x;
  if (in[t] > 0.0f) atomicAdd(&d_count, 1u);
  if (t < 4) d_table[t] = d_table[t] * 2 + t;
}

__constant__ float c_bias[4];
__constant__ float c_weights[9 * 4];

__global__ void constants(const float* in, float* out, int channels) {
  int t = threadIdx.x;
  int c = t % channels;
  float acc = c_bias[c];
  for (int k = 0; k < 9; k++) acc += c_weights[c * 9 + k] * in[(t + k) % N];
  out[t] = acc + c_weights[(t * 5) % 36];
}

#define COOP_BLOCKS 6
#define COOP_THREADS 64

// grid.sync() reads its workspace pointer from %envreg1/%envreg2 (c[0x0][0x8c]/[0x90] on sm_80,
// [0x44]/[0x48] on sm_90); sm_90's divergent slow path is `BAR.SYNC Rx, Rx`.
__global__ void grid_sync(int* a, int* b, int rounds, int* valid) {
  cg::grid_group grid = cg::this_grid();
  int i = grid.thread_rank();
  int n = grid.size();
  if (i == 0) *valid = grid.is_valid();
  for (int r = 0; r < rounds; r++) {
    b[i] = a[(i + COOP_THREADS) % n] * 3 + r;
    grid.sync();
    a[i] = b[i] + b[(i + n - 1) % n];
    grid.sync();
  }
}

static int check(const char* name, const float* got, const float* want, int n) {
  for (int i = 0; i < n; i++)
    if (got[i] != want[i]) {
      printf("%s FAIL at %d: got %.6f expected %.6f\n", name, i, got[i], want[i]);
      return 1;
    }
  printf("%s ok\n", name);
  return 0;
}

static int check_int(const char* name, const long long* got, const long long* want, int n) {
  for (int i = 0; i < n; i++)
    if (got[i] != want[i]) {
      printf("%s FAIL at %d: got %lld expected %lld\n", name, i, got[i], want[i]);
      return 1;
    }
  printf("%s ok\n", name);
  return 0;
}

int main() {
  int fails = 0;
  float hg[4 * N + 64], ref[2 * N], got[2 * N];
  for (int i = 0; i < 4 * N + 64; i++) hg[i] = (float)((i * 37) % 101) - 50.0f;
  float *dg, *dout;
  cudaMalloc(&dg, sizeof(hg));
  cudaMalloc(&dout, sizeof(float) * 2 * N);
  cudaMemcpy(dg, hg, sizeof(hg), cudaMemcpyHostToDevice);

  int n = 200;
  async_copy<<<1, N>>>(dg, dout, n);
  cudaMemcpy(got, dout, sizeof(float) * N, cudaMemcpyDeviceToHost);
  for (int t = 0; t < N; t++) {
    double dv;
    memcpy(&dv, (const char*)hg + 8 * t, 8);
    float qx = t < n ? hg[4 * t] : 0.0f, qw = t < n ? hg[4 * t + 3] : 0.0f;
    float zt = (t & 1) ? 0.0f : hg[t + 7];  // zfill 4 of 4 on odd threads
    ref[t] = hg[t] + (float)dv + qx + 2 * qw + 3 * zt;
  }
  fails += check("async_copy", got, ref, N);

  async_partial<<<1, N>>>(dg, dout);
  cudaMemcpy(got, dout, sizeof(float) * N, cudaMemcpyDeviceToHost);
  for (int t = 0; t < N; t++) {
    int valid = 4 - t % 3;  // the last (t % 3) floats are zero-filled
    float q[4] = {0, 0, 0, 0};
    for (int k = 0; k < valid; k++) q[k] = hg[4 * t + k];
    ref[t] = q[0] + 10 * q[1] + 100 * q[2] + 1000 * q[3];
  }
  fails += check("async_partial", got, ref, N);

  cg_copy<<<2, N>>>(dg, dout);
  cudaMemcpy(got, dout, sizeof(float) * 2 * N, cudaMemcpyDeviceToHost);
  for (int b = 0; b < 2; b++)
    for (int t = 0; t < N; t++) ref[b * N + t] = hg[b * 2 * N + t] * 2 + hg[b * 2 * N + 2 * N - 1 - t];
  fails += check("cg_copy", got, ref, 2 * N);

  float hgen[256];
  for (int i = 0; i < 256; i++) hgen[i] = (float)(i % 17);
  float* dgen;
  cudaMalloc(&dgen, sizeof(hgen));
  cudaMemcpy(dgen, hgen, sizeof(hgen), cudaMemcpyHostToDevice);
  generic_ptrs<<<1, 64>>>(dgen, 5);
  float ggen[256];
  cudaMemcpy(ggen, dgen, sizeof(ggen), cudaMemcpyDeviceToHost);
  float s[64], want_gen[66];
  for (int t = 0; t < 64; t++) s[t] = (float)t;
  for (int t = 0; t < 8; t++) { s[2 * t] += 1.0f; s[2 * t + 1] += 1.0f; }
  for (int t = 0; t < 64; t++) {
    int k = (t + 5) & 7;
    want_gen[t] = s[t] + hgen[k + t] * (k + 1) + s[(t + 5) & 63];
  }
  want_gen[64] = hgen[200] + 2.0f;
  want_gen[65] = hgen[201] + 2.0f;
  float got_gen[66];
  memcpy(got_gen, ggen + 64, sizeof(float) * 64);
  got_gen[64] = ggen[200];
  got_gen[65] = ggen[201];
  fails += check("generic_ptrs", got_gen, want_gen, 66);

  unsigned char hb[N], ob[N];
  short hh[N], oh[N];
  double hv[2 * N], ov[2 * N];
  int oi[N];
  for (int i = 0; i < N; i++) { hb[i] = (unsigned char)(i * 7 + 3); hh[i] = (short)(i * 301 - 30000); }
  for (int i = 0; i < 2 * N; i++) hv[i] = i * 0.5 - 7.0;
  unsigned char *db, *dob;
  short *dh, *doh;
  double2 *dv, *dov;
  int* doi;
  cudaMalloc(&db, N); cudaMalloc(&dob, N); cudaMalloc(&dh, 2 * N); cudaMalloc(&doh, 2 * N);
  cudaMalloc(&dv, 16 * N); cudaMalloc(&dov, 16 * N); cudaMalloc(&doi, 4 * N);
  cudaMemcpy(db, hb, N, cudaMemcpyHostToDevice);
  cudaMemcpy(dh, hh, 2 * N, cudaMemcpyHostToDevice);
  cudaMemcpy(dv, hv, 16 * N, cudaMemcpyHostToDevice);
  widths<<<1, N>>>(db, dh, dv, dob, doh, dov, doi);
  cudaMemcpy(ob, dob, N, cudaMemcpyDeviceToHost);
  cudaMemcpy(oh, doh, 2 * N, cudaMemcpyDeviceToHost);
  cudaMemcpy(ov, dov, 16 * N, cudaMemcpyDeviceToHost);
  cudaMemcpy(oi, doi, 4 * N, cudaMemcpyDeviceToHost);
  long long gw[5 * N], ww[5 * N];
  for (int t = 0; t < N; t++) {
    unsigned char sb_r = (unsigned char)(hb[N - 1 - t] + 1);
    short sh_r = (short)(hh[N - 1 - t] - 3);
    int k = (t * 7) & 15;
    int local = (unsigned char)(hb[(t + k) % N] + 1) * k + (short)(hh[(t * 3 + k) % N] - 3);
    ww[5 * t] = sb_r; gw[5 * t] = ob[t];
    ww[5 * t + 1] = sh_r; gw[5 * t + 1] = oh[t];
    ww[5 * t + 2] = (long long)(hv[2 * (N - 1 - t) + 1] * 8); gw[5 * t + 2] = (long long)(ov[2 * t] * 8);
    ww[5 * t + 3] = (long long)((hv[2 * (N - 1 - t)] + 1.0) * 8); gw[5 * t + 3] = (long long)(ov[2 * t + 1] * 8);
    ww[5 * t + 4] = local + (signed char)hb[t] + hh[t]; gw[5 * t + 4] = oi[t];
  }
  fails += check_int("widths", gw, ww, 5 * N);

  int hgi[4] = {0, -1000, 1000, 0};
  unsigned hgu[3] = {0, 0, 0};
  unsigned long long h64[2] = {5, 0};
  float hf = 1.0f;
  double hd = 2.0;
  int *dgi, *dat;
  unsigned* dgu;
  unsigned long long* d64;
  float* df;
  double* dd;
  cudaMalloc(&dgi, sizeof(hgi)); cudaMalloc(&dgu, sizeof(hgu)); cudaMalloc(&d64, sizeof(h64));
  cudaMalloc(&df, 4); cudaMalloc(&dd, 8); cudaMalloc(&dat, 8 * 4);
  cudaMemcpy(dgi, hgi, sizeof(hgi), cudaMemcpyHostToDevice);
  cudaMemcpy(dgu, hgu, sizeof(hgu), cudaMemcpyHostToDevice);
  cudaMemcpy(d64, h64, sizeof(h64), cudaMemcpyHostToDevice);
  cudaMemcpy(df, &hf, 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dd, &hd, 8, cudaMemcpyHostToDevice);
  atomics<<<1, 128>>>(dgi, dgu, d64, df, dd, dat);
  int at[8];
  cudaMemcpy(hgi, dgi, sizeof(hgi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hgu, dgu, sizeof(hgu), cudaMemcpyDeviceToHost);
  cudaMemcpy(h64, d64, sizeof(h64), cudaMemcpyDeviceToHost);
  cudaMemcpy(&hf, df, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(&hd, dd, 8, cudaMemcpyDeviceToHost);
  cudaMemcpy(at, dat, sizeof(at), cudaMemcpyDeviceToHost);
  long long ga[20], wa[20];
  int smax = -1000, smin = 1000, sor = 0, sxor = 0, sand = 0, gmax = -1000, gmin = 1000;
  unsigned umax = 0, inc = 0, dec = 0;
  unsigned long long m64 = 0;
  for (int t = 0; t < 128; t++) {
    int v = t * 7 % 101 - 50, w = t * 13 % 97 - 40;
    smax = v > smax ? v : smax; smin = v < smin ? v : smin;
    sor |= 1 << (t & 31); sxor ^= t;
    gmax = w > gmax ? w : gmax; gmin = w < gmin ? w : gmin;
    unsigned u = (unsigned)t * 2654435761u; umax = u > umax ? u : umax;
    inc = inc >= 9u ? 0 : inc + 1; dec = (dec == 0 || dec > 9u) ? 9u : dec - 1;
    unsigned long long x = (unsigned long long)t * 0x100000001ull; m64 = x > m64 ? x : m64;
  }
  sand = (int)0xFFFF0000u;  // -1 with bits 0..15 cleared
  long long want_at[8] = {128 * 127 / 2, smax < 0 ? 0 : smax, smin > 0 ? 0 : smin, sor, sxor, sand, 1, 128};
  for (int k = 0; k < 8; k++) { ga[k] = at[k]; wa[k] = want_at[k]; }
  ga[8] = hgi[0]; wa[8] = 128 * 127 / 2;
  ga[9] = hgi[1]; wa[9] = gmax;
  ga[10] = hgi[2]; wa[10] = gmin;
  ga[11] = hgi[3]; wa[11] = 77;
  ga[12] = hgu[0]; wa[12] = inc;
  ga[13] = hgu[1]; wa[13] = dec;
  ga[14] = hgu[2]; wa[14] = umax;
  ga[15] = (long long)h64[0]; wa[15] = (long long)(5 + ((unsigned long long)(128 * 127 / 2) << 33));
  ga[16] = (long long)h64[1]; wa[16] = (long long)m64;
  ga[17] = (long long)(hf * 4); wa[17] = (long long)((1.0f + 128 * 0.25f) * 4);
  ga[18] = (long long)(hd * 8); wa[18] = (long long)((2.0 + 128 * 0.125) * 8);
  fails += check_int("atomics", ga, wa, 19);

  __half2* dh2;
  long long* dw64;
  cudaMalloc(&dh2, 4);
  cudaMalloc(&dw64, 3 * 8);
  cudaMemset(dh2, 0, 4);
  atomics_wide<<<1, 64>>>(dh2, dw64);
  unsigned hbits = 0;
  long long w64[4], want_w64[4] = {0xCC005000, 63ll << 35, -(63ll << 35), 64ll * (3ll << 33)};
  cudaMemcpy(&hbits, dh2, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(w64 + 1, dw64, 3 * 8, cudaMemcpyDeviceToHost);
  w64[0] = hbits;  // fp16 (32.0, -16.0)
  fails += check_int("atomics_wide", w64, want_w64, 4);

  int hflag[2] = {0, 0}, hgs = 0;
  unsigned long long hh64[2] = {41, 0};
  int *dflag, *dgs;
  unsigned long long* dh64;
  cudaMalloc(&dflag, 8); cudaMalloc(&dgs, 4); cudaMalloc(&dh64, 16);
  cudaMemcpy(dflag, hflag, 8, cudaMemcpyHostToDevice);
  cudaMemcpy(dgs, &hgs, 4, cudaMemcpyHostToDevice);
  cudaMemcpy(dh64, hh64, 16, cudaMemcpyHostToDevice);
  strong<<<1, 64>>>(dflag, dgs, dh64);
  cudaMemcpy(&hgs, dgs, 4, cudaMemcpyDeviceToHost);
  cudaMemcpy(hh64, dh64, 16, cudaMemcpyDeviceToHost);
  long long gs[2] = {hgs, (long long)hh64[1]}, ws[2] = {64 * 20, 42};
  fails += check_int("strong", gs, ws, 2);

  device_vars<<<1, N>>>(dg);
  unsigned count = 0;
  int table[4];
  cudaMemcpyFromSymbol(&count, d_count, sizeof(count));
  cudaMemcpyFromSymbol(table, d_table, sizeof(table));
  long long gd[5] = {count, table[0], table[1], table[2], table[3]}, wd[5] = {0, 6, -13, 24, 203};
  for (int t = 0; t < N; t++) wd[0] += hg[t] > 0.0f;
  fails += check_int("device_vars", gd, wd, 5);

  float bias[4] = {0.5f, -1.0f, 2.0f, 0.25f}, weights[36];
  for (int i = 0; i < 36; i++) weights[i] = (float)(i % 7) - 3.0f;
  cudaMemcpyToSymbol(c_bias, bias, sizeof(bias));
  cudaMemcpyToSymbol(c_weights, weights, sizeof(weights));
  constants<<<1, N>>>(dg, dout, 4);
  cudaMemcpy(got, dout, sizeof(float) * N, cudaMemcpyDeviceToHost);
  for (int t = 0; t < N; t++) {
    int c = t % 4;
    float acc = bias[c];
    for (int k = 0; k < 9; k++) acc += weights[c * 9 + k] * hg[(t + k) % N];
    ref[t] = acc + weights[(t * 5) % 36];
  }
  fails += check("constants", got, ref, N);
  const int cn = COOP_BLOCKS * COOP_THREADS;
  int ca[cn], cwant[cn + 1], ctmp[cn], cgot[cn + 1];
  for (int i = 0; i < cn; i++) ca[i] = cwant[i] = (i * 31) % 17;
  int *dca, *dcb, *dvalid, rounds = 3;
  cudaMalloc(&dca, sizeof(ca)); cudaMalloc(&dcb, sizeof(ca)); cudaMalloc(&dvalid, sizeof(int));
  cudaMemcpy(dca, ca, sizeof(ca), cudaMemcpyHostToDevice);
  void* args[] = {&dca, &dcb, &rounds, &dvalid};
  cudaLaunchCooperativeKernel((void*)grid_sync, dim3(COOP_BLOCKS), dim3(COOP_THREADS), args, 0, 0);
  cudaMemcpy(cgot, dca, sizeof(ca), cudaMemcpyDeviceToHost);
  cudaMemcpy(&cgot[cn], dvalid, sizeof(int), cudaMemcpyDeviceToHost);
  for (int k = 0; k < rounds; k++) {
    for (int i = 0; i < cn; i++) ctmp[i] = cwant[(i + COOP_THREADS) % cn] * 3 + k;
    for (int i = 0; i < cn; i++) cwant[i] = ctmp[i] + ctmp[(i + cn - 1) % cn];
  }
  cwant[cn] = 1;  // grid.is_valid()
  long long gg[cn + 1], wg[cn + 1];
  for (int i = 0; i <= cn; i++) { gg[i] = cgot[i]; wg[i] = cwant[i]; }
  fails += check_int("grid_sync", gg, wg, cn + 1);
  return fails ? 1 : 0;
}
