// cass's reference implementations for emulated verification: hipBLAS.
//
// The hipBLAS 0.51 API (AMD's own header declares every function here) implemented as plain HIP
// kernels compiled for gfx1100 with the program that calls them, so a cuBLAS program's HIP port
// runs on the cass RDNA3 emulator, where no rocBLAS exists. They aim at BLAS's results, not
// rocBLAS's speed: one thread per output element, reductions in one workgroup in a fixed order.
// On an AMD GPU the real hipBLAS is linked instead.
//
// Covered: handle, stream and pointer mode; Set/Get Vector/Matrix (and Async); level 1 S/D
// axpy, dot, nrm2, scal, copy, asum, iamax; level 2 S/D gemv; level 3 S/D gemm, gemmBatched,
// gemmStridedBatched; GemmEx, GemmBatchedEx, GemmStridedBatchedEx with f16/f32/f64 data and
// f32/f64 compute. Anything else hipBLAS declares is left undefined: the link names it.

#include <hip/hip_runtime.h>
#include <hipblas.h>

#include <cmath>
#include <cstdint>
#include <new>

// Every function defined below must be one hipblas.h declares (a misspelt name is an error).
#pragma clang diagnostic error "-Wmissing-prototypes"

namespace {

struct Handle {
    hipStream_t stream = nullptr;
    hipblasPointerMode_t mode = HIPBLAS_POINTER_MODE_HOST;
};

constexpr int kThreads = 256;

Handle* get(hipblasHandle_t handle) { return static_cast<Handle*>(handle); }

int blocks(long long n) { return static_cast<int>((n + kThreads - 1) / kThreads); }

hipblasStatus_t launched() {
    return hipGetLastError() == hipSuccess ? HIPBLAS_STATUS_SUCCESS
                                           : HIPBLAS_STATUS_EXECUTION_FAILED;
}

// A scalar argument: read on the host in host pointer mode, by the kernel in device mode.
template <typename T>
struct Scalar {
    T value;
    const T* device;
    __device__ T get() const { return device ? *device : value; }
};

template <typename T>
Scalar<T> scalar(Handle* h, const T* p) {
    if (h->mode == HIPBLAS_POINTER_MODE_DEVICE) return Scalar<T>{T(0), p};
    return Scalar<T>{*p, nullptr};
}

long long offset(int n, int inc) { return inc < 0 ? static_cast<long long>(1 - n) * inc : 0; }

// ------------------------------------------------------------------ level 1

template <typename T>
__global__ void axpy_kernel(int n, Scalar<T> alpha, const T* x, int incx, T* y, int incy) {
    long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
    if (i < n) y[i * incy] += alpha.get() * x[i * incx];
}

template <typename T>
__global__ void scal_kernel(int n, Scalar<T> alpha, T* x, int incx) {
    long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
    if (i < n) x[i * incx] *= alpha.get();
}

template <typename T>
__global__ void copy_kernel(int n, const T* x, int incx, T* y, int incy) {
    long long i = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
    if (i < n) y[i * incy] = x[i * incx];
}

enum class Reduce { dot, sumsq, asum };

// One workgroup: each thread sums a strided slice, then a tree; the same order every run.
template <typename T, typename Acc, Reduce kind>
__global__ void reduce_kernel(int n, const T* x, int incx, const T* y, int incy, T* out) {
    __shared__ Acc part[kThreads];
    Acc sum = 0;
    for (long long i = threadIdx.x; i < n; i += kThreads) {
        Acc a = static_cast<Acc>(x[i * incx]);
        if (kind == Reduce::dot) sum += a * static_cast<Acc>(y[i * incy]);
        if (kind == Reduce::sumsq) sum += a * a;
        if (kind == Reduce::asum) sum += a < 0 ? -a : a;
    }
    part[threadIdx.x] = sum;
    __syncthreads();
    for (int half = kThreads / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) part[threadIdx.x] += part[threadIdx.x + half];
        __syncthreads();
    }
    if (threadIdx.x == 0) *out = static_cast<T>(kind == Reduce::sumsq ? sqrt(part[0]) : part[0]);
}

