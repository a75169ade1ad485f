// cass's reference rocWMMA (runner/emulated_libraries/include/rocwmma) on the emulator: every
// fragment kind loaded and stored in both layouts, mma_sync with f32, f16, bf16->f32 and int8->i32
// accumulation, accumulating into C, element-wise access, two waves of a block on their own
// tiles. Inputs come from value(i, seed) below (test_emulated_rocwmma.py builds the same ones);
// each result is printed as `name v0 v1 ...` in memory order.
#include <rocwmma/rocwmma.hpp>

#include "common.h"

namespace wmma = rocwmma;
constexpr int T = 16, LD = 24, TILE = T * LD;  // tiles are stored with a leading dimension of 24

static float value(int i, int seed) { return float((i * 37 + seed * 11) % 17 - 8) / 8.0f; }

template <typename LA, typename LB>
__global__ void f16_f32(const __half* a, const __half* b, const float* c, float* d,
                        wmma::layout_t lc, wmma::layout_t ld) {
  const int w = threadIdx.x / 32;  // each wave its own tiles
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, LA> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, LB> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::load_matrix_sync(fa, a + w * TILE, LD);
  wmma::load_matrix_sync(fb, b + w * TILE, LD);
  wmma::load_matrix_sync(acc, c + w * TILE, LD, lc);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(d + w * TILE, acc, LD, ld);
}

__global__ void f16_f16_twice(const __half* a, const __half* b, __half* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, __half> acc;
  wmma::fill_fragment(acc, __float2half(0.5f));
  for (int step = 0; step < 2; ++step) {  // acc += A_step * B_step
    wmma::load_matrix_sync(fa, a + step * TILE, LD);
    wmma::load_matrix_sync(fb, b + step * TILE, LD);
    wmma::mma_sync(acc, fa, fb, acc);
  }
  wmma::store_matrix_sync(d, acc, LD, wmma::mem_row_major);
}

__global__ void scaled(const __half* a, const __half* b, float* d) {  // 2 * A * B, x[] element-wise
  wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc, zero;
  wmma::fill_fragment(zero, 0.0f);
  wmma::load_matrix_sync(fa, a, LD);
  wmma::load_matrix_sync(fb, b, LD);
  wmma::mma_sync(acc, fa, fb, zero);
  for (int i = 0; i < acc.num_elements; ++i) acc.x[i] = 2.0f * acc.x[i];
  wmma::store_matrix_sync(d, acc, LD, wmma::mem_col_major);
}

template <typename M, typename L>
__global__ void round_trip(const __half* in, __half* out) {
  wmma::fragment<M, 16, 16, 16, __half, L> f;
  wmma::load_matrix_sync(f, in, LD);
  wmma::store_matrix_sync(out, f, LD);
}

__global__ void bf16_f32(const hip_bfloat16* a, const hip_bfloat16* b, float* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, wmma::bfloat16_t, wmma::col_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, wmma::bfloat16_t, wmma::row_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 1.0f);
  wmma::load_matrix_sync(fa, a, LD);
  wmma::load_matrix_sync(fb, b, LD);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(d, acc, LD, wmma::mem_row_major);
}

template <typename I>
__global__ void int8_i32(const I* a, const I* b, int* d) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, I, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, I, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, int32_t> acc;
  wmma::fill_fragment(acc, int32_t(-3));
  wmma::load_matrix_sync(fa, a, LD);
  wmma::load_matrix_sync(fb, b, LD);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(d, acc, LD, wmma::mem_col_major);
}

template <typename T_>
static T_* device_copy(const T_* host, int n) {
  T_* dev;
  CHECK(hipMalloc(&dev, n * sizeof(T_)));
  CHECK(hipMemcpy(dev, host, n * sizeof(T_), hipMemcpyHostToDevice));
  return dev;
}

static __half* halves(int n, int seed) {
  static __half buf[4 * TILE];
  for (int i = 0; i < n; ++i) buf[i] = __float2half(value(i, seed));
  return device_copy(buf, n);
}

template <typename T_>
static void print(const char* name, T_* dev, int n) {
  static T_ host[4 * TILE];
  CHECK(hipDeviceSynchronize());
  CHECK(hipMemcpy(host, dev, n * sizeof(T_), hipMemcpyDeviceToHost));
  printf("%s", name);
  for (int i = 0; i < n; ++i) printf(" %.9g", double(host[i]));
  printf("\n");
}

