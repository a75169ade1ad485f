// ELLPACK sparse matrix-vector product: column-major padded slabs of __half values, float accumulation,
// and a per-row-block scale factor table in constant memory (a quantised matrix format).
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

#include <cuda_fp16.h>

constexpr int ROWS = 16384;
constexpr int WIDTH = 12;        // max nonzeros per row (padded)
constexpr int SCALE_BLOCKS = 64; // rows are grouped in blocks of ROWS/SCALE_BLOCKS for scaling

__constant__ float c_block_scale[SCALE_BLOCKS];

__global__ void spmv_ell_half(const int* __restrict__ cols, const __half* __restrict__ vals,
                              const float* __restrict__ x, float* __restrict__ y) {
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= ROWS) return;
    float s = 0.0f;
#pragma unroll 4
    for (int k = 0; k < WIDTH; ++k) {
        const int c = cols[k * ROWS + row];  // column-major: coalesced across rows
        if (c < 0) break;                     // padding marker
        s += __half2float(vals[k * ROWS + row]) * x[c];
    }
    y[row] = s * c_block_scale[row / (ROWS / SCALE_BLOCKS)];
}

int main() {
    g_seed = 31337u;
    std::vector<int> cols((size_t)WIDTH * ROWS, -1);
    std::vector<__half> vals((size_t)WIDTH * ROWS, __float2half(0.0f));
    std::vector<float> vals_f((size_t)WIDTH * ROWS, 0.0f);
    std::vector<int> len(ROWS);
    for (int r = 0; r < ROWS; ++r) {
        len[r] = 1 + (int)(next_u32() % WIDTH);
        for (int k = 0; k < len[r]; ++k) {
            const size_t at = (size_t)k * ROWS + r;
            cols[at] = (r + (int)(next_u32() % 2048u) - 1024 + ROWS) % ROWS;
            vals[at] = __float2half(next_uniform());
            vals_f[at] = __half2float(vals[at]);  // exactly what the device sees
        }
    }
    std::vector<float> x(ROWS), scale(SCALE_BLOCKS);
    for (auto& v : x) v = next_uniform();
    for (int b = 0; b < SCALE_BLOCKS; ++b) scale[b] = 0.5f + 0.03125f * (float)b;

    int* d_cols;
    __half* d_vals;
    float *d_x, *d_y;
    CUDA_CHECK(cudaMalloc(&d_cols, cols.size() * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_vals, vals.size() * sizeof(__half)));
    CUDA_CHECK(cudaMalloc(&d_x, ROWS * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_y, ROWS * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_cols, cols.data(), cols.size() * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_vals, vals.data(), vals.size() * sizeof(__half), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_x, x.data(), ROWS * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpyToSymbol(c_block_scale, scale.data(), SCALE_BLOCKS * sizeof(float)));
    spmv_ell_half<<<ROWS / 256, 256>>>(d_cols, d_vals, d_x, d_y);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> y(ROWS);
    CUDA_CHECK(cudaMemcpy(y.data(), d_y, ROWS * sizeof(float), cudaMemcpyDeviceToHost));

    bool ok = true;
    double checksum = 0.0, abs_sum = 0.0;
    long long padded = 0;
    for (int r = 0; r < ROWS; ++r) {
        double s = 0.0, mag = 0.0;
        for (int k = 0; k < len[r]; ++k) {
            const size_t at = (size_t)k * ROWS + r;
            s += (double)vals_f[at] * x[cols[at]];
            mag += fabs((double)vals_f[at] * x[cols[at]]);
        }
        const double sc = scale[r / (ROWS / SCALE_BLOCKS)];
        if (fabs(s * sc - y[r]) > 1e-5 * (mag * sc + 1e-3)) ok = false;
        padded += WIDTH - len[r];
        checksum += y[r];
        abs_sum += fabs(y[r]);
    }
    printf("rows %d width %d padded_slots %lld\n", ROWS, WIDTH, padded);
    printf("checksum %.6e abs_sum %.6e\n", checksum, abs_sum);
    printf("y[7] %.5e y[8191] %.5e y[16383] %.5e\n", y[7], y[8191], y[16383]);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_cols));
    CUDA_CHECK(cudaFree(d_vals));
    CUDA_CHECK(cudaFree(d_x));
    CUDA_CHECK(cudaFree(d_y));
    return ok ? 0 : 1;
}