// BLAS's iamax: the first index (1-based) of the largest |x_i|.
template <typename T>
__global__ void iamax_kernel(int n, const T* x, int incx, int* out) {
    __shared__ T best[kThreads];
    __shared__ int where[kThreads];
    T b = -1;
    int w = 0;
    for (int i = threadIdx.x; i < n; i += kThreads) {
        T a = fabs(x[static_cast<long long>(i) * incx]);
        if (a > b) { b = a; w = i + 1; }
    }
    best[threadIdx.x] = b;
    where[threadIdx.x] = w;
    __syncthreads();
    for (int half = kThreads / 2; half > 0; half /= 2) {
        if (threadIdx.x < half) {
            T o = best[threadIdx.x + half];
            int ow = where[threadIdx.x + half];
            if (o > best[threadIdx.x] || (o == best[threadIdx.x] && ow && ow < where[threadIdx.x])) {
                best[threadIdx.x] = o;
                where[threadIdx.x] = ow;
            }
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) *out = n > 0 ? where[0] : 0;
}

template <typename T>
hipblasStatus_t axpy(hipblasHandle_t handle, int n, const T* alpha, const T* x, int incx, T* y,
                     int incy) {
    Handle* h = get(handle);
    if (!h) return HIPBLAS_STATUS_NOT_INITIALIZED;
    if (n <= 0) return HIPBLAS_STATUS_SUCCESS;
    if (!alpha || !x || !y) return HIPBLAS_STATUS_INVALID_VALUE;
    axpy_kernel<T><<<blocks(n), kThreads, 0, h->stream>>>(
        n, scalar(h, alpha), x + offset(n, incx), incx, y + offset(n, incy), incy);
    return launched();
}

template <typename T>
hipblasStatus_t scal(hipblasHandle_t handle, int n, const T* alpha, T* x, int incx) {
    Handle* h = get(handle);
    if (!h) return HIPBLAS_STATUS_NOT_INITIALIZED;
    if (n <= 0 || incx <= 0) return HIPBLAS_STATUS_SUCCESS;
    if (!alpha || !x) return HIPBLAS_STATUS_INVALID_VALUE;
    scal_kernel<T><<<blocks(n), kThreads, 0, h->stream>>>(n, scalar(h, alpha), x, incx);
    return launched();
}

template <typename T>
hipblasStatus_t copy(hipblasHandle_t handle, int n, const T* x, int incx, T* y, int incy) {
    Handle* h = get(handle);
    if (!h) return HIPBLAS_STATUS_NOT_INITIALIZED;
    if (n <= 0) return HIPBLAS_STATUS_SUCCESS;
    if (!x || !y) return HIPBLAS_STATUS_INVALID_VALUE;
    copy_kernel<T><<<blocks(n), kThreads, 0, h->stream>>>(n, x + offset(n, incx), incx,
                                                          y + offset(n, incy), incy);
    return launched();
}

// A scalar result: written straight to `result` in device mode, else through a device
// temporary and copied back (the call then waits for the stream, as cuBLAS's does).
template <typename R, typename Launch>
hipblasStatus_t result_to(Handle* h, R* result, Launch launch) {
    if (h->mode == HIPBLAS_POINTER_MODE_DEVICE) {
        launch(result);
        return launched();
    }
    R* scratch = nullptr;
    if (hipMalloc(&scratch, sizeof(R)) != hipSuccess) return HIPBLAS_STATUS_ALLOC_FAILED;
    launch(scratch);
    hipblasStatus_t status = launched();
    if (hipMemcpyAsync(result, scratch, sizeof(R), hipMemcpyDeviceToHost, h->stream) != hipSuccess ||
        hipStreamSynchronize(h->stream) != hipSuccess)
        status = HIPBLAS_STATUS_EXECUTION_FAILED;
    hipFree(scratch);
    return status;
}

template <typename T, typename Acc, Reduce kind>
hipblasStatus_t reduce(hipblasHandle_t handle, int n, const T* x, int incx, const T* y, int incy,
                       T* result) {
    Handle* h = get(handle);
    if (!h) return HIPBLAS_STATUS_NOT_INITIALIZED;
    if (!result) return HIPBLAS_STATUS_INVALID_VALUE;
    if (kind != Reduce::dot && incx <= 0) n = 0;
    if (n > 0 && (!x || (kind == Reduce::dot && !y))) return HIPBLAS_STATUS_INVALID_VALUE;
    const T* xs = n > 0 ? x + offset(n, incx) : x;
    const T* ys = (n > 0 && y) ? y + offset(n, incy) : y;
    return result_to(h, result, [&](T* out) {
        reduce_kernel<T, Acc, kind><<<1, kThreads, 0, h->stream>>>(n, xs, incx, ys, incy, out);
    });
}

template <typename T>
hipblasStatus_t iamax(hipblasHandle_t handle, int n, const T* x, int incx, int* result) {
    Handle* h = get(handle);
    if (!h) return HIPBLAS_STATUS_NOT_INITIALIZED;
    if (!result) return HIPBLAS_STATUS_INVALID_VALUE;
    if (incx <= 0) n = 0;
    return result_to(h, result, [&](int* out) {
        iamax_kernel<T><<<1, kThreads, 0, h->stream>>>(n, x, incx, out);
    });
}

// ------------------------------------------------------------------ level 2

template <typename T>
__global__ void gemv_kernel(bool trans, int rows, int cols, Scalar<T> alpha, const T* A, int lda,
                            const T* x, int incx, Scalar<T> beta, T* y, int incy) {
    // y (length rows of op(A)) = alpha op(A) x + beta y; A is m x n column-major
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int len_y = trans ? cols : rows, len_x = trans ? rows : cols;
    if (i >= len_y) return;
    T sum = 0;
    for (int j = 0; j < len_x; ++j) {
        T a = trans ? A[static_cast<long long>(i) * lda + j] : A[static_cast<long long>(j) * lda + i];
        sum += a * x[static_cast<long long>(j) * incx];
    }
    T b = beta.get();
    T old = b == T(0) ? T(0) : b * y[static_cast<long long>(i) * incy];
    y[static_cast<long long>(i) * incy] = alpha.get() * sum + old;
}

template <typename T>
hipblasStatus_t gemv(hipblasHandle_t handle, hipblasOperation_t op, int m, int n, const T* alpha,
                     const T* A, int lda, const T* x, int incx, const T* beta, T* y, int incy) {
    Handle* h = get(handle);
    if (!h) return HIPBLAS_STATUS_NOT_INITIALIZED;
    if (m < 0 || n < 0 || lda < (m > 1 ? m : 1) || incx == 0 || incy == 0)
        return HIPBLAS_STATUS_INVALID_VALUE;
    bool trans = op != HIPBLAS_OP_N;
    int len_y = trans ? n : m, len_x = trans ? m : n;
    if (len_y == 0) return HIPBLAS_STATUS_SUCCESS;
    gemv_kernel<T><<<blocks(len_y), kThreads, 0, h->stream>>>(
        trans, m, n, scalar(h, alpha), A, lda, x + offset(len_x, incx), incx, scalar(h, beta),
        y + offset(len_y, incy), incy);
    return launched();
}

// ------------------------------------------------------------------ level 3

// Element loads and stores for GemmEx: f16 (IEEE half), f32, f64.
__device__ double load(const void* p, long long i, hipblasDatatype_t t) {
    if (t == HIPBLAS_R_16F) return static_cast<double>(static_cast<float>(static_cast<const _Float16*>(p)[i]));
    if (t == HIPBLAS_R_32F) return static_cast<const float*>(p)[i];
    return static_cast<const double*>(p)[i];
}

__device__ void store(void* p, long long i, hipblasDatatype_t t, double v) {
    if (t == HIPBLAS_R_16F) static_cast<_Float16*>(p)[i] = static_cast<_Float16>(static_cast<float>(v));
    else if (t == HIPBLAS_R_32F) static_cast<float*>(p)[i] = static_cast<float>(v);
    else static_cast<double*>(p)[i] = v;
}

struct GemmShape {
    bool ta, tb;
    int m, n, k, lda, ldb, ldc;
};

// C = alpha op(A) op(B) + beta C, column-major; one thread per element of C, k in order.
// Acc is the compute type; beta == 0 never reads C (BLAS: C need not be set).
template <typename Acc>
__global__ void gemm_kernel(GemmShape s, Scalar<Acc> alpha, const void* const* As, const void* A,
                            hipblasDatatype_t at, long long sa, const void* const* Bs,
                            const void* B, hipblasDatatype_t bt, long long sb, Scalar<Acc> beta,
                            void* const* Cs, void* C, hipblasDatatype_t ct, long long sc) {
    int row = blockIdx.x * blockDim.x + threadIdx.x;
    int col = blockIdx.y;
    long long batch = blockIdx.z;
    if (row >= s.m) return;
    const void* a = As ? As[batch] : static_cast<const char*>(A);
    const void* b = Bs ? Bs[batch] : static_cast<const char*>(B);
    void* c = Cs ? Cs[batch] : C;
    long long oa = As ? 0 : batch * sa, ob = Bs ? 0 : batch * sb, oc = Cs ? 0 : batch * sc;
    Acc sum = 0;
    for (int l = 0; l < s.k; ++l) {
        long long ia = s.ta ? static_cast<long long>(row) * s.lda + l : static_cast<long long>(l) * s.lda + row;
        long long ib = s.tb ? static_cast<long long>(l) * s.ldb + col : static_cast<long long>(col) * s.ldb + l;
        sum += static_cast<Acc>(load(a, oa + ia, at)) * static_cast<Acc>(load(b, ob + ib, bt));
    }
    long long ic = oc + static_cast<long long>(col) * s.ldc + row;
    Acc bv = beta.get();
    Acc old = bv == Acc(0) ? Acc(0) : bv * static_cast<Acc>(load(c, ic, ct));
    store(c, ic, ct, static_cast<double>(alpha.get() * sum + old));
}

template <typename T>
constexpr hipblasDatatype_t type_of() {
    return sizeof(T) == 8 ? HIPBLAS_R_64F : HIPBLAS_R_32F;
}

hipblasStatus_t check_gemm(Handle* h, const GemmShape& s, int batch) {
    if (!h) return HIPBLAS_STATUS_NOT_INITIALIZED;
    int arows = s.ta ? s.k : s.m, brows = s.tb ? s.n : s.k;
    if (s.m < 0 || s.n < 0 || s.k < 0 || batch < 0 || s.lda < (arows > 1 ? arows : 1) ||
        s.ldb < (brows > 1 ? brows : 1) || s.ldc < (s.m > 1 ? s.m : 1))
        return HIPBLAS_STATUS_INVALID_VALUE;
    if (s.n > 65535 || batch > 65535) return HIPBLAS_STATUS_NOT_SUPPORTED;
    return HIPBLAS_STATUS_SUCCESS;
}

template <typename Acc>
hipblasStatus_t gemm_any(hipblasHandle_t handle, GemmShape s, const Acc* alpha,
                         const void* const* As, const void* A, hipblasDatatype_t at, long long sa,
                         const void* const* Bs, const void* B, hipblasDatatype_t bt, long long sb,
                         const Acc* beta, void* const* Cs, void* C, hipblasDatatype_t ct,
                         long long sc, int batch) {
    Handle* h = get(handle);
    hipblasStatus_t status = check_gemm(h, s, batch);
    if (status != HIPBLAS_STATUS_SUCCESS) return status;
    if (s.m == 0 || s.n == 0 || batch == 0) return HIPBLAS_STATUS_SUCCESS;
    dim3 grid(blocks(s.m), s.n, batch);
    gemm_kernel<Acc><<<grid, kThreads, 0, h->stream>>>(s, scalar(h, alpha), As, A, at, sa, Bs, B,
                                                        bt, sb, scalar(h, beta), Cs, C, ct, sc);
    return launched();
}

GemmShape shape(hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k, int lda,
                int ldb, int ldc) {
    return GemmShape{ta != HIPBLAS_OP_N, tb != HIPBLAS_OP_N, m, n, k, lda, ldb, ldc};
}

bool supported_ex(hipblasDatatype_t t) {
    return t == HIPBLAS_R_16F || t == HIPBLAS_R_32F || t == HIPBLAS_R_64F;
}

hipblasStatus_t gemm_ex(hipblasHandle_t handle, GemmShape s, const void* alpha,
                        const void* const* As, const void* A, hipblasDatatype_t at, long long sa,
                        const void* const* Bs, const void* B, hipblasDatatype_t bt, long long sb,
                        const void* beta, void* const* Cs, void* C, hipblasDatatype_t ct,
                        long long sc, int batch, hipblasDatatype_t compute) {
    if (!supported_ex(at) || !supported_ex(bt) || !supported_ex(ct))
        return HIPBLAS_STATUS_NOT_SUPPORTED;
    if (compute == HIPBLAS_R_64F)
        return gemm_any(handle, s, static_cast<const double*>(alpha), As, A, at, sa, Bs, B, bt,
                        sb, static_cast<const double*>(beta), Cs, C, ct, sc, batch);
    if (compute == HIPBLAS_R_32F)
        return gemm_any(handle, s, static_cast<const float*>(alpha), As, A, at, sa, Bs, B, bt, sb,
                        static_cast<const float*>(beta), Cs, C, ct, sc, batch);
    return HIPBLAS_STATUS_NOT_SUPPORTED;
}

hipblasStatus_t copy2d(int rows, int cols, int size, const void* a, int lda, void* b, int ldb,
                       hipMemcpyKind kind, hipStream_t stream, bool async) {
    if (rows < 0 || cols < 0 || size <= 0 || lda <= 0 || ldb <= 0)
        return HIPBLAS_STATUS_INVALID_VALUE;
    if (rows == 0 || cols == 0) return HIPBLAS_STATUS_SUCCESS;
    size_t width = static_cast<size_t>(rows) * size;
    hipError_t e =
        async ? hipMemcpy2DAsync(b, static_cast<size_t>(ldb) * size, a,
                                 static_cast<size_t>(lda) * size, width, cols, kind, stream)
              : hipMemcpy2D(b, static_cast<size_t>(ldb) * size, a, static_cast<size_t>(lda) * size,
                            width, cols, kind);
    return e == hipSuccess ? HIPBLAS_STATUS_SUCCESS : HIPBLAS_STATUS_MAPPING_ERROR;
}

}  // namespace

