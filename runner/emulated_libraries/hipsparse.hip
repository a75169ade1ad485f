// cass's reference implementations for emulated verification: hipSPARSE's generic SpMV and SpMM.
//
// The part of Debian's hipSPARSE 2.3 API (its hipsparse.h declares every function here) that
// cuSPARSE's generic sparse-matrix x dense-vector product needs, as plain HIP kernels compiled for
// gfx1100 with the program that calls them: handle, stream and pointer mode; CSR and COO
// matrices (32- or 64-bit indices, zero or one based, f32/f64 values); dense vectors;
// SpMV_bufferSize and SpMV (y = alpha op(A) x + beta y, op(A) = A; one thread per row, the row's
// products summed in order); dense matrices (row or column order) and SpMM_bufferSize,
// SpMM_preprocess and SpMM (C = alpha op(A) op(B) + beta C, op(A) = A, op(B) = B or B^T; one
// thread per entry of C). On an AMD GPU the real hipSPARSE (rocSPARSE) is linked instead.

#include <hip/hip_runtime.h>
#include <hipsparse/hipsparse.h>

#include <cstdint>
#include <new>

// Every function defined below must be one hipsparse.h declares (a misspelt name is an error).
#pragma clang diagnostic error "-Wmissing-prototypes"

namespace {

struct Handle {
    hipStream_t stream = nullptr;
    hipsparsePointerMode_t mode = HIPSPARSE_POINTER_MODE_HOST;
};

struct SpMat {
    bool coo;
    int64_t rows, cols, nnz;
    void *offsets, *columns, *values;  // CSR: row offsets; COO: row indices
    hipsparseIndexType_t row_type, col_type;
    hipsparseIndexBase_t base;
    hipDataType type;
};

struct DnVec {
    int64_t size;
    void* values;
    hipDataType type;
};

struct DnMat {
    int64_t rows, cols, ld;
    void* values;
    hipDataType type;
    hipsparseOrder_t order;
    __device__ int64_t at(int64_t i, int64_t j, bool trans) const {
        if (trans) return at(j, i, false);
        return order == HIPSPARSE_ORDER_ROW ? i * ld + j : i + j * ld;
    }
};

constexpr int kThreads = 128;

__device__ int64_t index_at(const void* p, int64_t i, hipsparseIndexType_t t) {
    return t == HIPSPARSE_INDEX_64I ? static_cast<const int64_t*>(p)[i]
                                    : static_cast<const int32_t*>(p)[i];
}

__device__ double value_at(const void* p, int64_t i, hipDataType t) {
    return t == HIP_R_64F ? static_cast<const double*>(p)[i] : static_cast<const float*>(p)[i];
}

// The first COO entry of `row` (entries sorted by row, as cuSPARSE requires).
__device__ int64_t coo_start(const SpMat& A, int64_t row) {
    int64_t lo = 0, hi = A.nnz;
    while (lo < hi) {
        int64_t mid = (lo + hi) / 2;
        if (index_at(A.offsets, mid, A.row_type) - A.base < row) lo = mid + 1;
        else hi = mid;
    }
    return lo;
}

template <typename T>
__global__ void spmv_kernel(SpMat A, DnVec x, DnVec y, T alpha_host, const T* alpha_dev,
                            T beta_host, const T* beta_dev) {
    const int64_t row = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
    if (row >= A.rows) return;
    int64_t begin, end;
    if (A.coo) {
        begin = coo_start(A, row);
        end = coo_start(A, row + 1);
    } else {
        begin = index_at(A.offsets, row, A.row_type) - A.base;
        end = index_at(A.offsets, row + 1, A.row_type) - A.base;
    }
    T sum = 0;
    for (int64_t e = begin; e < end; ++e) {
        const int64_t col = index_at(A.columns, e, A.col_type) - A.base;
        sum += static_cast<T>(value_at(A.values, e, A.type)) * static_cast<T>(value_at(x.values, col, x.type));
    }
    const T alpha = alpha_dev ? *alpha_dev : alpha_host, beta = beta_dev ? *beta_dev : beta_host;
    const T old = beta == T(0) ? T(0) : beta * static_cast<T>(value_at(y.values, row, y.type));
    const T result = alpha * sum + old;
    if (y.type == HIP_R_64F) static_cast<double*>(y.values)[row] = result;
    else static_cast<float*>(y.values)[row] = static_cast<float>(result);
}

// One thread per entry (row, col) of C: the row's products with column `col` of op(B), in order.
template <typename T>
__global__ void spmm_kernel(SpMat A, DnMat B, bool trans_b, DnMat C, T alpha_host,
                            const T* alpha_dev, T beta_host, const T* beta_dev) {
    const int64_t e = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x;
    if (e >= A.rows * C.cols) return;
    const int64_t row = e % A.rows, col = e / A.rows;
    const int64_t begin = A.coo ? coo_start(A, row) : index_at(A.offsets, row, A.row_type) - A.base;
    const int64_t end = A.coo ? coo_start(A, row + 1) : index_at(A.offsets, row + 1, A.row_type) - A.base;
    T sum = 0;
    for (int64_t k = begin; k < end; ++k) {
        const int64_t inner = index_at(A.columns, k, A.col_type) - A.base;
        sum += static_cast<T>(value_at(A.values, k, A.type)) *
               static_cast<T>(value_at(B.values, B.at(inner, col, trans_b), B.type));
    }
    const T alpha = alpha_dev ? *alpha_dev : alpha_host, beta = beta_dev ? *beta_dev : beta_host;
    const int64_t out = C.at(row, col, false);
    const T old = beta == T(0) ? T(0) : beta * static_cast<T>(value_at(C.values, out, C.type));
    const T result = alpha * sum + old;
    if (C.type == HIP_R_64F) static_cast<double*>(C.values)[out] = result;
    else static_cast<float*>(C.values)[out] = static_cast<float>(result);
}

bool value_type(hipDataType t) { return t == HIP_R_32F || t == HIP_R_64F; }
bool index_type(hipsparseIndexType_t t) { return t == HIPSPARSE_INDEX_32I || t == HIPSPARSE_INDEX_64I; }

hipsparseStatus_t make(hipsparseSpMatDescr_t* out, SpMat m) {
    if (!out) return HIPSPARSE_STATUS_INVALID_VALUE;
    if (m.rows < 0 || m.cols < 0 || m.nnz < 0 || !value_type(m.type) || !index_type(m.row_type) ||
        !index_type(m.col_type))
        return HIPSPARSE_STATUS_NOT_SUPPORTED;
    SpMat* mat = new (std::nothrow) SpMat(m);
    if (!mat) return HIPSPARSE_STATUS_ALLOC_FAILED;
    *out = mat;
    return HIPSPARSE_STATUS_SUCCESS;
}

template <typename T>
hipsparseStatus_t spmv(Handle* h, const void* alpha, const SpMat& A, const DnVec& x,
                       const void* beta, const DnVec& y) {
    const bool dev = h->mode == HIPSPARSE_POINTER_MODE_DEVICE;
    const T* a = static_cast<const T*>(alpha);
    const T* b = static_cast<const T*>(beta);
    const int blocks = static_cast<int>((A.rows + kThreads - 1) / kThreads);
    if (blocks == 0) return HIPSPARSE_STATUS_SUCCESS;
    spmv_kernel<T><<<blocks, kThreads, 0, h->stream>>>(A, x, y, dev ? T(0) : *a, dev ? a : nullptr,
                                                       dev ? T(0) : *b, dev ? b : nullptr);
    return hipGetLastError() == hipSuccess ? HIPSPARSE_STATUS_SUCCESS
                                           : HIPSPARSE_STATUS_EXECUTION_FAILED;
}

template <typename T>
hipsparseStatus_t spmm(Handle* h, const void* alpha, const SpMat& A, const DnMat& B, bool trans_b,
                       const void* beta, const DnMat& C) {
    const bool dev = h->mode == HIPSPARSE_POINTER_MODE_DEVICE;
    const T* a = static_cast<const T*>(alpha);
    const T* b = static_cast<const T*>(beta);
    const int blocks = static_cast<int>((A.rows * C.cols + kThreads - 1) / kThreads);
    if (blocks == 0) return HIPSPARSE_STATUS_SUCCESS;
    spmm_kernel<T><<<blocks, kThreads, 0, h->stream>>>(A, B, trans_b, C, dev ? T(0) : *a,
                                                       dev ? a : nullptr, dev ? T(0) : *b,
                                                       dev ? b : nullptr);
    return hipGetLastError() == hipSuccess ? HIPSPARSE_STATUS_SUCCESS
                                           : HIPSPARSE_STATUS_EXECUTION_FAILED;
}

// The shapes of C = alpha op(A) op(B) + beta C agree, and the operations are implemented.
hipsparseStatus_t spmm_check(hipsparseHandle_t handle, hipsparseOperation_t op_a,
                             hipsparseOperation_t op_b, const void* alpha,
                             const hipsparseSpMatDescr_t matA, const hipsparseDnMatDescr_t matB,
                             const void* beta, const hipsparseDnMatDescr_t matC) {
    if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
    if (!alpha || !beta || !matA || !matB || !matC) return HIPSPARSE_STATUS_INVALID_VALUE;
    if (op_a != HIPSPARSE_OPERATION_NON_TRANSPOSE ||
        (op_b != HIPSPARSE_OPERATION_NON_TRANSPOSE && op_b != HIPSPARSE_OPERATION_TRANSPOSE))
        return HIPSPARSE_STATUS_NOT_SUPPORTED;
    const SpMat& A = *static_cast<const SpMat*>(matA);
    const DnMat& B = *static_cast<const DnMat*>(matB);
    const DnMat& C = *static_cast<const DnMat*>(matC);
    const bool trans_b = op_b == HIPSPARSE_OPERATION_TRANSPOSE;
    const int64_t b_rows = trans_b ? B.cols : B.rows, b_cols = trans_b ? B.rows : B.cols;
    if (b_rows != A.cols || C.rows != A.rows || C.cols != b_cols) return HIPSPARSE_STATUS_INVALID_VALUE;
    return HIPSPARSE_STATUS_SUCCESS;
}

}  // namespace

