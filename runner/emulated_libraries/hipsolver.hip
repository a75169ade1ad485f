// cass's reference implementations for emulated verification: hipSOLVER's dense solvers.
//
// The part of hipSOLVER 1.4's compatibility API (hipsolverDn*, the names cuSOLVER ports use;
// AMD's own header declares every function here) that common cuSOLVER programs call, as plain HIP
// kernels compiled for gfx1100 with the program. Each factorisation runs in one workgroup in
// LAPACK's unblocked order, so results are LAPACK's (up to rounding), not rocSOLVER's speed:
//
// - getrf: LU with partial pivoting (the first largest |value| of the column, as LAPACK's
//   idamax); no pivoting when devIpiv is null, as cuSOLVER. devInfo = i when U(i, i) is exactly
//   zero (the first such, 1-based); the factorisation still completes. getrs: op(A) X = B, N or T.
// - potrf (lower or upper): devInfo = i when the leading minor of order i is not positive
//   definite (the factorisation stops there). potrs solves with the factor.
// - geqrf: Householder QR (LAPACK's dlarfg convention: R's diagonal may be negative, tau in [1, 2]
//   or 0); ormqr applies Q or Q^T from either side; orgqr forms Q's first n columns.
// - syevd: eigenvalues in ascending order (and eigenvectors, whose signs are arbitrary) by cyclic
//   Jacobi rotations; devInfo = the off-diagonal entries left unconverged after 60 sweeps.
// S and D types; the bufferSize queries give the work (in elements) each needs. Invalid sizes are
// HIPSOLVER_STATUS_INVALID_VALUE before anything runs. On an AMD GPU the real hipSOLVER is linked.

#include <hip/hip_runtime.h>
#include <hipsolver/hipsolver.h>

#include <cmath>
#include <new>

// Every function defined below must be one hipsolver.h declares (a misspelt name is an error).
#pragma clang diagnostic error "-Wmissing-prototypes"

