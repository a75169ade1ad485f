// cuSPARSE generic SpMM, C = alpha A B + beta C: A is a banded 200 x 160 sparse matrix (entries at
// columns r - 3 ... r + 2 of the row's diagonal position, values small dyadic rationals), B is
// 160 x 8. In float with A in CSR and B, C row-major; in double with A in COO and B, C column-major
// with a padded leading dimension (the padding must stay untouched). Both against host products.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>
#include <cusparse.h>

#define CUDA_CHECK(call)                                                          \
    do {                                                                          \
        cudaError_t err_ = (call);                                                \
        if (err_ != cudaSuccess) {                                                \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                          \
            exit(2);                                                              \
        }                                                                         \
    } while (0)
#define CUSPARSE_CHECK(call)                                                      \
    do {                                                                          \
        cusparseStatus_t s_ = (call);                                             \
        if (s_ != CUSPARSE_STATUS_SUCCESS) {                                      \
            fprintf(stderr, "cuSPARSE error %d at %s:%d\n", (int)s_, __FILE__,    \
                    __LINE__);                                                    \
            exit(2);                                                              \
        }                                                                         \
    } while (0)

static int failures = 0;
static const int kRows = 200, kInner = 160, kCols = 8;

template <typename T>
T* to_device(const std::vector<T>& h) {
    T* d;
    CUDA_CHECK(cudaMalloc(&d, sizeof(T) * h.size()));
    CUDA_CHECK(cudaMemcpy(d, h.data(), sizeof(T) * h.size(), cudaMemcpyHostToDevice));
    return d;
}

