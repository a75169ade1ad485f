// nvcuda::wmma 16x16x16 half GEMM tile (rocWMMA has it on gfx11 from ROCm 5.5) and a 32x8x16 shape (rocWMMA has none).
#include <mma.h>
#include <cuda_fp16.h>
using namespace nvcuda;

// 16x16x16 half-precision tile multiply: one warp computes one output tile
__global__ void wmma_gemm(const half* a, const half* b, float* c, int lda, int ldb, int ldc) {
  wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> fa;
  wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::col_major> fb;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 0.0f);
  wmma::load_matrix_sync(fa, a, lda);
  wmma::load_matrix_sync(fb, b, ldb);
  wmma::mma_sync(acc, fa, fb, acc);
  wmma::store_matrix_sync(c, acc, ldc, wmma::mem_row_major);
}

__global__ void odd_shapes(const half* a) {
  nvcuda::wmma::fragment<nvcuda::wmma::matrix_a, 32, 8, 16, half, nvcuda::wmma::row_major> f;
  nvcuda::wmma::load_matrix_sync(f, a, 16);
}
