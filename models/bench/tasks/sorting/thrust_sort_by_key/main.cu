// Thrust: sort_by_key of (bucket, score) records, reduce_by_key per bucket, and a transform_reduce.
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

#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/transform_reduce.h>
#include <thrust/functional.h>
#include <map>

struct Square {
    __host__ __device__ long long operator()(int x) const { return (long long)x * x; }
};

int main() {
    g_seed = 777777u;
    const int n = 20000;
    thrust::host_vector<int> h_keys(n), h_vals(n);
    for (int i = 0; i < n; ++i) {
        h_keys[i] = (int)(next_u32() % 97u);
        h_vals[i] = (int)(next_u32() % 1000u);
    }
    thrust::device_vector<int> keys = h_keys, vals = h_vals;
    thrust::sort_by_key(keys.begin(), keys.end(), vals.begin());
    thrust::device_vector<int> out_keys(n), out_sums(n);
    auto ends = thrust::reduce_by_key(keys.begin(), keys.end(), vals.begin(), out_keys.begin(),
                                      out_sums.begin());
    const int groups = (int)(ends.first - out_keys.begin());
    const long long sum_sq = thrust::transform_reduce(vals.begin(), vals.end(), Square(), 0LL,
                                                      thrust::plus<long long>());
    CUDA_CHECK(cudaDeviceSynchronize());

    thrust::host_vector<int> sk = keys, gk = out_keys, gs = out_sums;
    std::map<int, long long> ref;
    long long ref_sq = 0;
    for (int i = 0; i < n; ++i) {
        ref[h_keys[i]] += h_vals[i];
        ref_sq += (long long)h_vals[i] * h_vals[i];
    }
    bool ok = groups == (int)ref.size() && sum_sq == ref_sq;
    for (int i = 1; i < n; ++i)
        if (sk[i - 1] > sk[i]) ok = false;
    int g = 0;
    for (const auto& kv : ref) {
        if (g >= groups || gk[g] != kv.first || gs[g] != kv.second) ok = false;
        ++g;
    }
    printf("thrust n %d groups %d\n", n, groups);
    printf("group0 key %d sum %d last key %d sum %d\n", (int)gk[0], (int)gs[0], (int)gk[groups - 1],
           (int)gs[groups - 1]);
    printf("sum_of_squares %lld\n", sum_sq);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