namespace {

struct Handle {
    hipStream_t stream = nullptr;
};

constexpr int kThreads = 256;
constexpr int kJacobiSweeps = 60;

// One workgroup's threads for a factorisation whose largest dimension is n: a power of two from
// one wave (32) to kThreads, so small matrices keep every barrier cheap.
int team(int n) {
    int threads = 32;
    while (threads < n && threads < kThreads) threads *= 2;
    return threads;
}

hipStream_t stream_of(hipsolverHandle_t handle) { return static_cast<Handle*>(handle)->stream; }

hipsolverStatus_t launched() {
    return hipGetLastError() == hipSuccess ? HIPSOLVER_STATUS_SUCCESS
                                           : HIPSOLVER_STATUS_EXECUTION_FAILED;
}

template <typename T>
__device__ T magnitude(T x) {
    return x < T(0) ? -x : x;
}

template <typename T>
__device__ T epsilon();
template <>
__device__ float epsilon<float>() {
    return __FLT_EPSILON__;
}
template <>
__device__ double epsilon<double>() {
    return __DBL_EPSILON__;
}

// A column-major matrix, optionally read transposed: at(i, j) is op(A)(i, j).
template <typename T>
struct View {
    T* a;
    int ld;
    bool trans;
    __device__ T& at(int i, int j) const {
        return trans ? a[j + static_cast<long long>(i) * ld] : a[i + static_cast<long long>(j) * ld];
    }
};

// ------------------------------------------------------------------ triangular solves

// Solves M X = B in place for the n x n triangle M (lower or upper, unit diagonal or not); the
// workgroup's threads take the rows below (or above) each step, every column of B in turn.
template <typename T>
__device__ void solve_triangle(View<T> m, bool lower, bool unit, int n, int nrhs, View<T> b) {
    const int t = threadIdx.x;
    for (int step = 0; step < n; ++step) {
        const int k = lower ? step : n - 1 - step;
        if (!unit)
            for (int c = t; c < nrhs; c += blockDim.x) b.at(k, c) /= m.at(k, k);
        __syncthreads();
        const int first = lower ? k + 1 : 0, end = lower ? n : k;
        for (int i = first + t; i < end; i += blockDim.x) {
            const T mik = m.at(i, k);
            for (int c = 0; c < nrhs; ++c) b.at(i, c) -= mik * b.at(k, c);
        }
        __syncthreads();
    }
}

// Row interchanges of getrf applied to B, in order (forward) or in reverse; one thread per column.
template <typename T>
__device__ void swap_rows(View<T> b, const int* ipiv, int n, int nrhs, bool forward) {
    for (int c = threadIdx.x; c < nrhs; c += blockDim.x)
        for (int s = 0; s < n; ++s) {
            const int i = forward ? s : n - 1 - s, p = ipiv[i] - 1;
            if (p != i) {
                const T tmp = b.at(i, c);
                b.at(i, c) = b.at(p, c);
                b.at(p, c) = tmp;
            }
        }
    __syncthreads();
}

// ------------------------------------------------------------------ LU

// The row of column k's first largest |value| from row k down (LAPACK's idamax), found by the
// whole workgroup (blockDim.x a power of two): each thread its rows, then a tree.
template <typename T>
__device__ int pivot_row(View<T> a, int k, int m) {
    __shared__ T best[kThreads];
    __shared__ int row[kThreads];
    const int t = threadIdx.x;
    T b = T(-1);
    int r = k;
    for (int i = k + t; i < m; i += blockDim.x)
        if (magnitude(a.at(i, k)) > b) b = magnitude(a.at(i, k)), r = i;
    best[t] = b, row[t] = r;
    __syncthreads();
    for (int half = blockDim.x / 2; half > 0; half /= 2) {
        if (t < half && (best[t + half] > best[t] || (best[t + half] == best[t] && row[t + half] < row[t])))
            best[t] = best[t + half], row[t] = row[t + half];
        __syncthreads();
    }
    const int p = row[0];
    __syncthreads();
    return p;
}

template <typename T>
__global__ void getrf_kernel(int m, int n, T* A, int lda, int* ipiv, int* info) {
    __shared__ int first_zero;
    const View<T> a{A, lda, false};
    const int t = threadIdx.x;
    if (t == 0) first_zero = 0;
    for (int k = 0; k < (m < n ? m : n); ++k) {
        const int p = ipiv ? pivot_row(a, k, m) : k;
        if (t == 0) {
            if (ipiv) ipiv[k] = p + 1;
            if (a.at(p, k) == T(0) && first_zero == 0) first_zero = k + 1;
        }
        for (int j = t; j < n && p != k; j += blockDim.x) {
            const T tmp = a.at(k, j);
            a.at(k, j) = a.at(p, j);
            a.at(p, j) = tmp;
        }
        __syncthreads();
        const T d = a.at(k, k);
        for (int i = k + 1 + t; i < m && d != T(0); i += blockDim.x) {  // scale, then update row i
            const T lik = a.at(i, k) / d;
            a.at(i, k) = lik;
            for (int j = k + 1; j < n; ++j) a.at(i, j) -= lik * a.at(k, j);
        }
        __syncthreads();
    }
    if (t == 0) *info = first_zero;
}

template <typename T>
__global__ void getrs_kernel(bool trans, int n, int nrhs, T* A, int lda, const int* ipiv, T* B,
                             int ldb, int* info) {
    const View<T> b{B, ldb, false};
    if (!trans) {  // A = P L U: X = U^-1 L^-1 P^T B
        if (ipiv) swap_rows(b, ipiv, n, nrhs, true);
        solve_triangle(View<T>{A, lda, false}, true, true, n, nrhs, b);
        solve_triangle(View<T>{A, lda, false}, false, false, n, nrhs, b);
    } else {  // A^T = U^T L^T P^T: X = P L^-T U^-T B
        solve_triangle(View<T>{A, lda, true}, true, false, n, nrhs, b);
        solve_triangle(View<T>{A, lda, true}, false, true, n, nrhs, b);
        if (ipiv) swap_rows(b, ipiv, n, nrhs, false);
    }
    if (threadIdx.x == 0) *info = 0;
}

// ------------------------------------------------------------------ Cholesky

// The factor as a lower triangle L: lower storage as is, upper storage (A = U^T U) as U^T.
template <typename T>
__global__ void potrf_kernel(bool upper, int n, T* A, int lda, int* info) {
    __shared__ int failed;
    const View<T> l{A, lda, upper};
    const int t = threadIdx.x;
    if (t == 0) failed = 0;
    for (int j = 0; j < n; ++j) {
        if (t == 0) {
            const T d = l.at(j, j);
            if (d > T(0)) l.at(j, j) = sqrt(d);
            else failed = j + 1;  // not positive (or NaN): the minor of order j + 1
        }
        __syncthreads();
        if (failed) break;
        for (int i = j + 1 + t; i < n; i += blockDim.x) l.at(i, j) /= l.at(j, j);
        __syncthreads();
        for (int i = j + 1 + t; i < n; i += blockDim.x) {
            const T lij = l.at(i, j);
            for (int c = j + 1; c <= i; ++c) l.at(i, c) -= lij * l.at(c, j);
        }
        __syncthreads();
    }
    if (t == 0) *info = failed;
}

template <typename T>
__global__ void potrs_kernel(bool upper, int n, int nrhs, T* A, int lda, T* B, int ldb, int* info) {
    const View<T> b{B, ldb, false};
    solve_triangle(View<T>{A, lda, upper}, true, false, n, nrhs, b);  // L y = b
    solve_triangle(View<T>{A, lda, !upper}, false, false, n, nrhs, b);  // L^T x = y
    if (threadIdx.x == 0) *info = 0;
}

// ------------------------------------------------------------------ QR

// H = I - tau v v^T (v(i) = 1, v below row i in column i of A) applied to column c of C (left).
template <typename T>
__device__ void reflect_column(View<T> v, int i, int m, T tau, View<T> c, int col) {
    T w = c.at(i, col);
    for (int r = i + 1; r < m; ++r) w += v.at(r, i) * c.at(r, col);
    w *= tau;
    c.at(i, col) -= w;
    for (int r = i + 1; r < m; ++r) c.at(r, col) -= v.at(r, i) * w;
}

template <typename T>
__global__ void geqrf_kernel(int m, int n, T* A, int lda, T* tau, int* info) {
    __shared__ T tau_i, scale, beta;
    const View<T> a{A, lda, false};
    const int t = threadIdx.x;
    for (int i = 0; i < (m < n ? m : n); ++i) {
        if (t == 0) {  // LAPACK's dlarfg
            const T alpha = a.at(i, i);
            T xnorm2 = 0;
            for (int r = i + 1; r < m; ++r) xnorm2 += a.at(r, i) * a.at(r, i);
            beta = -copysign(sqrt(alpha * alpha + xnorm2), alpha);
            tau_i = xnorm2 == T(0) ? T(0) : (beta - alpha) / beta;
            scale = xnorm2 == T(0) ? T(1) : T(1) / (alpha - beta);
            tau[i] = tau_i;
        }
        __syncthreads();
        for (int r = i + 1 + t; r < m; r += blockDim.x) a.at(r, i) *= scale;
        __syncthreads();
        for (int j = i + 1 + t; j < n && tau_i != T(0); j += blockDim.x)
            reflect_column(a, i, m, tau_i, a, j);
        __syncthreads();
        if (t == 0 && tau_i != T(0)) a.at(i, i) = beta;
        __syncthreads();
    }
    if (t == 0) *info = 0;
}

// C = op(Q) C (left) or C op(Q) (right), Q = H(1) ... H(k); one thread per column (left) or row.
template <typename T>
__global__ void ormqr_kernel(bool left, bool trans, int m, int n, int k, T* A, int lda,
                             const T* tau, T* C, int ldc, int* info) {
    const int line = blockIdx.x * blockDim.x + threadIdx.x;
    if (line == 0) *info = 0;
    if (line >= (left ? n : m)) return;
    const bool forward = left == trans;  // Q^T C and C Q apply H(1) first
    const View<T> v{A, lda, false}, c{C, ldc, !left};  // right: row `line` of C as a column
    for (int s = 0; s < k; ++s) {
        const int i = forward ? s : k - 1 - s;
        if (tau[i] != T(0)) reflect_column(v, i, left ? m : n, tau[i], c, line);
    }
}

template <typename T>
__global__ void orgqr_kernel(int m, int n, int k, T* A, int lda, const T* tau, int* info) {
    const View<T> a{A, lda, false};
    const int t = threadIdx.x;
    for (long long e = t; e < static_cast<long long>(m) * (n - k); e += blockDim.x) {
        const int r = static_cast<int>(e % m), j = k + static_cast<int>(e / m);
        a.at(r, j) = r == j ? T(1) : T(0);
    }
    __syncthreads();
    for (int i = k - 1; i >= 0; --i) {  // LAPACK's dorg2r
        for (int j = i + 1 + t; j < n; j += blockDim.x) reflect_column(a, i, m, tau[i], a, j);
        __syncthreads();
        for (int r = t; r < m; r += blockDim.x)
            a.at(r, i) = r > i ? -tau[i] * a.at(r, i) : (r == i ? T(1) - tau[i] : T(0));
        __syncthreads();
    }
    if (t == 0) *info = 0;
}

// ------------------------------------------------------------------ symmetric eigenvalues

// Player `pos` of round `round` in a round-robin tournament of m (even) players: player 0 stays,
// the others rotate, so every pair meets once in m - 1 rounds and each round's pairs are disjoint.
__device__ int player(int pos, int round, int m) {
    return pos == 0 ? 0 : 1 + (pos - 1 + round) % (m - 1);
}

// The rotation (c, s) zeroing S(p, q) in S = J^T S J (Golub and Van Loan's Algorithm 8.5.2), or
// s = 0 when S(p, q) counts as zero: below eps relative to its diagonal or eps^2 to the matrix.
template <typename T>
__device__ void rotation(View<T> s, int p, int q, T norm, T* c, T* sn) {
    const T apq = s.at(p, q), app = s.at(p, p), aqq = s.at(q, q), eps = epsilon<T>();
    *c = T(1), *sn = T(0);
    if (magnitude(apq) <= eps * sqrt(magnitude(app * aqq)) || magnitude(apq) <= eps * eps * norm)
        return;
    const T tau = (aqq - app) / (T(2) * apq);
    const T t = copysign(T(1), tau) / (magnitude(tau) + sqrt(T(1) + tau * tau));
    *c = T(1) / sqrt(T(1) + t * t);
    *sn = t * *c;
}

constexpr int kMaxPairs = kThreads;  // n / 2 pairs rotate at once; n <= 2 kThreads

// Parallel cyclic Jacobi (round-robin ordering): each round rotates n / 2 disjoint pairs at once,
// S J over all of them, then J^T (S J), V J alongside. Sweeps until one rotates nothing (or
// kJacobiSweeps); returns the rotations of the last sweep (0 when converged).
template <typename T>
__device__ int jacobi(View<T> s, View<T> v, int n) {
    __shared__ T c[kMaxPairs], sn[kMaxPairs], norm;
    __shared__ int first[kMaxPairs], second[kMaxPairs], rotated;
    const int t = threadIdx.x, m = n + (n & 1), pairs = m / 2;
    if (t == 0) {
        norm = 0;
        for (int i = 0; i < n; ++i)
            for (int j = 0; j < n; ++j) norm += s.at(i, j) * s.at(i, j);
        norm = sqrt(norm);
    }
    int last = 1;
    for (int sweep = 0; last && sweep < kJacobiSweeps; ++sweep) {
        __syncthreads();
        if (t == 0) rotated = 0;
        for (int round = 0; round < m - 1; ++round) {
            __syncthreads();
            for (int i = t; i < pairs; i += blockDim.x) {
                const int a = player(i, round, m), b = player(m - 1 - i, round, m);
                first[i] = a < b ? a : b, second[i] = a < b ? b : a;
                sn[i] = T(0);
                if (second[i] < n) rotation(s, first[i], second[i], norm, &c[i], &sn[i]);
                if (sn[i] != T(0)) atomicAdd(&rotated, 1);
            }
            __syncthreads();
            for (int e = t; e < pairs * n; e += blockDim.x) {  // columns: S J and V J
                const int i = e / n, k = e % n, p = first[i], q = second[i];
                if (sn[i] == T(0)) continue;
                const T sp = s.at(k, p), sq = s.at(k, q), vp = v.at(k, p), vq = v.at(k, q);
                s.at(k, p) = c[i] * sp - sn[i] * sq, s.at(k, q) = sn[i] * sp + c[i] * sq;
                v.at(k, p) = c[i] * vp - sn[i] * vq, v.at(k, q) = sn[i] * vp + c[i] * vq;
            }
            __syncthreads();
            for (int e = t; e < pairs * n; e += blockDim.x) {  // rows: J^T (S J)
                const int i = e / n, k = e % n, p = first[i], q = second[i];
                if (sn[i] == T(0)) continue;
                const T sp = s.at(p, k), sq = s.at(q, k);
                s.at(p, k) = c[i] * sp - sn[i] * sq, s.at(q, k) = sn[i] * sp + c[i] * sq;
            }
        }
        __syncthreads();
        last = rotated;
    }
    return last;
}

// Work: S then V, n x n each. Eigenvalues sorted ascending into D, vectors into A when wanted.
template <typename T>
__global__ void syevd_kernel(bool vectors, bool upper, int n, T* A, int lda, T* D, T* work,
                             int* info) {
    const View<T> a{A, lda, false}, s{work, n, false}, v{work + static_cast<long long>(n) * n, n, false};
    const int t = threadIdx.x;
    for (long long e = t; e < static_cast<long long>(n) * n; e += blockDim.x) {
        const int i = static_cast<int>(e % n), j = static_cast<int>(e / n);
        s.at(i, j) = (i >= j) != upper || i == j ? a.at(i, j) : a.at(j, i);
        v.at(i, j) = i == j ? T(1) : T(0);
    }
    __syncthreads();
    const int unconverged = jacobi(s, v, n);
    if (t == 0) {  // a selection sort of the eigenvalues, carrying their vectors
        *info = unconverged;
        for (int i = 0; i < n; ++i) D[i] = s.at(i, i);
        for (int i = 0; i < n; ++i) {
            int low = i;
            for (int j = i + 1; j < n; ++j) low = D[j] < D[low] ? j : low;
            const T d = D[i];
            D[i] = D[low], D[low] = d;
            for (int r = 0; r < n && low != i; ++r) {
                const T x = v.at(r, i);
                v.at(r, i) = v.at(r, low), v.at(r, low) = x;
            }
        }
    }
    __syncthreads();
    for (long long e = t; vectors && e < static_cast<long long>(n) * n; e += blockDim.x) {
        const int i = static_cast<int>(e % n), j = static_cast<int>(e / n);
        a.at(i, j) = v.at(i, j);
    }
}

// ------------------------------------------------------------------ argument checks

hipsolverStatus_t check(hipsolverHandle_t handle, bool valid) {
    if (!handle) return HIPSOLVER_STATUS_NOT_INITIALIZED;
    return valid ? HIPSOLVER_STATUS_SUCCESS : HIPSOLVER_STATUS_INVALID_VALUE;
}

hipsolverStatus_t work_size(hipsolverHandle_t handle, bool valid, int* lwork, long long elements) {
    const hipsolverStatus_t status = check(handle, valid && lwork);
    if (status == HIPSOLVER_STATUS_SUCCESS) *lwork = static_cast<int>(elements < 1 ? 1 : elements);
    return status;
}

bool fill(hipsolverFillMode_t uplo) {
    return uplo == HIPSOLVER_FILL_MODE_LOWER || uplo == HIPSOLVER_FILL_MODE_UPPER;
}
bool op(hipsolverOperation_t trans) { return trans == HIPSOLVER_OP_N || trans == HIPSOLVER_OP_T; }
int at_least_1(int n) { return n > 1 ? n : 1; }

template <typename T>
hipsolverStatus_t getrf(hipsolverHandle_t h, int m, int n, T* A, int lda, int* ipiv, int* info) {
    const hipsolverStatus_t s = check(h, m >= 0 && n >= 0 && lda >= at_least_1(m) && info);
    if (s != HIPSOLVER_STATUS_SUCCESS) return s;
    getrf_kernel<T><<<1, team(m > n ? m : n), 0, stream_of(h)>>>(m, n, A, lda, ipiv, info);
    return launched();
}

template <typename T>
hipsolverStatus_t getrs(hipsolverHandle_t h, hipsolverOperation_t trans, int n, int nrhs, T* A,
                        int lda, int* ipiv, T* B, int ldb, int* info) {
    const bool valid = op(trans) && n >= 0 && nrhs >= 0 && lda >= at_least_1(n) &&
                       ldb >= at_least_1(n) && info;
    const hipsolverStatus_t s = check(h, valid);
    if (s != HIPSOLVER_STATUS_SUCCESS) return s;
    getrs_kernel<T><<<1, team(n), 0, stream_of(h)>>>(trans != HIPSOLVER_OP_N, n, nrhs, A, lda,
                                                      ipiv, B, ldb, info);
    return launched();
}

template <typename T>
hipsolverStatus_t potrf(hipsolverHandle_t h, hipsolverFillMode_t uplo, int n, T* A, int lda,
                        int* info) {
    const hipsolverStatus_t s = check(h, fill(uplo) && n >= 0 && lda >= at_least_1(n) && info);
    if (s != HIPSOLVER_STATUS_SUCCESS) return s;
    potrf_kernel<T><<<1, team(n), 0, stream_of(h)>>>(uplo == HIPSOLVER_FILL_MODE_UPPER, n, A,
                                                      lda, info);
    return launched();
}

template <typename T>
hipsolverStatus_t potrs(hipsolverHandle_t h, hipsolverFillMode_t uplo, int n, int nrhs, T* A,
                        int lda, T* B, int ldb, int* info) {
    const bool valid = fill(uplo) && n >= 0 && nrhs >= 0 && lda >= at_least_1(n) &&
                       ldb >= at_least_1(n) && info;
    const hipsolverStatus_t s = check(h, valid);
    if (s != HIPSOLVER_STATUS_SUCCESS) return s;
    potrs_kernel<T><<<1, team(n), 0, stream_of(h)>>>(uplo == HIPSOLVER_FILL_MODE_UPPER, n, nrhs,
                                                      A, lda, B, ldb, info);
    return launched();
}

template <typename T>
hipsolverStatus_t geqrf(hipsolverHandle_t h, int m, int n, T* A, int lda, T* tau, int* info) {
    const hipsolverStatus_t s = check(h, m >= 0 && n >= 0 && lda >= at_least_1(m) && tau && info);
    if (s != HIPSOLVER_STATUS_SUCCESS) return s;
    geqrf_kernel<T><<<1, team(m > n ? m : n), 0, stream_of(h)>>>(m, n, A, lda, tau, info);
    return launched();
}

bool ormqr_valid(hipsolverSideMode_t side, hipsolverOperation_t trans, int m, int n, int k,
                 int lda, int ldc) {
    const bool left = side == HIPSOLVER_SIDE_LEFT;
    const int nq = left ? m : n;
    return (left || side == HIPSOLVER_SIDE_RIGHT) && op(trans) && m >= 0 && n >= 0 && k >= 0 &&
           k <= nq && lda >= at_least_1(nq) && ldc >= at_least_1(m);
}

template <typename T>
hipsolverStatus_t ormqr(hipsolverHandle_t h, hipsolverSideMode_t side, hipsolverOperation_t trans,
                        int m, int n, int k, T* A, int lda, T* tau, T* C, int ldc, int* info) {
    const hipsolverStatus_t s = check(h, ormqr_valid(side, trans, m, n, k, lda, ldc) && info);
    if (s != HIPSOLVER_STATUS_SUCCESS) return s;
    const bool left = side == HIPSOLVER_SIDE_LEFT;
    const int lines = left ? n : m, blocks = lines > 0 ? (lines + kThreads - 1) / kThreads : 1;
    ormqr_kernel<T><<<blocks, kThreads, 0, stream_of(h)>>>(left, trans != HIPSOLVER_OP_N, m, n, k,
                                                           A, lda, tau, C, ldc, info);
    return launched();
}

template <typename T>
hipsolverStatus_t orgqr(hipsolverHandle_t h, int m, int n, int k, T* A, int lda, T* tau, int* info) {
    const bool valid = m >= 0 && n >= 0 && n <= m && k >= 0 && k <= n && lda >= at_least_1(m);
    const hipsolverStatus_t s = check(h, valid && info);
    if (s != HIPSOLVER_STATUS_SUCCESS) return s;
    orgqr_kernel<T><<<1, team(m), 0, stream_of(h)>>>(m, n, k, A, lda, tau, info);
    return launched();
}

template <typename T>
hipsolverStatus_t syevd(hipsolverHandle_t h, hipsolverEigMode_t jobz, hipsolverFillMode_t uplo,
                        int n, T* A, int lda, T* D, T* work, int lwork, int* info) {
    const bool mode = jobz == HIPSOLVER_EIG_MODE_VECTOR || jobz == HIPSOLVER_EIG_MODE_NOVECTOR;
    const bool valid = mode && fill(uplo) && n >= 0 && n <= 2 * kMaxPairs && lda >= at_least_1(n) && D && work &&
                       static_cast<long long>(lwork) >= 2LL * n * n && info;
    const hipsolverStatus_t s = check(h, valid);
    if (s != HIPSOLVER_STATUS_SUCCESS) return s;
    syevd_kernel<T><<<1, team(n), 0, stream_of(h)>>>(jobz == HIPSOLVER_EIG_MODE_VECTOR,
                                                      uplo == HIPSOLVER_FILL_MODE_UPPER, n, A,
                                                      lda, D, work, info);
    return launched();
}

}  // namespace

