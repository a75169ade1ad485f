// 5x5 stencil with __constant__ integer and float masks over 16x16 shared-memory tiles with a
// 2-pixel halo, on a 2D grid. Per pixel: the integer and float responses; per image: how many
// responses exceed a per-pixel threshold (counted in shared memory, then once per block in
// global memory, and also directly in global memory by every thread), a 16-bin histogram of the
// low bits (shared atomics merged into global ones), a float sum of exact half-integers (shared
// and global float atomics, so the order of additions does not change it) and the maximum.
#include <cstdio>
#include <cstdlib>

#define W 150
#define H 100
#define R 2
#define T 16
#define BINS 16

__constant__ int imask[2 * R + 1][2 * R + 1];
__constant__ float fmask[2 * R + 1][2 * R + 1];
__constant__ int thresholds[4];

struct Totals {
  int count_blocks;   // sum of the per-block shared counts
  int count_threads;  // every thread adds its own pixel
  int maxv;
  float half_sum;
  float global_half_sum;
  int hist[BINS];
};

__global__ void stencil(const int* img, int* out, float* fout, Totals* totals) {
  __shared__ int tile[T + 2 * R][T + 2 * R];
  __shared__ int scount;
  __shared__ float ssum;
  __shared__ int shist[BINS];
  int tx = threadIdx.x, ty = threadIdx.y;
  int x = blockIdx.x * T + tx, y = blockIdx.y * T + ty;
  int lin = ty * T + tx;
  if (lin == 0) {
    scount = 0;
    ssum = 0.f;
  }
  if (lin < BINS) shist[lin] = 0;
  for (int j = ty; j < T + 2 * R; j += T)
    for (int i = tx; i < T + 2 * R; i += T) {
      int gx = blockIdx.x * T + i - R, gy = blockIdx.y * T + j - R;
      tile[j][i] = (gx >= 0 && gx < W && gy >= 0 && gy < H) ? img[gy * W + gx] : 0;
    }
  __syncthreads();
  if (x < W && y < H) {
    int acc = 0;
    float facc = 0.f;
    for (int dy = 0; dy <= 2 * R; ++dy)
      for (int dx = 0; dx <= 2 * R; ++dx) {
        int v = tile[ty + dy][tx + dx];
        acc += imask[dy][dx] * v;
        facc += fmask[dy][dx] * (float)v;
      }
    out[y * W + x] = acc;
    fout[y * W + x] = facc;
    if (acc > thresholds[(x + y) & 3]) {
      atomicAdd(&scount, 1);
      atomicAdd(&totals->count_threads, 1);
    }
    atomicAdd(&ssum, (float)(acc & 15) * 0.5f);
    atomicAdd(&totals->global_half_sum, (float)(acc & 7) * 0.5f);
    atomicAdd(&shist[acc & (BINS - 1)], 1);
    atomicMax(&totals->maxv, acc);
  }
  __syncthreads();
  if (lin == 0) {
    atomicAdd(&totals->count_blocks, scount);
    atomicAdd(&totals->half_sum, ssum);
  }
  if (lin < BINS) atomicAdd(&totals->hist[lin], shist[lin]);
}

static void check(cudaError_t err, const char* what) {
  if (err != cudaSuccess) {
    fprintf(stderr, "%s: %s\n", what, cudaGetErrorString(err));
    exit(1);
  }
}