// ------------------------------------------------------------------ the hipBLAS API

extern "C" {

hipblasStatus_t hipblasCreate(hipblasHandle_t* handle) {
    if (!handle) return HIPBLAS_STATUS_INVALID_VALUE;
    *handle = new (std::nothrow) Handle();
    return *handle ? HIPBLAS_STATUS_SUCCESS : HIPBLAS_STATUS_ALLOC_FAILED;
}

hipblasStatus_t hipblasDestroy(hipblasHandle_t handle) {
    if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
    delete get(handle);
    return HIPBLAS_STATUS_SUCCESS;
}

hipblasStatus_t hipblasSetStream(hipblasHandle_t handle, hipStream_t stream) {
    if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
    get(handle)->stream = stream;
    return HIPBLAS_STATUS_SUCCESS;
}

hipblasStatus_t hipblasGetStream(hipblasHandle_t handle, hipStream_t* stream) {
    if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
    if (!stream) return HIPBLAS_STATUS_INVALID_VALUE;
    *stream = get(handle)->stream;
    return HIPBLAS_STATUS_SUCCESS;
}

hipblasStatus_t hipblasSetPointerMode(hipblasHandle_t handle, hipblasPointerMode_t mode) {
    if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
    get(handle)->mode = mode;
    return HIPBLAS_STATUS_SUCCESS;
}

hipblasStatus_t hipblasGetPointerMode(hipblasHandle_t handle, hipblasPointerMode_t* mode) {
    if (!handle) return HIPBLAS_STATUS_NOT_INITIALIZED;
    if (!mode) return HIPBLAS_STATUS_INVALID_VALUE;
    *mode = get(handle)->mode;
    return HIPBLAS_STATUS_SUCCESS;
}

const char* hipblasStatusToString(hipblasStatus_t status) {
    switch (status) {
        case HIPBLAS_STATUS_SUCCESS: return "HIPBLAS_STATUS_SUCCESS";
        case HIPBLAS_STATUS_NOT_INITIALIZED: return "HIPBLAS_STATUS_NOT_INITIALIZED";
        case HIPBLAS_STATUS_ALLOC_FAILED: return "HIPBLAS_STATUS_ALLOC_FAILED";
        case HIPBLAS_STATUS_INVALID_VALUE: return "HIPBLAS_STATUS_INVALID_VALUE";
        case HIPBLAS_STATUS_MAPPING_ERROR: return "HIPBLAS_STATUS_MAPPING_ERROR";
        case HIPBLAS_STATUS_EXECUTION_FAILED: return "HIPBLAS_STATUS_EXECUTION_FAILED";
        case HIPBLAS_STATUS_NOT_SUPPORTED: return "HIPBLAS_STATUS_NOT_SUPPORTED";
        default: return "HIPBLAS_STATUS_UNKNOWN";
    }
}

hipblasStatus_t hipblasSetVector(int n, int size, const void* x, int incx, void* y, int incy) {
    return copy2d(1, n, size, x, incx, y, incy, hipMemcpyHostToDevice, nullptr, false);
}
hipblasStatus_t hipblasGetVector(int n, int size, const void* x, int incx, void* y, int incy) {
    return copy2d(1, n, size, x, incx, y, incy, hipMemcpyDeviceToHost, nullptr, false);
}
hipblasStatus_t hipblasSetVectorAsync(int n, int size, const void* x, int incx, void* y, int incy,
                                      hipStream_t stream) {
    return copy2d(1, n, size, x, incx, y, incy, hipMemcpyHostToDevice, stream, true);
}
hipblasStatus_t hipblasGetVectorAsync(int n, int size, const void* x, int incx, void* y, int incy,
                                      hipStream_t stream) {
    return copy2d(1, n, size, x, incx, y, incy, hipMemcpyDeviceToHost, stream, true);
}
hipblasStatus_t hipblasSetMatrix(int rows, int cols, int size, const void* a, int lda, void* b,
                                 int ldb) {
    return copy2d(rows, cols, size, a, lda, b, ldb, hipMemcpyHostToDevice, nullptr, false);
}
hipblasStatus_t hipblasGetMatrix(int rows, int cols, int size, const void* a, int lda, void* b,
                                 int ldb) {
    return copy2d(rows, cols, size, a, lda, b, ldb, hipMemcpyDeviceToHost, nullptr, false);
}
hipblasStatus_t hipblasSetMatrixAsync(int rows, int cols, int size, const void* a, int lda,
                                      void* b, int ldb, hipStream_t stream) {
    return copy2d(rows, cols, size, a, lda, b, ldb, hipMemcpyHostToDevice, stream, true);
}
hipblasStatus_t hipblasGetMatrixAsync(int rows, int cols, int size, const void* a, int lda,
                                      void* b, int ldb, hipStream_t stream) {
    return copy2d(rows, cols, size, a, lda, b, ldb, hipMemcpyDeviceToHost, stream, true);
}

#define CASS_LEVEL1(P, p, T)                                                                         \
    hipblasStatus_t hipblas##P##axpy(hipblasHandle_t h, int n, const T* alpha, const T* x,        \
                                     int incx, T* y, int incy) {                                   \
        return axpy(h, n, alpha, x, incx, y, incy);                                               \
    }                                                                                             \
    hipblasStatus_t hipblas##P##scal(hipblasHandle_t h, int n, const T* alpha, T* x, int incx) {  \
        return scal(h, n, alpha, x, incx);                                                        \
    }                                                                                             \
    hipblasStatus_t hipblas##P##copy(hipblasHandle_t h, int n, const T* x, int incx, T* y,        \
                                     int incy) {                                                   \
        return copy(h, n, x, incx, y, incy);                                                      \
    }                                                                                             \
    hipblasStatus_t hipblas##P##dot(hipblasHandle_t h, int n, const T* x, int incx, const T* y,   \
                                    int incy, T* result) {                                         \
        return reduce<T, T, Reduce::dot>(h, n, x, incx, y, incy, result);                         \
    }                                                                                             \
    hipblasStatus_t hipblas##P##nrm2(hipblasHandle_t h, int n, const T* x, int incx, T* result) { \
        return reduce<T, double, Reduce::sumsq>(h, n, x, incx, nullptr, 1, result);               \
    }                                                                                             \
    hipblasStatus_t hipblas##P##asum(hipblasHandle_t h, int n, const T* x, int incx, T* result) { \
        return reduce<T, T, Reduce::asum>(h, n, x, incx, nullptr, 1, result);                     \
    }                                                                                             \
    hipblasStatus_t hipblasI##p##amax(hipblasHandle_t h, int n, const T* x, int incx,             \
                                      int* result) {                                               \
        return iamax(h, n, x, incx, result);                                                      \
    }

