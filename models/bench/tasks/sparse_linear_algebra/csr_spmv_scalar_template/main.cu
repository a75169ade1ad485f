// CSR sparse matrix-vector product y = A*x with one thread per row, instantiated for float and double.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                          \
    do {                                                                          \
        cudaError_t err_ = (call);                                                \
        if (err_ != cudaSuccess) {                                                \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                          \
            exit(2);                                                              \
        }                                                                         \
    } while (0)

// Deterministic input generator (LCG); never rand() or the clock.
static uint32_t g_seed = 12345u;
inline uint32_t next_u32() {
    g_seed = g_seed * 1664525u + 1013904223u;
    return g_seed;
}
inline float next_uniform() {  // uniform in [-1, 1)
    return (float)(next_u32() >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

#include <algorithm>

template <typename T>
struct CsrMatrix {
    int rows, cols, nnz;
    const int* row_ptr;
    const int* col_idx;
    const T* values;
};

template <typename T>
__device__ __forceinline__ T row_dot(const CsrMatrix<T>& A, const T* __restrict__ x, int row) {
    T sum = T(0);
    for (int k = A.row_ptr[row]; k < A.row_ptr[row + 1]; ++k) sum += A.values[k] * x[A.col_idx[k]];
    return sum;
}

template <typename T>
__global__ void spmv_csr_scalar(CsrMatrix<T> A, const T* __restrict__ x, T* __restrict__ y, T alpha, T beta) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row < A.rows) y[row] = alpha * row_dot(A, x, row) + beta * y[row];
}

struct HostCsr {
    int rows, cols;
    std::vector<int> row_ptr, col_idx;
    std::vector<double> values;
};

static HostCsr make_matrix(int rows, int cols) {
    HostCsr m{rows, cols, {0}, {}, {}};
    for (int r = 0; r < rows; ++r) {
        const int len = 1 + (int)(next_u32() % 24u);
        std::vector<int> cs;
        for (int k = 0; k < len; ++k) cs.push_back((int)(next_u32() % (uint32_t)cols));
        cs.push_back(r % cols);
        std::sort(cs.begin(), cs.end());
        cs.erase(std::unique(cs.begin(), cs.end()), cs.end());
        for (int c : cs) {
            m.col_idx.push_back(c);
            m.values.push_back(c == r ? 4.0 : 0.5 * next_uniform());
        }
        m.row_ptr.push_back((int)m.col_idx.size());
    }
    return m;
}

template <typename T>
static bool run_case(const HostCsr& h, const char* label, double tol) {
    const int nnz = (int)h.col_idx.size();
    std::vector<T> vals(h.values.begin(), h.values.end()), x(h.cols), y(h.rows);
    for (int i = 0; i < h.cols; ++i) x[i] = (T)(0.25 * (i % 17) - 1.0);
    for (int i = 0; i < h.rows; ++i) y[i] = (T)(0.01 * (i % 5));
    int *d_rp, *d_ci;
    T *d_v, *d_x, *d_y;
    CUDA_CHECK(cudaMalloc(&d_rp, (h.rows + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_ci, nnz * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_v, nnz * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&d_x, h.cols * sizeof(T)));
    CUDA_CHECK(cudaMalloc(&d_y, h.rows * sizeof(T)));
    CUDA_CHECK(cudaMemcpy(d_rp, h.row_ptr.data(), (h.rows + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_ci, h.col_idx.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_v, vals.data(), nnz * sizeof(T), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_x, x.data(), h.cols * sizeof(T), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_y, y.data(), h.rows * sizeof(T), cudaMemcpyHostToDevice));
    CsrMatrix<T> A{h.rows, h.cols, nnz, d_rp, d_ci, d_v};
    const T alpha = (T)1.5, beta = (T)-0.5;
    spmv_csr_scalar<T><<<(h.rows + 127) / 128, 128>>>(A, d_x, d_y, alpha, beta);
    CUDA_CHECK(cudaGetLastError());
    std::vector<T> out(h.rows);
    CUDA_CHECK(cudaMemcpy(out.data(), d_y, h.rows * sizeof(T), cudaMemcpyDeviceToHost));
    bool ok = true;
    double checksum = 0.0, max_err = 0.0;
    for (int r = 0; r < h.rows; ++r) {
        T s = T(0);
        for (int k = h.row_ptr[r]; k < h.row_ptr[r + 1]; ++k) s += vals[k] * x[h.col_idx[k]];
        const double ref = (double)(alpha * s + beta * y[r]);
        const double err = fabs(ref - (double)out[r]);
        max_err = std::max(max_err, err);
        if (err > tol * (1.0 + fabs(ref))) ok = false;
        checksum += (double)out[r] * (double)((r % 7) + 1);
    }
    printf("%s rows %d nnz %d checksum %.6e y[0] %.6e y[%d] %.6e\n", label, h.rows, nnz, checksum,
           (double)out[0], h.rows - 1, (double)out[h.rows - 1]);
    printf("%s max_abs_err_below_tol %d\n", label, max_err <= tol * 10.0 ? 1 : 0);
    CUDA_CHECK(cudaFree(d_rp));
    CUDA_CHECK(cudaFree(d_ci));
    CUDA_CHECK(cudaFree(d_v));
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_y));
    return ok;
}

int main() {
    g_seed = 20240611u;
    const HostCsr h = make_matrix(8192, 8192);
    bool ok = run_case<float>(h, "float", 1e-4);
    ok = run_case<double>(h, "double", 1e-12) && ok;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
