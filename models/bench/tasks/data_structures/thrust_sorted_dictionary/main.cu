// A static dictionary built with Thrust: keys (64-bit hashes of synthetic tokens) are sorted, duplicates
// collapsed with reduce_by_key into (key, count) pairs, and a batch of queries answered with the
// vectorised lower_bound; a query hits when the found key equals it.
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
#include <thrust/binary_search.h>
#include <thrust/device_vector.h>
#include <thrust/functional.h>
#include <thrust/host_vector.h>
#include <thrust/iterator/constant_iterator.h>
#include <thrust/reduce.h>
#include <thrust/sort.h>
#include <thrust/transform.h>

constexpr int N_KEYS = 1 << 16;
constexpr int N_QUERIES = 1 << 14;

__host__ __device__ inline unsigned long long token_hash(unsigned token) {
    unsigned long long x = token * 0x9E3779B97F4A7C15ull;
    x ^= x >> 29;
    x *= 0xBF58476D1CE4E5B9ull;
    return x ^ (x >> 32);
}

struct HashToken {
    __host__ __device__ unsigned long long operator()(unsigned t) const { return token_hash(t); }
};

struct LookupCount {
    const unsigned long long* keys;
    const unsigned* counts;
    int n;
    __host__ __device__ unsigned operator()(thrust::tuple<unsigned long long, long long> q) const {
        const long long pos = thrust::get<1>(q);
        return (pos < n && keys[pos] == thrust::get<0>(q)) ? counts[pos] : 0u;
    }
};

int main() {
    g_seed = 1123u;
    thrust::host_vector<unsigned> tokens(N_KEYS), qtokens(N_QUERIES);
    for (int i = 0; i < N_KEYS; ++i) {  // Zipf-like: small token ids are frequent
        const uint32_t r = next_u32() >> 8;
        tokens[i] = (r % 4u == 0u) ? r % 64u : (r % 4u == 1u) ? r % 2048u : r % 60000u;
    }
    for (int i = 0; i < N_QUERIES; ++i) qtokens[i] = (next_u32() >> 8) % 80000u;
    thrust::device_vector<unsigned> d_tokens = tokens, d_qtokens = qtokens;
    thrust::device_vector<unsigned long long> keys(N_KEYS), queries(N_QUERIES);
    thrust::transform(d_tokens.begin(), d_tokens.end(), keys.begin(), HashToken());
    thrust::transform(d_qtokens.begin(), d_qtokens.end(), queries.begin(), HashToken());
    thrust::sort(keys.begin(), keys.end());
    thrust::device_vector<unsigned long long> uniq(N_KEYS);
    thrust::device_vector<unsigned> counts(N_KEYS);
    const auto ends = thrust::reduce_by_key(keys.begin(), keys.end(), thrust::constant_iterator<unsigned>(1u), uniq.begin(),
                                            counts.begin());
    const int n_unique = (int)(ends.first - uniq.begin());
    thrust::device_vector<long long> pos(N_QUERIES);
    thrust::lower_bound(uniq.begin(), uniq.begin() + n_unique, queries.begin(), queries.end(), pos.begin());
    thrust::device_vector<unsigned> found(N_QUERIES);
    LookupCount op{thrust::raw_pointer_cast(uniq.data()), thrust::raw_pointer_cast(counts.data()), n_unique};
    thrust::transform(thrust::make_zip_iterator(thrust::make_tuple(queries.begin(), pos.begin())),
                      thrust::make_zip_iterator(thrust::make_tuple(queries.end(), pos.end())), found.begin(), op);
    CUDA_CHECK(cudaDeviceSynchronize());
    thrust::host_vector<unsigned long long> h_uniq(uniq.begin(), uniq.begin() + n_unique);
    thrust::host_vector<unsigned> h_counts(counts.begin(), counts.begin() + n_unique), h_found = found;

    // CPU reference.
    std::vector<unsigned long long> rk(N_KEYS);
    for (int i = 0; i < N_KEYS; ++i) rk[i] = token_hash(tokens[i]);
    std::sort(rk.begin(), rk.end());
    std::vector<unsigned long long> ru;
    std::vector<unsigned> rc;
    for (int i = 0; i < N_KEYS; ++i) {
        if (i == 0 || rk[i] != rk[i - 1]) { ru.push_back(rk[i]); rc.push_back(0u); }
        rc.back()++;
    }
    bool ok = n_unique == (int)ru.size();
    for (int i = 0; ok && i < n_unique; ++i) ok = h_uniq[i] == ru[i] && h_counts[i] == rc[i];
    int hits = 0;
    unsigned long long hit_weight = 0;
    for (int q = 0; q < N_QUERIES; ++q) {
        const unsigned long long key = token_hash(qtokens[q]);
        const auto it = std::lower_bound(ru.begin(), ru.end(), key);
        const unsigned ref = (it != ru.end() && *it == key) ? rc[it - ru.begin()] : 0u;
        if (ref != h_found[q]) ok = false;
        hits += h_found[q] > 0;
        hit_weight += h_found[q];
    }
    unsigned max_count = 0;
    for (unsigned c : rc) max_count = std::max(max_count, c);
    printf("keys %d unique %d max_occurrences %u\n", N_KEYS, n_unique, max_count);
    printf("queries %d hits %d summed_counts %llu\n", N_QUERIES, hits, hit_weight);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