#define CASS_LEVEL23(P, T)                                                                        \
    hipblasStatus_t hipblas##P##gemv(hipblasHandle_t h, hipblasOperation_t op, int m, int n,      \
                                     const T* alpha, const T* A, int lda, const T* x, int incx,   \
                                     const T* beta, T* y, int incy) {                              \
        return gemv(h, op, m, n, alpha, A, lda, x, incx, beta, y, incy);                          \
    }                                                                                             \
    hipblasStatus_t hipblas##P##gemm(hipblasHandle_t h, hipblasOperation_t ta,                    \
                                     hipblasOperation_t tb, int m, int n, int k, const T* alpha,  \
                                     const T* A, int lda, const T* B, int ldb, const T* beta,     \
                                     T* C, int ldc) {                                              \
        return gemm_any<T>(h, shape(ta, tb, m, n, k, lda, ldb, ldc), alpha, nullptr, A,           \
                           type_of<T>(), 0, nullptr, B, type_of<T>(), 0, beta, nullptr, C,        \
                           type_of<T>(), 0, 1);                                                    \
    }                                                                                             \
    hipblasStatus_t hipblas##P##gemmStridedBatched(                                               \
        hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k,     \
        const T* alpha, const T* A, int lda, long long sa, const T* B, int ldb, long long sb,    \
        const T* beta, T* C, int ldc, long long sc, int batch) {                                  \
        return gemm_any<T>(h, shape(ta, tb, m, n, k, lda, ldb, ldc), alpha, nullptr, A,           \
                           type_of<T>(), sa, nullptr, B, type_of<T>(), sb, beta, nullptr, C,      \
                           type_of<T>(), sc, batch);                                               \
    }                                                                                             \
    hipblasStatus_t hipblas##P##gemmBatched(                                                      \
        hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb, int m, int n, int k,     \
        const T* alpha, const T* const A[], int lda, const T* const B[], int ldb, const T* beta, \
        T* const C[], int ldc, int batch) {                                                        \
        return gemm_any<T>(h, shape(ta, tb, m, n, k, lda, ldb, ldc), alpha,                       \
                           reinterpret_cast<const void* const*>(A), nullptr, type_of<T>(), 0,     \
                           reinterpret_cast<const void* const*>(B), nullptr, type_of<T>(), 0,     \
                           beta, reinterpret_cast<void* const*>(C), nullptr, type_of<T>(), 0,     \
                           batch);                                                                 \
    }

