// cuSPARSE generic API: the 5-point 2-D Poisson matrix of a 24 x 24 grid (576 rows, 2,784 entries)
// generated in CSR and COO; y = alpha A x + beta y with cusparseSpMV in float (CSR) and double
// (CSR, COO) against the host product; then conjugate gradient, one cusparseSpMV per iteration and
// the vector updates on the host, solves A u = f for a known u.
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
static const int kGrid = 24, kRows = kGrid * kGrid;

struct Poisson {
    std::vector<int> offsets{0}, rows, columns;
    std::vector<double> values;
};

Poisson poisson() {
    Poisson p;
    for (int gy = 0; gy < kGrid; ++gy)
        for (int gx = 0; gx < kGrid; ++gx) {
            const int r = gy * kGrid + gx;
            const int cols[5] = {r - kGrid, r - 1, r, r + 1, r + kGrid};
            const bool inside[5] = {gy > 0, gx > 0, true, gx < kGrid - 1, gy < kGrid - 1};
            for (int k = 0; k < 5; ++k)
                if (inside[k]) {
                    p.rows.push_back(r);
                    p.columns.push_back(cols[k]);
                    p.values.push_back(k == 2 ? 4.0 : -1.0);
                }
            p.offsets.push_back((int)p.columns.size());
        }
    return p;
}

template <typename T>
T* to_device(const std::vector<T>& h) {
    T* d;
    CUDA_CHECK(cudaMalloc(&d, sizeof(T) * h.size()));
    CUDA_CHECK(cudaMemcpy(d, h.data(), sizeof(T) * h.size(), cudaMemcpyHostToDevice));
    return d;
}

template <typename T>
std::vector<T> host_spmv(const Poisson& p, const std::vector<T>& x) {
    std::vector<T> y(kRows, 0);
    for (int r = 0; r < kRows; ++r)
        for (int e = p.offsets[r]; e < p.offsets[r + 1]; ++e) y[r] += (T)p.values[e] * x[p.columns[e]];
    return y;
}

// y = alpha A x + beta y on the device for the matrix `A`; returns y.
template <typename T>
std::vector<T> spmv(cusparseHandle_t h, cusparseSpMatDescr_t A, const std::vector<T>& x,
                    std::vector<T> y, T alpha, T beta, cudaDataType type) {
    T *d_x = to_device(x), *d_y = to_device(y);
    cusparseDnVecDescr_t vx, vy;
    CUSPARSE_CHECK(cusparseCreateDnVec(&vx, kRows, d_x, type));
    CUSPARSE_CHECK(cusparseCreateDnVec(&vy, kRows, d_y, type));
    size_t size = 0;
    CUSPARSE_CHECK(cusparseSpMV_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta,
                                           vy, type, CUSPARSE_SPMV_ALG_DEFAULT, &size));
    void* buffer;
    CUDA_CHECK(cudaMalloc(&buffer, size > 0 ? size : 1));
    CUSPARSE_CHECK(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, vx, &beta, vy, type,
                                CUSPARSE_SPMV_ALG_DEFAULT, buffer));
    CUDA_CHECK(cudaMemcpy(y.data(), d_y, sizeof(T) * kRows, cudaMemcpyDeviceToHost));
    CUSPARSE_CHECK(cusparseDestroyDnVec(vx));
    CUSPARSE_CHECK(cusparseDestroyDnVec(vy));
    for (void* p : {(void*)d_x, (void*)d_y, buffer}) CUDA_CHECK(cudaFree(p));
    return y;
}

template <typename T>
double worst(const std::vector<T>& a, const std::vector<T>& b) {
    double w = 0;
    for (size_t i = 0; i < a.size(); ++i) w = fmax(w, fabs((double)a[i] - (double)b[i]));
    return w;
}

double dot(const std::vector<double>& a, const std::vector<double>& b) {
    double s = 0;
    for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
}