extern "C" {

hipsparseStatus_t hipsparseCreate(hipsparseHandle_t* handle) {
    if (!handle) return HIPSPARSE_STATUS_INVALID_VALUE;
    *handle = new (std::nothrow) Handle();
    return *handle ? HIPSPARSE_STATUS_SUCCESS : HIPSPARSE_STATUS_ALLOC_FAILED;
}
hipsparseStatus_t hipsparseDestroy(hipsparseHandle_t handle) {
    if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
    delete static_cast<Handle*>(handle);
    return HIPSPARSE_STATUS_SUCCESS;
}
hipsparseStatus_t hipsparseSetStream(hipsparseHandle_t handle, hipStream_t stream) {
    if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
    static_cast<Handle*>(handle)->stream = stream;
    return HIPSPARSE_STATUS_SUCCESS;
}
hipsparseStatus_t hipsparseGetStream(hipsparseHandle_t handle, hipStream_t* stream) {
    if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
    if (!stream) return HIPSPARSE_STATUS_INVALID_VALUE;
    *stream = static_cast<Handle*>(handle)->stream;
    return HIPSPARSE_STATUS_SUCCESS;
}
hipsparseStatus_t hipsparseSetPointerMode(hipsparseHandle_t handle, hipsparsePointerMode_t mode) {
    if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
    static_cast<Handle*>(handle)->mode = mode;
    return HIPSPARSE_STATUS_SUCCESS;
}

hipsparseStatus_t hipsparseCreateCsr(hipsparseSpMatDescr_t* descr, int64_t rows, int64_t cols,
                                     int64_t nnz, void* offsets, void* columns, void* values,
                                     hipsparseIndexType_t offset_type,
                                     hipsparseIndexType_t column_type, hipsparseIndexBase_t base,
                                     hipDataType type) {
    return make(descr, SpMat{false, rows, cols, nnz, offsets, columns, values, offset_type,
                             column_type, base, type});
}
hipsparseStatus_t hipsparseCreateCoo(hipsparseSpMatDescr_t* descr, int64_t rows, int64_t cols,
                                     int64_t nnz, void* row_ind, void* col_ind, void* values,
                                     hipsparseIndexType_t index_type, hipsparseIndexBase_t base,
                                     hipDataType type) {
    return make(descr, SpMat{true, rows, cols, nnz, row_ind, col_ind, values, index_type,
                             index_type, base, type});
}
hipsparseStatus_t hipsparseDestroySpMat(hipsparseSpMatDescr_t descr) {
    if (!descr) return HIPSPARSE_STATUS_INVALID_VALUE;
    delete static_cast<SpMat*>(descr);
    return HIPSPARSE_STATUS_SUCCESS;
}
hipsparseStatus_t hipsparseCreateDnVec(hipsparseDnVecDescr_t* descr, int64_t size, void* values,
                                       hipDataType type) {
    if (!descr || size < 0) return HIPSPARSE_STATUS_INVALID_VALUE;
    if (!value_type(type)) return HIPSPARSE_STATUS_NOT_SUPPORTED;
    *descr = new (std::nothrow) DnVec{size, values, type};
    return *descr ? HIPSPARSE_STATUS_SUCCESS : HIPSPARSE_STATUS_ALLOC_FAILED;
}
hipsparseStatus_t hipsparseDestroyDnVec(hipsparseDnVecDescr_t descr) {
    if (!descr) return HIPSPARSE_STATUS_INVALID_VALUE;
    delete static_cast<DnVec*>(descr);
    return HIPSPARSE_STATUS_SUCCESS;
}

hipsparseStatus_t hipsparseSpMV_bufferSize(hipsparseHandle_t handle, hipsparseOperation_t,
                                           const void*, const hipsparseSpMatDescr_t,
                                           const hipsparseDnVecDescr_t, const void*,
                                           const hipsparseDnVecDescr_t, hipDataType,
                                           hipsparseSpMVAlg_t, size_t* size) {
    if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
    if (!size) return HIPSPARSE_STATUS_INVALID_VALUE;
    *size = 4;  // no work area; a non-zero size keeps callers' allocations ordinary
    return HIPSPARSE_STATUS_SUCCESS;
}

hipsparseStatus_t hipsparseSpMV(hipsparseHandle_t handle, hipsparseOperation_t op,
                                const void* alpha, const hipsparseSpMatDescr_t matA,
                                const hipsparseDnVecDescr_t vecX, const void* beta,
                                const hipsparseDnVecDescr_t vecY, hipDataType compute,
                                hipsparseSpMVAlg_t, void*) {
    if (!handle) return HIPSPARSE_STATUS_NOT_INITIALIZED;
    if (!alpha || !beta || !matA || !vecX || !vecY) return HIPSPARSE_STATUS_INVALID_VALUE;
    if (op != HIPSPARSE_OPERATION_NON_TRANSPOSE) return HIPSPARSE_STATUS_NOT_SUPPORTED;
    const SpMat& A = *static_cast<const SpMat*>(matA);
    const DnVec& x = *static_cast<const DnVec*>(vecX);
    const DnVec& y = *static_cast<const DnVec*>(vecY);
    if (x.size < A.cols || y.size < A.rows) return HIPSPARSE_STATUS_INVALID_VALUE;
    Handle* h = static_cast<Handle*>(handle);
    if (compute == HIP_R_64F) return spmv<double>(h, alpha, A, x, beta, y);
    if (compute == HIP_R_32F) return spmv<float>(h, alpha, A, x, beta, y);
    return HIPSPARSE_STATUS_NOT_SUPPORTED;
}

hipsparseStatus_t hipsparseCreateDnMat(hipsparseDnMatDescr_t* descr, int64_t rows, int64_t cols,
                                       int64_t ld, void* values, hipDataType type,
                                       hipsparseOrder_t order) {
    if (!descr || rows < 0 || cols < 0) return HIPSPARSE_STATUS_INVALID_VALUE;
    const bool row_order = order == HIPSPARSE_ORDER_ROW;
    if (!row_order && order != HIPSPARSE_ORDER_COLUMN) return HIPSPARSE_STATUS_INVALID_VALUE;
    if (ld < (row_order ? cols : rows) || ld < 1) return HIPSPARSE_STATUS_INVALID_VALUE;
    if (!value_type(type)) return HIPSPARSE_STATUS_NOT_SUPPORTED;
    *descr = new (std::nothrow) DnMat{rows, cols, ld, values, type, order};
    return *descr ? HIPSPARSE_STATUS_SUCCESS : HIPSPARSE_STATUS_ALLOC_FAILED;
}
hipsparseStatus_t hipsparseDestroyDnMat(hipsparseDnMatDescr_t descr) {
    if (!descr) return HIPSPARSE_STATUS_INVALID_VALUE;
    delete static_cast<DnMat*>(descr);
    return HIPSPARSE_STATUS_SUCCESS;
}

hipsparseStatus_t hipsparseSpMM_bufferSize(hipsparseHandle_t handle, hipsparseOperation_t op_a,
                                           hipsparseOperation_t op_b, const void* alpha,
                                           const hipsparseSpMatDescr_t matA,
                                           const hipsparseDnMatDescr_t matB, const void* beta,
                                           const hipsparseDnMatDescr_t matC, hipDataType,
                                           hipsparseSpMMAlg_t, size_t* size) {
    const hipsparseStatus_t status = spmm_check(handle, op_a, op_b, alpha, matA, matB, beta, matC);
    if (status != HIPSPARSE_STATUS_SUCCESS) return status;
    if (!size) return HIPSPARSE_STATUS_INVALID_VALUE;
    *size = 4;  // no work area, as for SpMV
    return HIPSPARSE_STATUS_SUCCESS;
}

hipsparseStatus_t hipsparseSpMM_preprocess(hipsparseHandle_t handle, hipsparseOperation_t op_a,
                                           hipsparseOperation_t op_b, const void* alpha,
                                           const hipsparseSpMatDescr_t matA,
                                           const hipsparseDnMatDescr_t matB, const void* beta,
                                           const hipsparseDnMatDescr_t matC, hipDataType,
                                           hipsparseSpMMAlg_t, void*) {
    return spmm_check(handle, op_a, op_b, alpha, matA, matB, beta, matC);  // nothing to prepare
}

hipsparseStatus_t hipsparseSpMM(hipsparseHandle_t handle, hipsparseOperation_t op_a,
                                hipsparseOperation_t op_b, const void* alpha,
                                const hipsparseSpMatDescr_t matA, const hipsparseDnMatDescr_t matB,
                                const void* beta, const hipsparseDnMatDescr_t matC,
                                hipDataType compute, hipsparseSpMMAlg_t, void*) {
    const hipsparseStatus_t status = spmm_check(handle, op_a, op_b, alpha, matA, matB, beta, matC);
    if (status != HIPSPARSE_STATUS_SUCCESS) return status;
    Handle* h = static_cast<Handle*>(handle);
    const SpMat& A = *static_cast<const SpMat*>(matA);
    const DnMat& B = *static_cast<const DnMat*>(matB);
    const DnMat& C = *static_cast<const DnMat*>(matC);
    const bool trans_b = op_b == HIPSPARSE_OPERATION_TRANSPOSE;
    if (compute == HIP_R_64F) return spmm<double>(h, alpha, A, B, trans_b, beta, C);
    if (compute == HIP_R_32F) return spmm<float>(h, alpha, A, B, trans_b, beta, C);
    return HIPSPARSE_STATUS_NOT_SUPPORTED;
}

}  // extern "C"
