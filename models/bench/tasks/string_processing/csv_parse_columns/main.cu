// CSV parsing without a line index: the thread that sits on a '\n' walks back to the previous newline and
// parses the record between them: id,quantity,price_cents,"name",delta. Numeric columns are summed with
// 64-bit atomics (first in shared memory per block), min/max with atomicMin/atomicMax, and records whose
// field count or number syntax is wrong are counted as malformed.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <algorithm>
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

#include <string>

constexpr int NCOLS_NUM = 4;  // id, quantity, price_cents, delta (name is skipped)
constexpr int MAX_LINE = 96;

struct ParseResult {
    long long value[NCOLS_NUM];
    bool ok;
};

__host__ __device__ inline ParseResult parse_record(const char* s, int begin, int end) {
    ParseResult r{{0, 0, 0, 0}, true};
    int field = 0, num = 0, i = begin;
    while (i <= end && r.ok) {
        if (field == 3) {  // quoted name: "...", may contain commas
            if (s[i] != '"') { r.ok = false; break; }
            ++i;
            while (i < end && s[i] != '"') ++i;
            if (i >= end) { r.ok = false; break; }
            ++i;
        } else {
            bool neg = false;
            long long v = 0;
            int digits = 0;
            if (i < end && s[i] == '-') { neg = true; ++i; }
            while (i < end && s[i] >= '0' && s[i] <= '9') { v = v * 10 + (s[i] - '0'); ++i; ++digits; }
            if (digits == 0 || digits > 12) r.ok = false;
            else r.value[num++] = neg ? -v : v;
        }
        ++field;
        if (i == end) break;
        if (s[i] != ',') r.ok = false;
        ++i;
    }
    if (field != 5 || num != NCOLS_NUM) r.ok = false;
    return r;
}

__global__ void parse_csv(const char* text, int n, unsigned long long* sums, long long* minmax, int* counts) {
    __shared__ unsigned long long block_sum[NCOLS_NUM];
    if (threadIdx.x < NCOLS_NUM) block_sum[threadIdx.x] = 0ull;
    __syncthreads();
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && text[i] == '\n') {
        int b = i - 1;
        while (b >= 0 && text[b] != '\n' && i - b <= MAX_LINE) --b;
        const ParseResult r = parse_record(text, b + 1, i);
        if (r.ok) {
            for (int c = 0; c < NCOLS_NUM; ++c) atomicAdd(&block_sum[c], (unsigned long long)r.value[c]);
            atomicMin((long long*)&minmax[0], r.value[3]);
            atomicMax((long long*)&minmax[1], r.value[3]);
            atomicAdd(&counts[0], 1);
        } else {
            atomicAdd(&counts[1], 1);
        }
    }
    __syncthreads();
    if (threadIdx.x < NCOLS_NUM && block_sum[threadIdx.x]) atomicAdd(&sums[threadIdx.x], block_sum[threadIdx.x]);
}

int main() {
    g_seed = 1804u;
    std::string csv;
    const char* names[6] = {"\"widget\"", "\"gear, small\"", "\"bolt\"", "\"nut M4\"", "\"washer\"", "\"spring\""};
    int id = 1;
    while (csv.size() < (1u << 18) - 200) {
        const uint32_t kind = next_u32() >> 26;
        std::string line = std::to_string(id++) + "," + std::to_string(1 + next_u32() % 1000u) + ",";
        line += std::to_string(next_u32() % 500000u) + ",";
        line += std::string(names[(next_u32() >> 8) % 6u]) + ",";
        line += std::to_string((long long)(next_u32() % 200001u) - 100000);
        if (kind == 0) line += ",extra";          // too many fields
        if (kind == 1) line[line.size() / 3] = 'x';  // broken number or field
        csv += line + "\n";
    }
    const int n = (int)csv.size();
    char* d_text;
    unsigned long long* d_sums;
    long long* d_minmax;
    int* d_counts;
    CUDA_CHECK(cudaMalloc(&d_text, n));
    CUDA_CHECK(cudaMalloc(&d_sums, NCOLS_NUM * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&d_minmax, 2 * sizeof(long long)));
    CUDA_CHECK(cudaMalloc(&d_counts, 2 * sizeof(int)));
    const long long mm_init[2] = {(long long)1e18, -(long long)1e18};
    CUDA_CHECK(cudaMemcpy(d_text, csv.data(), n, cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_minmax, mm_init, sizeof(mm_init), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_sums, 0, NCOLS_NUM * sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(d_counts, 0, 2 * sizeof(int)));
    parse_csv<<<(n + 255) / 256, 256>>>(d_text, n, d_sums, d_minmax, d_counts);
    CUDA_CHECK(cudaGetLastError());
    unsigned long long sums[NCOLS_NUM];
    long long minmax[2];
    int counts[2];
    CUDA_CHECK(cudaMemcpy(sums, d_sums, sizeof(sums), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(minmax, d_minmax, sizeof(minmax), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(counts, d_counts, sizeof(counts), cudaMemcpyDeviceToHost));

    unsigned long long rs[NCOLS_NUM] = {0, 0, 0, 0};
    long long rmin = (long long)1e18, rmax = -(long long)1e18;
    int good = 0, bad = 0, start = 0;
    for (int i = 0; i < n; ++i) {
        if (csv[i] != '\n') continue;
        const ParseResult r = parse_record(csv.data(), start, i);
        if (r.ok) {
            ++good;
            for (int c = 0; c < NCOLS_NUM; ++c) rs[c] += (unsigned long long)r.value[c];
            rmin = std::min(rmin, r.value[3]);
            rmax = std::max(rmax, r.value[3]);
        } else {
            ++bad;
        }
        start = i + 1;
    }
    bool ok = good == counts[0] && bad == counts[1] && rmin == minmax[0] && rmax == minmax[1];
    for (int c = 0; c < NCOLS_NUM; ++c) ok = ok && rs[c] == sums[c];
    printf("bytes %d records %d valid %d malformed %d\n", n, good + bad, counts[0], counts[1]);
    printf("sum id %llu quantity %llu price_cents %llu delta %lld\n", sums[0], sums[1], sums[2], (long long)sums[3]);
    printf("delta min %lld max %lld\n", minmax[0], minmax[1]);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_text));
    CUDA_CHECK(cudaFree(d_sums));
    CUDA_CHECK(cudaFree(d_minmax));
    CUDA_CHECK(cudaFree(d_counts));
    return ok ? 0 : 1;
}