static void print_half(const char* name, __half* dev, int n) {
  static __half host[4 * TILE];
  CHECK(hipMemcpy(host, dev, n * sizeof(__half), hipMemcpyDeviceToHost));
  printf("%s", name);
  for (int i = 0; i < n; ++i) printf(" %.9g", double(__half2float(host[i])));
  printf("\n");
}

template <typename LA, typename LB>
static void layouts(const char* name, int seed, wmma::layout_t lc, wmma::layout_t ld) {
  static float cbuf[2 * TILE];
  for (int i = 0; i < 2 * TILE; ++i) cbuf[i] = value(i, seed + 2);
  __half *a = halves(2 * TILE, seed), *b = halves(2 * TILE, seed + 1);
  float *c = device_copy(cbuf, 2 * TILE), *d;
  CHECK(hipMalloc(&d, 2 * TILE * sizeof(float)));
  CHECK(hipMemset(d, 0, 2 * TILE * sizeof(float)));
  f16_f32<LA, LB><<<1, 64>>>(a, b, c, d, lc, ld);
  CHECK(hipGetLastError());
  print(name, d, 2 * TILE);
}

int main() {
  using wmma::col_major, wmma::row_major, wmma::mem_col_major, wmma::mem_row_major;
  layouts<row_major, col_major>("f32_rc_rowC_colD", 1, mem_row_major, mem_col_major);
  layouts<col_major, row_major>("f32_cr_colC_rowD", 2, mem_col_major, mem_row_major);
  layouts<row_major, row_major>("f32_rr_rowC_rowD", 3, mem_row_major, mem_row_major);
  layouts<col_major, col_major>("f32_cc_colC_colD", 4, mem_col_major, mem_col_major);

  __half *a = halves(2 * TILE, 5), *b = halves(2 * TILE, 6), *h;
  CHECK(hipMalloc(&h, 2 * TILE * sizeof(__half)));
  CHECK(hipMemset(h, 0, 2 * TILE * sizeof(__half)));
  f16_f16_twice<<<1, 32>>>(a, b, h);
  CHECK(hipDeviceSynchronize());
  print_half("f16_twice", h, TILE);

  float* d;
  CHECK(hipMalloc(&d, TILE * sizeof(float)));
  CHECK(hipMemset(d, 0, TILE * sizeof(float)));
  scaled<<<1, 32>>>(a, b, d);
  print("scaled", d, TILE);

  CHECK(hipMemset(h, 0, TILE * sizeof(__half)));
  round_trip<wmma::matrix_a, row_major><<<1, 32>>>(a, h);
  CHECK(hipDeviceSynchronize());
  print_half("trip_a_row", h, TILE);
  round_trip<wmma::matrix_b, col_major><<<1, 32>>>(b, h + TILE);  // over zeros
  CHECK(hipDeviceSynchronize());
  print_half("trip_b_col", h + TILE, TILE);

  static hip_bfloat16 bbuf[2][TILE];
  for (int i = 0; i < TILE; ++i) {
    bbuf[0][i] = hip_bfloat16(value(i, 7));
    bbuf[1][i] = hip_bfloat16(value(i, 8));
  }
  hip_bfloat16 *ba = device_copy(bbuf[0], TILE), *bb = device_copy(bbuf[1], TILE);
  CHECK(hipMemset(d, 0, TILE * sizeof(float)));
  bf16_f32<<<1, 32>>>(ba, bb, d);
  print("bf16", d, TILE);

  static int8_t ibuf[2][TILE];
  for (int i = 0; i < TILE; ++i) {
    ibuf[0][i] = int8_t((i * 53 + 7) % 255 - 127);
    ibuf[1][i] = int8_t((i * 29 + 3) % 255 - 127);
  }
  int8_t *ia = device_copy(ibuf[0], TILE), *ib = device_copy(ibuf[1], TILE);
  int* di;
  CHECK(hipMalloc(&di, TILE * sizeof(int)));
  CHECK(hipMemset(di, 0, TILE * sizeof(int)));
  int8_i32<int8_t><<<1, 32>>>(ia, ib, di);
  print("i8", di, TILE);
  CHECK(hipMemset(di, 0, TILE * sizeof(int)));
  int8_i32<uint8_t><<<1, 32>>>(reinterpret_cast<uint8_t*>(ia), reinterpret_cast<uint8_t*>(ib), di);
  print("u8", di, TILE);
  return 0;
}