int main() {
  int host_imask[2 * R + 1][2 * R + 1];
  float host_fmask[2 * R + 1][2 * R + 1];
  int host_thresholds[4] = {40, 120, 300, 1000};
  for (int j = 0; j <= 2 * R; ++j)
    for (int i = 0; i <= 2 * R; ++i) {
      host_imask[j][i] = (i - R) * (j - R) + ((i + j) % 3) - 1;
      host_fmask[j][i] = 0.04f * (1 + ((i * 7 + j * 3) % 5));
    }
  check(cudaMemcpyToSymbol(imask, host_imask, sizeof(host_imask)), "imask");
  check(cudaMemcpyToSymbol(fmask, host_fmask, sizeof(host_fmask)), "fmask");
  check(cudaMemcpyToSymbol(thresholds, host_thresholds, sizeof(host_thresholds)), "thresholds");

  static int img[W * H];
  for (int i = 0; i < W * H; ++i) img[i] = (int)((i * 2654435761u) >> 24) % 97;
  int *d_img, *d_out;
  float* d_fout;
  Totals* d_totals;
  check(cudaMalloc(&d_img, sizeof(img)), "malloc img");
  check(cudaMalloc(&d_out, sizeof(img)), "malloc out");
  check(cudaMalloc(&d_fout, W * H * sizeof(float)), "malloc fout");
  check(cudaMalloc(&d_totals, sizeof(Totals)), "malloc totals");
  check(cudaMemcpy(d_img, img, sizeof(img), cudaMemcpyHostToDevice), "copy img");
  Totals init = {};
  init.maxv = -2147483647 - 1;
  check(cudaMemcpy(d_totals, &init, sizeof(init), cudaMemcpyHostToDevice), "copy totals");

  dim3 block(T, T), grid((W + T - 1) / T, (H + T - 1) / T);
  stencil<<<grid, block>>>(d_img, d_out, d_fout, d_totals);
  check(cudaGetLastError(), "launch");
  check(cudaDeviceSynchronize(), "kernel");

  static int out[W * H];
  static float fout[W * H];
  Totals totals;
  check(cudaMemcpy(out, d_out, sizeof(out), cudaMemcpyDeviceToHost), "copy out");
  check(cudaMemcpy(fout, d_fout, sizeof(fout), cudaMemcpyDeviceToHost), "copy fout");
  check(cudaMemcpy(&totals, d_totals, sizeof(totals), cudaMemcpyDeviceToHost), "copy totals");

  unsigned long long hash = 0;  // unsigned: wraps by definition
  double fsum = 0.0;
  for (int i = 0; i < W * H; ++i) {
    hash = hash * 31u + (unsigned long long)(long long)out[i];
    fsum += fout[i];
  }

  // The host's answer: integer results exactly, float responses within a relative 1e-5.
  bool ok = true;
  int want_count = 0, want_max = -2147483647 - 1, want_hist[BINS] = {0};
  double want_half = 0.0, want_global_half = 0.0;
  for (int y = 0; y < H; ++y)
    for (int x = 0; x < W; ++x) {
      int acc = 0;
      float facc = 0.f;
      for (int dy = 0; dy <= 2 * R; ++dy)
        for (int dx = 0; dx <= 2 * R; ++dx) {
          int gx = x + dx - R, gy = y + dy - R;
          int v = (gx >= 0 && gx < W && gy >= 0 && gy < H) ? img[gy * W + gx] : 0;
          acc += host_imask[dy][dx] * v;
          facc += host_fmask[dy][dx] * (float)v;
        }
      float diff = fout[y * W + x] - facc;
      if (out[y * W + x] != acc || diff > 1e-5f * (1.f + facc) || -diff > 1e-5f * (1.f + facc)) ok = false;
      if (acc > host_thresholds[(x + y) & 3]) ++want_count;
      want_half += (acc & 15) * 0.5;
      want_global_half += (acc & 7) * 0.5;
      ++want_hist[acc & (BINS - 1)];
      if (acc > want_max) want_max = acc;
    }
  ok = ok && totals.count_blocks == want_count && totals.count_threads == want_count && totals.maxv == want_max;
  ok = ok && totals.half_sum == (float)want_half && totals.global_half_sum == (float)want_global_half;
  for (int b = 0; b < BINS; ++b) ok = ok && totals.hist[b] == want_hist[b];
  printf("count_blocks %d count_threads %d max %d\n", totals.count_blocks, totals.count_threads, totals.maxv);
  printf("half_sum %.1f global_half_sum %.1f\n", totals.half_sum, totals.global_half_sum);
  printf("out_hash %llu fout_sum %.3f\n", hash, fsum);
  printf("hist");
  for (int b = 0; b < BINS; ++b) printf(" %d", totals.hist[b]);
  printf("\n");
  printf("rows");
  for (int yy = 0; yy < H; yy += 20) printf(" %d:%.4f", out[yy * W + 7], fout[yy * W + 7]);
  printf("\n");
  printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
  cudaFree(d_img);
  cudaFree(d_out);
  cudaFree(d_fout);
  cudaFree(d_totals);
  return ok ? 0 : 1;
}
