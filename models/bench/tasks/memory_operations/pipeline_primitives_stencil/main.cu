// A 1-D 7-point stencil over tiles staged global -> shared with the CUDA pipeline primitives
// (__pipeline_memcpy_async / __pipeline_commit / __pipeline_wait_prior from cuda_pipeline.h):
// each block double-buffers its tiles, issuing the copy of tile t+1 (16-byte pieces, halo included)
// before computing tile t. Checked against a host computation in double.
#include <cuda_pipeline.h>
#include <cuda_runtime.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

#define CHECK(call)                                                                 \
  do {                                                                              \
    cudaError_t err_ = (call);                                                      \
    if (err_ != cudaSuccess) {                                                      \
      fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
      return 1;                                                                     \
    }                                                                               \
  } while (0)

constexpr int TILE = 512;               // outputs per tile
constexpr int R = 3;                    // stencil radius
constexpr int HALO = 4;                 // staged halo (R rounded up to a 16-byte piece)
constexpr int STAGED = TILE + 2 * HALO; // floats staged per tile
constexpr int THREADS = 128;

__constant__ float weights[2 * R + 1];

__device__ void stage_tile(float* dst, const float* padded, int tile) {
  // padded[] holds HALO zeros before and after the data, so every piece is in bounds
  const float* src = padded + (size_t)tile * TILE;
  for (int piece = threadIdx.x; piece < STAGED / 4; piece += blockDim.x)
    __pipeline_memcpy_async(dst + 4 * piece, src + 4 * piece, 16);
  __pipeline_commit();
}

__global__ void stencil(const float* padded, float* out, int tiles) {
  __shared__ __align__(16) float stage[2][STAGED];
  int tile = blockIdx.x;
  if (tile < tiles) stage_tile(stage[0], padded, tile);
  for (int buf = 0; tile < tiles; tile += gridDim.x, buf ^= 1) {
    int next = tile + gridDim.x;
    if (next < tiles) {
      stage_tile(stage[buf ^ 1], padded, next);
      __pipeline_wait_prior(1);  // this tile's copy is done; the next one may still run
    } else {
      __pipeline_wait_prior(0);
    }
    __syncthreads();
    for (int i = threadIdx.x; i < TILE; i += blockDim.x) {
      float acc = 0.0f;
      for (int k = -R; k <= R; ++k) acc = fmaf(weights[k + R], stage[buf][HALO + i + k], acc);
      out[(size_t)tile * TILE + i] = acc;
    }
    __syncthreads();  // the buffer is refilled two tiles later
  }
}

int main() {
  const int tiles = 96, n = tiles * TILE;
  std::vector<float> padded(n + 2 * HALO, 0.0f), out(n);
  unsigned state = 12345u;
  for (int i = 0; i < n; ++i) {
    state = state * 1664525u + 1013904223u;
    padded[HALO + i] = (float)((state >> 8) & 0xFFFF) / 65536.0f - 0.5f;
  }
  float w[2 * R + 1] = {0.05f, -0.1f, 0.25f, 0.6f, 0.25f, -0.1f, 0.05f};
  float *d_in, *d_out;
  CHECK(cudaMalloc(&d_in, padded.size() * sizeof(float)));
  CHECK(cudaMalloc(&d_out, out.size() * sizeof(float)));
  CHECK(cudaMemcpy(d_in, padded.data(), padded.size() * sizeof(float), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpyToSymbol(weights, w, sizeof(w)));
  stencil<<<40, THREADS>>>(d_in, d_out, tiles);
  CHECK(cudaGetLastError());
  CHECK(cudaMemcpy(out.data(), d_out, out.size() * sizeof(float), cudaMemcpyDeviceToHost));
  double sum = 0.0, sum_sq = 0.0, worst = 0.0;
  for (int i = 0; i < n; ++i) {
    double ref = 0.0;
    for (int k = -R; k <= R; ++k) ref += (double)w[k + R] * padded[HALO + i + k];
    worst = fmax(worst, fabs(ref - out[i]));
    sum += out[i];
    sum_sq += (double)out[i] * out[i];
  }
  printf("pipeline stencil tiles %d tile %d radius %d\n", tiles, TILE, R);
  printf("sum %.6e sum_sq %.6e\n", sum, sum_sq);
  printf("out[0] %.6e out[%d] %.6e\n", out[0], n - 1, out[n - 1]);
  bool pass = worst < 1e-5;
  printf("%s\n", pass ? "CHECK PASS" : "CHECK FAIL");
  CHECK(cudaFree(d_in));
  CHECK(cudaFree(d_out));
  return pass ? 0 : 1;
}
