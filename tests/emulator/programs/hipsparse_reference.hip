// Exercises cass's reference hipSPARSE SpMV and SpMM on the emulator; tests/emulator/test_emulated_hipsparse.py
// builds the same matrices with numpy. Matrix: 5 x 6, entry (r, c) = r + 2c + 1 where (r*7 + c*3) % 4 == 0.
#include <hip/hip_runtime.h>
#include <hipsparse/hipsparse.h>

#include <cstdint>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                  \
    do {                                                          \
        hipsparseStatus_t s_ = (x);                               \
        if (s_ != HIPSPARSE_STATUS_SUCCESS) {                     \
            printf("FAIL %s -> %d\n", #x, (int)s_);               \
            return 1;                                             \
        }                                                         \
    } while (0)

template <typename T>
T* upload(const std::vector<T>& h) {
    T* d = nullptr;
    hipMalloc(&d, h.size() * sizeof(T) + 8);
    hipMemcpy(d, h.data(), h.size() * sizeof(T), hipMemcpyHostToDevice);
    return d;
}

int main() {
    const int rows = 5, cols = 6;
    std::vector<int32_t> offsets{0}, columns;
    std::vector<int64_t> coo_rows, coo_cols;
    std::vector<float> values;
    std::vector<double> dvalues;
    for (int r = 0; r < rows; ++r) {
        for (int c = 0; c < cols; ++c)
            if ((r * 7 + c * 3) % 4 == 0) {
                columns.push_back(c);
                values.push_back(r + 2.0f * c + 1.0f);
                dvalues.push_back(r + 2.0 * c + 1.0);
                coo_rows.push_back(r + 1);  // one-based
                coo_cols.push_back(c + 1);
            }
        offsets.push_back((int32_t)columns.size());
    }
    std::vector<float> x{1, -2, 3, 0.5f, -1, 2}, y{1, 1, 1, 1, 1};
    std::vector<double> xd(x.begin(), x.end()), yd(y.begin(), y.end());
    hipsparseHandle_t h;
    CHECK(hipsparseCreate(&h));
    hipsparseSpMatDescr_t csr, coo;
    hipsparseDnVecDescr_t vx, vy, vxd, vyd;
    float *dy = upload(y);
    CHECK(hipsparseCreateCsr(&csr, rows, cols, (int64_t)values.size(), upload(offsets), upload(columns),
                             upload(values), HIPSPARSE_INDEX_32I, HIPSPARSE_INDEX_32I,
                             HIPSPARSE_INDEX_BASE_ZERO, HIP_R_32F));
    CHECK(hipsparseCreateDnVec(&vx, cols, upload(x), HIP_R_32F));
    CHECK(hipsparseCreateDnVec(&vy, rows, dy, HIP_R_32F));
    float alpha = 2.0f, beta = -1.0f;
    size_t size = 0;
    CHECK(hipsparseSpMV_bufferSize(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, &alpha, csr, vx, &beta, vy,
                                   HIP_R_32F, HIPSPARSE_SPMV_ALG_DEFAULT, &size));
    void* buffer;
    hipMalloc(&buffer, size);
    CHECK(hipsparseSpMV(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, &alpha, csr, vx, &beta, vy, HIP_R_32F,
                        HIPSPARSE_SPMV_ALG_DEFAULT, buffer));
    hipMemcpy(y.data(), dy, rows * sizeof(float), hipMemcpyDeviceToHost);
    printf("csr_f32");
    for (float v : y) printf(" %.9g", v);
    printf("\n");
    // COO, 64-bit one-based indices, double, alpha/beta in device memory
    double* dyd = upload(yd);
    CHECK(hipsparseCreateCoo(&coo, rows, cols, (int64_t)dvalues.size(), upload(coo_rows), upload(coo_cols),
                             upload(dvalues), HIPSPARSE_INDEX_64I, HIPSPARSE_INDEX_BASE_ONE, HIP_R_64F));
    CHECK(hipsparseCreateDnVec(&vxd, cols, upload(xd), HIP_R_64F));
    CHECK(hipsparseCreateDnVec(&vyd, rows, dyd, HIP_R_64F));
    CHECK(hipsparseSetPointerMode(h, HIPSPARSE_POINTER_MODE_DEVICE));
    double* scalars = upload(std::vector<double>{0.5, 0.0});
    CHECK(hipsparseSpMV(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, scalars, coo, vxd, scalars + 1, vyd,
                        HIP_R_64F, HIPSPARSE_SPMV_ALG_DEFAULT, buffer));
    hipMemcpy(yd.data(), dyd, rows * sizeof(double), hipMemcpyDeviceToHost);
    printf("coo_f64");
    for (double v : yd) printf(" %.17g", v);
    printf("\n");
    printf("transpose %d\n", (int)hipsparseSpMV(h, HIPSPARSE_OPERATION_TRANSPOSE, scalars, coo, vxd,
                                                 scalars + 1, vyd, HIP_R_64F, HIPSPARSE_SPMV_ALG_DEFAULT, buffer));
    // SpMM: B (6 x 3) entry (i, j) = i - 2j + 0.5. CSR f32 with column-major B and C, host scalars
    std::vector<float> b(18), c(15, 1.0f);
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 3; ++j) b[i + j * 6] = i - 2.0f * j + 0.5f;
    float* dc = upload(c);
    hipsparseDnMatDescr_t mb, mc, mbt, mcr;
    CHECK(hipsparseSetPointerMode(h, HIPSPARSE_POINTER_MODE_HOST));
    CHECK(hipsparseCreateDnMat(&mb, 6, 3, 6, upload(b), HIP_R_32F, HIPSPARSE_ORDER_COLUMN));
    CHECK(hipsparseCreateDnMat(&mc, rows, 3, rows, dc, HIP_R_32F, HIPSPARSE_ORDER_COLUMN));
    CHECK(hipsparseSpMM_bufferSize(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, HIPSPARSE_OPERATION_NON_TRANSPOSE,
                                   &alpha, csr, mb, &beta, mc, HIP_R_32F, HIPSPARSE_SPMM_ALG_DEFAULT, &size));
    CHECK(hipsparseSpMM(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, HIPSPARSE_OPERATION_NON_TRANSPOSE, &alpha,
                        csr, mb, &beta, mc, HIP_R_32F, HIPSPARSE_SPMM_ALG_DEFAULT, buffer));
    hipMemcpy(c.data(), dc, 15 * sizeof(float), hipMemcpyDeviceToHost);
    printf("spmm_csr_f32");  // column-major
    for (float v : c) printf(" %.9g", v);
    printf("\n");
    // COO f64, B given transposed (3 x 6, row-major, ld 8), C row-major (ld 4), device scalars
    std::vector<double> bt(3 * 8, 99.0), cr(rows * 4, 7.0);
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 3; ++j) bt[j * 8 + i] = i - 2.0 * j + 0.5;
    double* dcr = upload(cr);
    CHECK(hipsparseCreateDnMat(&mbt, 3, 6, 8, upload(bt), HIP_R_64F, HIPSPARSE_ORDER_ROW));
    CHECK(hipsparseCreateDnMat(&mcr, rows, 3, 4, dcr, HIP_R_64F, HIPSPARSE_ORDER_ROW));
    CHECK(hipsparseSetPointerMode(h, HIPSPARSE_POINTER_MODE_DEVICE));
    CHECK(hipsparseSpMM(h, HIPSPARSE_OPERATION_NON_TRANSPOSE, HIPSPARSE_OPERATION_TRANSPOSE, scalars, coo,
                        mbt, scalars + 1, mcr, HIP_R_64F, HIPSPARSE_SPMM_ALG_DEFAULT, buffer));
    hipMemcpy(cr.data(), dcr, rows * 4 * sizeof(double), hipMemcpyDeviceToHost);
    printf("spmm_coo_f64");  // row-major with ld 4: the fourth column untouched
    for (double v : cr) printf(" %.17g", v);
    printf("\n");
    printf("spmm_shape %d\n", (int)hipsparseSpMM(h, HIPSPARSE_OPERATION_NON_TRANSPOSE,
                                                 HIPSPARSE_OPERATION_NON_TRANSPOSE, scalars, coo, mbt,
                                                 scalars + 1, mcr, HIP_R_64F, HIPSPARSE_SPMM_ALG_DEFAULT, buffer));
    CHECK(hipsparseDestroyDnMat(mb));
    CHECK(hipsparseDestroyDnMat(mc));
    CHECK(hipsparseDestroyDnMat(mbt));
    CHECK(hipsparseDestroyDnMat(mcr));
    CHECK(hipsparseDestroySpMat(csr));
    CHECK(hipsparseDestroySpMat(coo));
    CHECK(hipsparseDestroyDnVec(vx));
    CHECK(hipsparseDestroy(h));
    return 0;
}