int main() {
    const Poisson p = poisson();
    const int nnz = (int)p.values.size();
    std::vector<float> valuesf(p.values.begin(), p.values.end());
    cusparseHandle_t h;
    CUSPARSE_CHECK(cusparseCreate(&h));
    cusparseSpMatDescr_t csr, csrf, coo;
    int *d_off = to_device(p.offsets), *d_rows = to_device(p.rows), *d_cols = to_device(p.columns);
    double* d_vals = to_device(p.values);
    float* d_valsf = to_device(valuesf);
    CUSPARSE_CHECK(cusparseCreateCsr(&csr, kRows, kRows, nnz, d_off, d_cols, d_vals, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    CUSPARSE_CHECK(cusparseCreateCsr(&csrf, kRows, kRows, nnz, d_off, d_cols, d_valsf, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
    CUSPARSE_CHECK(cusparseCreateCoo(&coo, kRows, kRows, nnz, d_rows, d_cols, d_vals, CUSPARSE_INDEX_32I,
                                     CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
    printf("poisson %d x %d, %d entries\n", kRows, kRows, nnz);

    std::vector<double> x(kRows), y0(kRows);
    for (int i = 0; i < kRows; ++i) x[i] = 0.25 * ((i * 7) % 11) - 1.0, y0[i] = 0.5 * (i % 3);
    std::vector<double> want = host_spmv(p, x);
    for (int i = 0; i < kRows; ++i) want[i] = 2 * want[i] - y0[i];
    std::vector<double> got = spmv(h, csr, x, y0, 2.0, -1.0, CUDA_R_64F);
    double sum = 0;
    for (double v : got) sum += v;
    printf("csr double y = 2 A x - y: sum %.6f y[100] %.6f exact: %s\n", sum, got[100],
           worst(got, want) == 0 ? "yes" : "no");
    failures += worst(got, want) != 0;
    got = spmv(h, coo, x, y0, 2.0, -1.0, CUDA_R_64F);
    printf("coo double matches csr: %s\n", worst(got, want) == 0 ? "yes" : "no");
    failures += worst(got, want) != 0;
    std::vector<float> xf(x.begin(), x.end()), zero(kRows, 0.0f);
    std::vector<float> gotf = spmv(h, csrf, xf, zero, 1.0f, 0.0f, CUDA_R_32F);
    std::vector<float> wantf = host_spmv(p, xf);
    printf("csr float y = A x: y[7] %.6f within 1e-5: %s\n", gotf[7], worst(gotf, wantf) < 1e-5 ? "yes" : "no");
    failures += worst(gotf, wantf) >= 1e-5;

    // conjugate gradient for A u = f, u(i) = sin(i / 50); fixed 120 iterations
    std::vector<double> u(kRows), sol(kRows, 0.0), zeros(kRows, 0.0);
    for (int i = 0; i < kRows; ++i) u[i] = sin(i / 50.0);
    std::vector<double> f = host_spmv(p, u), r = f, d = f;
    double rr = dot(r, r);
    const double rr0 = rr;
    for (int it = 0; it < 120 && rr > 1e-30 * rr0; ++it) {
        std::vector<double> ad = spmv(h, csr, d, zeros, 1.0, 0.0, CUDA_R_64F);
        const double step = rr / dot(d, ad);
        for (int i = 0; i < kRows; ++i) sol[i] += step * d[i], r[i] -= step * ad[i];
        const double rr_next = dot(r, r);
        for (int i = 0; i < kRows; ++i) d[i] = r[i] + rr_next / rr * d[i];
        rr = rr_next;
    }
    const double error = worst(sol, u);
    printf("cg u[1] %.6f u[300] %.6f u[575] %.6f error below 1e-8: %s\n", sol[1], sol[300], sol[575],
           error < 1e-8 ? "yes" : "no");
    failures += error >= 1e-8;

    CUSPARSE_CHECK(cusparseDestroySpMat(csr));
    CUSPARSE_CHECK(cusparseDestroySpMat(csrf));
    CUSPARSE_CHECK(cusparseDestroySpMat(coo));
    CUSPARSE_CHECK(cusparseDestroy(h));
    for (void* q : {(void*)d_off, (void*)d_rows, (void*)d_cols, (void*)d_vals, (void*)d_valsf})
        CUDA_CHECK(cudaFree(q));
    printf(failures ? "CHECK FAIL\n" : "CHECK PASS\n");
    return failures ? 1 : 0;
}
