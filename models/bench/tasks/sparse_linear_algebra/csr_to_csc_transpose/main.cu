// Sparse transpose (CSR -> CSC): count entries per column with atomics, exclusive scan in one block,
// scatter with atomic cursors (order within a column varies), then sort each column by row index.
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

constexpr int ROWS = 3000, COLS = 2048;

__global__ void count_columns(const int* col_idx, int nnz, int* counts) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k < nnz) atomicAdd(&counts[col_idx[k]], 1);
}

// Exclusive scan of n counts with one block; each thread scans a contiguous chunk, chunk totals in dynamic smem.
__global__ void exclusive_scan_block(const int* counts, int n, int* offsets) {
    extern __shared__ int chunk_total[];
    const int t = threadIdx.x, per = (n + blockDim.x - 1) / blockDim.x;
    const int lo = min(n, t * per), hi = min(n, lo + per);
    int s = 0;
    for (int i = lo; i < hi; ++i) s += counts[i];
    chunk_total[t] = s;
    __syncthreads();
    for (int stride = 1; stride < blockDim.x; stride <<= 1) {  // Hillis-Steele inclusive scan of totals
        const int v = t >= stride ? chunk_total[t - stride] : 0;
        __syncthreads();
        chunk_total[t] += v;
        __syncthreads();
    }
    int run = chunk_total[t] - s;
    for (int i = lo; i < hi; ++i) {
        offsets[i] = run;
        run += counts[i];
    }
    if (t == blockDim.x - 1) offsets[n] = chunk_total[t];
}

__global__ void scatter_entries(const int* row_ptr, const int* col_idx, const float* vals, int rows,
                                const int* offsets, int* cursor, int* out_rows, float* out_vals) {
    const int r = blockIdx.x * blockDim.x + threadIdx.x;
    if (r >= rows) return;
    for (int k = row_ptr[r]; k < row_ptr[r + 1]; ++k) {
        const int c = col_idx[k];
        const int at = offsets[c] + atomicAdd(&cursor[c], 1);
        out_rows[at] = r;
        out_vals[at] = vals[k];
    }
}

__global__ void sort_columns(const int* offsets, int cols, int* rows_idx, float* vals) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    for (int i = offsets[c] + 1; i < offsets[c + 1]; ++i) {  // insertion sort: columns are short
        const int kr = rows_idx[i];
        const float kv = vals[i];
        int j = i - 1;
        while (j >= offsets[c] && rows_idx[j] > kr) {
            rows_idx[j + 1] = rows_idx[j];
            vals[j + 1] = vals[j];
            --j;
        }
        rows_idx[j + 1] = kr;
        vals[j + 1] = kv;
    }
}

int main() {
    g_seed = 424242u;
    std::vector<int> rp(1, 0), ci;
    std::vector<float> v;
    for (int r = 0; r < ROWS; ++r) {
        std::vector<int> cs;
        const int len = (int)(next_u32() % 20u);
        for (int k = 0; k < len; ++k) cs.push_back((int)((next_u32() >> 7) % COLS));
        std::sort(cs.begin(), cs.end());
        cs.erase(std::unique(cs.begin(), cs.end()), cs.end());
        for (int c : cs) { ci.push_back(c); v.push_back(next_uniform()); }
        rp.push_back((int)ci.size());
    }
    const int nnz = (int)ci.size();
    int *d_rp, *d_ci, *d_counts, *d_off, *d_cursor, *d_orow;
    float *d_v, *d_oval;
    CUDA_CHECK(cudaMalloc(&d_rp, (ROWS + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_ci, nnz * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_v, nnz * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_counts, COLS * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_cursor, COLS * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_off, (COLS + 1) * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_orow, nnz * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_oval, nnz * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_rp, rp.data(), (ROWS + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_ci, ci.data(), nnz * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_v, v.data(), nnz * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_counts, 0, COLS * sizeof(int)));
    CUDA_CHECK(cudaMemset(d_cursor, 0, COLS * sizeof(int)));
    count_columns<<<(nnz + 255) / 256, 256>>>(d_ci, nnz, d_counts);
    CUDA_CHECK(cudaGetLastError());
    const int scan_threads = 256;
    exclusive_scan_block<<<1, scan_threads, scan_threads * sizeof(int)>>>(d_counts, COLS, d_off);
    CUDA_CHECK(cudaGetLastError());
    scatter_entries<<<(ROWS + 127) / 128, 128>>>(d_rp, d_ci, d_v, ROWS, d_off, d_cursor, d_orow, d_oval);
    CUDA_CHECK(cudaGetLastError());
    sort_columns<<<(COLS + 127) / 128, 128>>>(d_off, COLS, d_orow, d_oval);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> off(COLS + 1), orow(nnz);
    std::vector<float> oval(nnz);
    CUDA_CHECK(cudaMemcpy(off.data(), d_off, (COLS + 1) * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(orow.data(), d_orow, nnz * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(oval.data(), d_oval, nnz * sizeof(float), cudaMemcpyDeviceToHost));

    // CPU reference: stable counting transpose (rows ascending within each column).
    std::vector<int> roff(COLS + 1, 0), rrow(nnz), fill(COLS, 0);
    std::vector<float> rval(nnz);
    for (int k = 0; k < nnz; ++k) roff[ci[k] + 1]++;
    for (int c = 0; c < COLS; ++c) roff[c + 1] += roff[c];
    for (int r = 0; r < ROWS; ++r)
        for (int k = rp[r]; k < rp[r + 1]; ++k) {
            const int at = roff[ci[k]] + fill[ci[k]]++;
            rrow[at] = r;
            rval[at] = v[k];
        }
    bool ok = off == roff && orow == rrow;
    uint64_t hash = 1469598103934665603ull;
    double vsum = 0.0;
    int max_col = 0;
    for (int k = 0; k < nnz; ++k) {
        if (oval[k] != rval[k]) ok = false;
        hash = (hash ^ (uint64_t)orow[k]) * 1099511628211ull;
        vsum += oval[k] * (double)(k % 13);
    }
    for (int c = 0; c < COLS; ++c) max_col = std::max(max_col, off[c + 1] - off[c]);
    printf("rows %d cols %d nnz %d longest_column %d\n", ROWS, COLS, nnz, max_col);
    printf("row_index_hash %016llx weighted_value_sum %.6e\n", (unsigned long long)hash, vsum);
    printf("col_ptr[1024] %d col_ptr[2047] %d\n", off[1024], off[2047]);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_rp));
    CUDA_CHECK(cudaFree(d_ci));
    CUDA_CHECK(cudaFree(d_v));
    CUDA_CHECK(cudaFree(d_counts));
    CUDA_CHECK(cudaFree(d_cursor));
    CUDA_CHECK(cudaFree(d_off));
    CUDA_CHECK(cudaFree(d_orow));
    CUDA_CHECK(cudaFree(d_oval));
    return ok ? 0 : 1;
}
