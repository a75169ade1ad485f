// Templated shared-memory bitonic sort of record structs under two comparators (score order, group order).
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

struct Record {
    int id;
    float score;
    int group;
};

struct ByScoreDesc {
    __host__ __device__ bool operator()(const Record& a, const Record& b) const {
        if (a.score != b.score) return a.score > b.score;
        return a.id < b.id;
    }
};
struct ByGroupThenId {
    __host__ __device__ bool operator()(const Record& a, const Record& b) const {
        if (a.group != b.group) return a.group < b.group;
        return a.id > b.id;
    }
};

template <typename T, typename Less, int N>
__global__ void __launch_bounds__(N / 2) bitonic_sort_records(T* data, Less less) {
    __shared__ T s[N];
    const int t = threadIdx.x;
    s[t] = data[t];
    s[t + N / 2] = data[t + N / 2];
    __syncthreads();
    for (int size = 2; size <= N; size <<= 1)
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            const int i = 2 * t - (t & (stride - 1));
            const bool forward = (i & size) == 0;
            const T a = s[i], b = s[i + stride];
            if (less(b, a) == forward) {  // swap when out of order for this direction
                s[i] = b;
                s[i + stride] = a;
            }
            __syncthreads();
        }
    data[t] = s[t];
    data[t + N / 2] = s[t + N / 2];
}

template <typename Less>
bool sort_and_check(const std::vector<Record>& input, Less less, const char* label) {
    constexpr int N = 2048;
    Record* d;
    CUDA_CHECK(cudaMalloc(&d, N * sizeof(Record)));
    CUDA_CHECK(cudaMemcpy(d, input.data(), N * sizeof(Record), cudaMemcpyHostToDevice));
    bitonic_sort_records<Record, Less, N><<<1, N / 2>>>(d, less);
    CUDA_CHECK(cudaGetLastError());
    std::vector<Record> out(N);
    CUDA_CHECK(cudaMemcpy(out.data(), d, N * sizeof(Record), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaFree(d));
    std::vector<Record> ref = input;
    std::sort(ref.begin(), ref.end(), less);
    bool ok = true;
    uint64_t hash = 0;
    for (int i = 0; i < N; ++i) {
        if (ref[i].id != out[i].id) ok = false;
        hash = hash * 257ull + (uint64_t)out[i].id;
    }
    printf("%s: first id %d score %.3f group %d; last id %d; id_hash %llu\n", label, out[0].id,
           out[0].score, out[0].group, out[N - 1].id, (unsigned long long)hash);
    return ok;
}

int main() {
    g_seed = 6502u;
    std::vector<Record> records(2048);
    for (int i = 0; i < 2048; ++i) {
        records[i].id = i;
        records[i].score = (float)(next_u32() % 500u) * 0.125f;
        records[i].group = (int)(next_u32() % 37u);
    }
    const bool ok1 = sort_and_check(records, ByScoreDesc(), "by_score");
    const bool ok2 = sort_and_check(records, ByGroupThenId(), "by_group");
    printf(ok1 && ok2 ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok1 && ok2 ? 0 : 1;
}