extern "C" {

hipsolverStatus_t hipsolverCreate(hipsolverHandle_t* handle) {
    if (!handle) return HIPSOLVER_STATUS_INVALID_VALUE;
    *handle = new (std::nothrow) Handle();
    return *handle ? HIPSOLVER_STATUS_SUCCESS : HIPSOLVER_STATUS_ALLOC_FAILED;
}
hipsolverStatus_t hipsolverDestroy(hipsolverHandle_t handle) {
    if (!handle) return HIPSOLVER_STATUS_NOT_INITIALIZED;
    delete static_cast<Handle*>(handle);
    return HIPSOLVER_STATUS_SUCCESS;
}
hipsolverStatus_t hipsolverSetStream(hipsolverHandle_t handle, hipStream_t stream) {
    if (!handle) return HIPSOLVER_STATUS_NOT_INITIALIZED;
    static_cast<Handle*>(handle)->stream = stream;
    return HIPSOLVER_STATUS_SUCCESS;
}
hipsolverStatus_t hipsolverGetStream(hipsolverHandle_t handle, hipStream_t* stream) {
    if (!handle) return HIPSOLVER_STATUS_NOT_INITIALIZED;
    if (!stream) return HIPSOLVER_STATUS_INVALID_VALUE;
    *stream = static_cast<Handle*>(handle)->stream;
    return HIPSOLVER_STATUS_SUCCESS;
}
hipsolverStatus_t hipsolverDnCreate(hipsolverHandle_t* handle) { return hipsolverCreate(handle); }
hipsolverStatus_t hipsolverDnDestroy(hipsolverHandle_t handle) { return hipsolverDestroy(handle); }
hipsolverStatus_t hipsolverDnSetStream(hipsolverHandle_t handle, hipStream_t stream) {
    return hipsolverSetStream(handle, stream);
}
hipsolverStatus_t hipsolverDnGetStream(hipsolverHandle_t handle, hipStream_t* stream) {
    return hipsolverGetStream(handle, stream);
}

// The same entry points for float (S) and double (D).
#define CASS_DENSE_SOLVERS(P, T)                                                                  \
    hipsolverStatus_t hipsolverDn##P##getrf_bufferSize(hipsolverHandle_t h, int m, int n, T*,     \
                                                       int lda, int* lwork) {                     \
        return work_size(h, m >= 0 && n >= 0 && lda >= at_least_1(m), lwork, 1);                  \
    }                                                                                             \
    hipsolverStatus_t hipsolverDn##P##getrf(hipsolverHandle_t h, int m, int n, T* A, int lda, T*, \
                                            int* ipiv, int* info) {                               \
        return getrf(h, m, n, A, lda, ipiv, info);                                                \
    }                                                                                             \
    hipsolverStatus_t hipsolverDn##P##getrs(hipsolverHandle_t h, hipsolverOperation_t trans,      \
                                            int n, int nrhs, T* A, int lda, int* ipiv, T* B,      \
                                            int ldb, int* info) {                                 \
        return getrs(h, trans, n, nrhs, A, lda, ipiv, B, ldb, info);                              \
    }                                                                                             \
    hipsolverStatus_t hipsolverDn##P##potrf_bufferSize(hipsolverHandle_t h,                       \
                                                       hipsolverFillMode_t uplo, int n, T*,       \
                                                       int lda, int* lwork) {                     \
        return work_size(h, fill(uplo) && n >= 0 && lda >= at_least_1(n), lwork, 1);             \
    }                                                                                             \
    hipsolverStatus_t hipsolverDn##P##potrf(hipsolverHandle_t h, hipsolverFillMode_t uplo, int n, \
                                            T* A, int lda, T*, int, int* info) {                  \
        return potrf(h, uplo, n, A, lda, info);                                                   \
    }                                                                                             \
    hipsolverStatus_t hipsolverDn##P##potrs(hipsolverHandle_t h, hipsolverFillMode_t uplo, int n, \
                                            int nrhs, T* A, int lda, T* B, int ldb, int* info) {  \
        return potrs(h, uplo, n, nrhs, A, lda, B, ldb, info);                                     \
    }                                                                                             \
    hipsolverStatus_t hipsolverDn##P##geqrf_bufferSize(hipsolverHandle_t h, int m, int n, T*,     \
                                                       int lda, int* lwork) {                     \
        return work_size(h, m >= 0 && n >= 0 && lda >= at_least_1(m), lwork, 1);                  \
    }                                                                                             \
    hipsolverStatus_t hipsolverDn##P##geqrf(hipsolverHandle_t h, int m, int n, T* A, int lda,     \
                                            T* tau, T*, int, int* info) {                         \
        return geqrf(h, m, n, A, lda, tau, info);                                                 \
    }                                                                                             \
    hipsolverStatus_t hipsolverDn##P##ormqr_bufferSize(                                           \
        hipsolverHandle_t h, hipsolverSideMode_t side, hipsolverOperation_t trans, int m, int n,  \
        int k, T*, int lda, T*, T*, int ldc, int* lwork) {                                        \
        return work_size(h, ormqr_valid(side, trans, m, n, k, lda, ldc), lwork, 1);               \
    }                                                                                             \
    hipsolverStatus_t hipsolverDn##P##ormqr(hipsolverHandle_t h, hipsolverSideMode_t side,        \
                                            hipsolverOperation_t trans, int m, int n, int k,      \
                                            T* A, int lda, T* tau, T* C, int ldc, T*, int,        \
                                            int* info) {                                          \
        return ormqr(h, side, trans, m, n, k, A, lda, tau, C, ldc, info);                         \
    }                                                                                             \
    hipsolverStatus_t hipsolverDn##P##orgqr_bufferSize(hipsolverHandle_t h, int m, int n, int k,  \
                                                       T*, int lda, T*, int* lwork) {             \
        const bool valid = m >= 0 && n >= 0 && n <= m && k >= 0 && k <= n && lda >= at_least_1(m); \
        return work_size(h, valid, lwork, 1);                                                     \
    }                                                                                             \
    hipsolverStatus_t hipsolverDn##P##orgqr(hipsolverHandle_t h, int m, int n, int k, T* A,       \
                                            int lda, T* tau, T*, int, int* info) {                \
        return orgqr(h, m, n, k, A, lda, tau, info);                                              \
    }                                                                                             \
    hipsolverStatus_t hipsolverDn##P##syevd_bufferSize(hipsolverHandle_t h, hipsolverEigMode_t,   \
                                                       hipsolverFillMode_t uplo, int n, T*,       \
                                                       int lda, T*, int* lwork) {                 \
        const bool valid = fill(uplo) && n >= 0 && lda >= at_least_1(n);                          \
        return work_size(h, valid, lwork, 2LL * n * n);                                           \
    }                                                                                             \
    hipsolverStatus_t hipsolverDn##P##syevd(hipsolverHandle_t h, hipsolverEigMode_t jobz,         \
                                            hipsolverFillMode_t uplo, int n, T* A, int lda, T* D, \
                                            T* work, int lwork, int* info) {                      \
        return syevd(h, jobz, uplo, n, A, lda, D, work, lwork, info);                             \
    }

CASS_DENSE_SOLVERS(S, float)
CASS_DENSE_SOLVERS(D, double)

}  // extern "C"