CASS_LEVEL1(S, s, float)
CASS_LEVEL1(D, d, double)
CASS_LEVEL23(S, float)
CASS_LEVEL23(D, double)

hipblasStatus_t hipblasGemmEx(hipblasHandle_t h, hipblasOperation_t ta, hipblasOperation_t tb,
                              int m, int n, int k, const void* alpha, const void* A,
                              hipblasDatatype_t at, int lda, const void* B, hipblasDatatype_t bt,
                              int ldb, const void* beta, void* C, hipblasDatatype_t ct, int ldc,
                              hipblasDatatype_t compute, hipblasGemmAlgo_t) {
    return gemm_ex(h, shape(ta, tb, m, n, k, lda, ldb, ldc), alpha, nullptr, A, at, 0, nullptr, B,
                   bt, 0, beta, nullptr, C, ct, 0, 1, compute);
}

hipblasStatus_t hipblasGemmStridedBatchedEx(hipblasHandle_t h, hipblasOperation_t ta,
                                            hipblasOperation_t tb, int m, int n, int k,
                                            const void* alpha, const void* A,
                                            hipblasDatatype_t at, int lda, hipblasStride sa,
                                            const void* B, hipblasDatatype_t bt, int ldb,
                                            hipblasStride sb, const void* beta, void* C,
                                            hipblasDatatype_t ct, int ldc, hipblasStride sc,
                                            int batch, hipblasDatatype_t compute,
                                            hipblasGemmAlgo_t) {
    return gemm_ex(h, shape(ta, tb, m, n, k, lda, ldb, ldc), alpha, nullptr, A, at, sa, nullptr, B,
                   bt, sb, beta, nullptr, C, ct, sc, batch, compute);
}

hipblasStatus_t hipblasGemmBatchedEx(hipblasHandle_t h, hipblasOperation_t ta,
                                     hipblasOperation_t tb, int m, int n, int k, const void* alpha,
                                     const void* A[], hipblasDatatype_t at, int lda,
                                     const void* B[], hipblasDatatype_t bt, int ldb,
                                     const void* beta, void* C[], hipblasDatatype_t ct, int ldc,
                                     int batch, hipblasDatatype_t compute, hipblasGemmAlgo_t) {
    return gemm_ex(h, shape(ta, tb, m, n, k, lda, ldb, ldc), alpha, A, nullptr, at, 0, B, nullptr,
                   bt, 0, beta, C, nullptr, ct, 0, batch, compute);
}

}  // extern "C"