int main() {
    // the band: row r has entries at columns c0 - 3 ... c0 + 2 with c0 = r * kInner / kRows
    std::vector<int> offsets{0}, rows, columns;
    std::vector<double> values;
    for (int r = 0; r < kRows; ++r) {
        const int c0 = r * kInner / kRows;
        for (int c = c0 - 3; c <= c0 + 2; ++c)
            if (c >= 0 && c < kInner) {
                rows.push_back(r);
                columns.push_back(c);
                values.push_back(0.125 * ((r * 3 + c * 5) % 17 - 8));
            }
        offsets.push_back((int)columns.size());
    }
    const int nnz = (int)values.size();
    // B(k, j) = 0.25 * ((k + 3 j) % 9 - 4); reference product on the host
    std::vector<double> ab(kRows * kCols, 0.0);
    for (int r = 0; r < kRows; ++r)
        for (int e = offsets[r]; e < offsets[r + 1]; ++e)
            for (int j = 0; j < kCols; ++j)
                ab[r * kCols + j] += values[e] * 0.25 * ((columns[e] + 3 * j) % 9 - 4);
    printf("banded %d x %d, %d entries, B %d x %d\n", kRows, kInner, nnz, kInner, kCols);

    cusparseHandle_t h;
    CUSPARSE_CHECK(cusparseCreate(&h));
    int *d_off = to_device(offsets), *d_rows = to_device(rows), *d_cols = to_device(columns);

    // 1) float, CSR, row-major B and C: C = 2 A B - C with C = 1
    std::vector<float> valuesf(values.begin(), values.end()), bf(kInner * kCols), cf(kRows * kCols, 1.0f);
    for (int k = 0; k < kInner; ++k)
        for (int j = 0; j < kCols; ++j) bf[k * kCols + j] = 0.25f * ((k + 3 * j) % 9 - 4);
    float *d_valsf = to_device(valuesf), *d_bf = to_device(bf), *d_cf = to_device(cf);
    cusparseSpMatDescr_t csr;
    cusparseDnMatDescr_t mb, mc;
    CUSPARSE_CHECK(cusparseCreateCsr(&csr, kRows, kInner, nnz, d_off, d_cols, d_valsf, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CUSPARSE_CHECK(cusparseCreateDnMat(&mb, kInner, kCols, kCols, d_bf, CUDA_R_32F, CUSPARSE_ORDER_ROW));
    CUSPARSE_CHECK(cusparseCreateDnMat(&mc, kRows, kCols, kCols, d_cf, CUDA_R_32F, CUSPARSE_ORDER_ROW));
    float alpha = 2.0f, beta = -1.0f;
    size_t size = 0;
    CUSPARSE_CHECK(cusparseSpMM_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                           &alpha, csr, mb, &beta, mc, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, &size));
    void* buffer;
    CUDA_CHECK(cudaMalloc(&buffer, size > 0 ? size : 1));
    CUSPARSE_CHECK(cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                                csr, mb, &beta, mc, CUDA_R_32F, CUSPARSE_SPMM_ALG_DEFAULT, buffer));
    CUDA_CHECK(cudaMemcpy(cf.data(), d_cf, sizeof(float) * kRows * kCols, cudaMemcpyDeviceToHost));
    double worst = 0;
    printf("csr float column sums:");
    for (int j = 0; j < kCols; ++j) {
        double s = 0;
        for (int r = 0; r < kRows; ++r) {
            s += cf[r * kCols + j];
            worst = fmax(worst, fabs(cf[r * kCols + j] - (2 * ab[r * kCols + j] - 1)));
        }
        printf(" %.4f", s);
    }
    printf("\ncsr float matches the host within 1e-5: %s\n", worst < 1e-5 ? "yes" : "no");
    failures += worst >= 1e-5;

    // 2) double, COO, column-major with ld = kRows + 4: C = 0.5 A B (beta 0); padding stays 7
    const int ldb = kInner + 4, ldc = kRows + 4;
    std::vector<double> bd(ldb * kCols, 99.0), cd(ldc * kCols, 7.0);
    for (int k = 0; k < kInner; ++k)
        for (int j = 0; j < kCols; ++j) bd[k + j * ldb] = 0.25 * ((k + 3 * j) % 9 - 4);
    double *d_vals = to_device(values), *d_bd = to_device(bd), *d_cd = to_device(cd);
    cusparseSpMatDescr_t coo;
    cusparseDnMatDescr_t mbd, mcd;
    CUSPARSE_CHECK(cusparseCreateCoo(&coo, kRows, kInner, nnz, d_rows, d_cols, d_vals, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    CUSPARSE_CHECK(cusparseCreateDnMat(&mbd, kInner, kCols, ldb, d_bd, CUDA_R_64F, CUSPARSE_ORDER_COL));
    CUSPARSE_CHECK(cusparseCreateDnMat(&mcd, kRows, kCols, ldc, d_cd, CUDA_R_64F, CUSPARSE_ORDER_COL));
    double alphad = 0.5, betad = 0.0;
    size_t sized = 0;
    CUSPARSE_CHECK(cusparseSpMM_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE,
                                           &alphad, coo, mbd, &betad, mcd, CUDA_R_64F, CUSPARSE_SPMM_ALG_DEFAULT,
                                           &sized));
    void* bufferd;
    CUDA_CHECK(cudaMalloc(&bufferd, sized > 0 ? sized : 1));
    CUSPARSE_CHECK(cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alphad,
                                coo, mbd, &betad, mcd, CUDA_R_64F, CUSPARSE_SPMM_ALG_DEFAULT, bufferd));
    CUDA_CHECK(cudaMemcpy(cd.data(), d_cd, sizeof(double) * ldc * kCols, cudaMemcpyDeviceToHost));
    double exact_worst = 0;
    bool padding = true;
    for (int j = 0; j < kCols; ++j) {
        for (int r = 0; r < kRows; ++r)
            exact_worst = fmax(exact_worst, fabs(cd[r + j * ldc] - 0.5 * ab[r * kCols + j]));
        for (int r = kRows; r < ldc; ++r) padding = padding && cd[r + j * ldc] == 7.0;
    }
    printf("coo double C(0,0) %.6f C(199,7) %.6f exact: %s padding untouched: %s\n", cd[0],
           cd[199 + 7 * ldc], exact_worst == 0 ? "yes" : "no", padding ? "yes" : "no");
    failures += exact_worst != 0 || !padding;

    CUSPARSE_CHECK(cusparseDestroySpMat(csr));
    CUSPARSE_CHECK(cusparseDestroySpMat(coo));
    for (cusparseDnMatDescr_t m : {mb, mc, mbd, mcd}) CUSPARSE_CHECK(cusparseDestroyDnMat(m));
    CUSPARSE_CHECK(cusparseDestroy(h));
    for (void* p : {(void*)d_off, (void*)d_rows, (void*)d_cols, (void*)d_valsf, (void*)d_bf, (void*)d_cf,
                    (void*)d_vals, (void*)d_bd, (void*)d_cd, buffer, bufferd})
        CUDA_CHECK(cudaFree(p));
    printf(failures ? "CHECK FAIL\n" : "CHECK PASS\n");
    return failures ? 1 : 0;
}
