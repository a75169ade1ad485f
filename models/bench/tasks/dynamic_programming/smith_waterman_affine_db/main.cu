// Database search with Smith-Waterman-Gotoh local alignment: one thread per database sequence keeps the
// H and E columns for the query in local arrays and sweeps the subject; the 20x20 substitution matrix
// and the encoded query live in constant memory. The best (score, index) pair is found with a packed
// 64-bit atomicMax; per-score histogram buckets use 32-bit atomics.
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

constexpr int ALPHA = 20;
constexpr int QLEN = 48;
constexpr int DB = 1024;
constexpr int MAXLEN = 80;
constexpr int GAP_OPEN = 11, GAP_EXTEND = 1;

__constant__ signed char c_subst[ALPHA * ALPHA];
__constant__ unsigned char c_query[QLEN];

struct Subject {
    int offset, length;
};

__host__ __device__ inline int sw_score(const signed char* subst, const unsigned char* query, const unsigned char* s, int len) {
    int H[QLEN + 1], E[QLEN + 1];
    for (int i = 0; i <= QLEN; ++i) { H[i] = 0; E[i] = 0; }
    int best = 0;
    for (int j = 0; j < len; ++j) {
        int diag = 0, F = 0, hup = 0;  // H[i-1][j-1], gap in subject, H[i-1][j]
        for (int i = 1; i <= QLEN; ++i) {
            E[i] = max(E[i] - GAP_EXTEND, H[i] - GAP_OPEN);   // gap along the subject (uses H[i][j-1])
            F = max(F - GAP_EXTEND, hup - GAP_OPEN);          // gap along the query
            const int h = max(max(0, diag + subst[query[i - 1] * ALPHA + s[j]]), max(E[i], F));
            diag = H[i];
            H[i] = h;
            hup = h;
            best = max(best, h);
        }
    }
    return best;
}

__global__ void search(const unsigned char* db, const Subject* subjects, int* scores, unsigned long long* best,
                       unsigned* buckets) {
    const int k = blockIdx.x * blockDim.x + threadIdx.x;
    if (k >= DB) return;
    const Subject sub = subjects[k];
    const int sc = sw_score(c_subst, c_query, db + sub.offset, sub.length);
    scores[k] = sc;
    atomicMax(best, ((unsigned long long)sc << 32) | (unsigned)(DB - 1 - k));  // ties: lowest index
    atomicAdd(&buckets[min(sc / 10, 15)], 1u);
}

int main() {
    g_seed = 1981u;
    signed char subst[ALPHA * ALPHA];
    for (int a = 0; a < ALPHA; ++a)
        for (int b = 0; b <= a; ++b) {
            const int v = a == b ? 4 + (int)(next_u32() % 8u) : (int)(next_u32() % 7u) - 4;
            subst[a * ALPHA + b] = subst[b * ALPHA + a] = (signed char)v;
        }
    unsigned char query[QLEN];
    for (int i = 0; i < QLEN; ++i) query[i] = (unsigned char)(next_u32() % ALPHA);
    std::vector<unsigned char> db;
    std::vector<Subject> subjects(DB);
    for (int k = 0; k < DB; ++k) {
        const int len = 32 + (int)(next_u32() % (MAXLEN - 31));
        subjects[k] = Subject{(int)db.size(), len};
        const bool homolog = k % 37 == 5;  // plant mutated copies of part of the query
        const int start = (int)(next_u32() % 16u);
        for (int j = 0; j < len; ++j) {
            const uint32_t r = next_u32();
            unsigned char c = (unsigned char)(r % ALPHA);
            if (homolog && j >= start && j - start < QLEN - 8 && (r >> 29) != 0u) c = query[j - start + 4];
            db.push_back(c);
        }
    }
    CUDA_CHECK(cudaMemcpyToSymbol(c_subst, subst, sizeof(subst)));
    CUDA_CHECK(cudaMemcpyToSymbol(c_query, query, sizeof(query)));
    unsigned char* d_db;
    Subject* d_sub;
    int* d_scores;
    unsigned long long* d_best;
    unsigned* d_buckets;
    CUDA_CHECK(cudaMalloc(&d_db, db.size()));
    CUDA_CHECK(cudaMalloc(&d_sub, DB * sizeof(Subject)));
    CUDA_CHECK(cudaMalloc(&d_scores, DB * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_best, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMalloc(&d_buckets, 16 * sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(d_best, 0, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(d_buckets, 0, 16 * sizeof(unsigned)));
    CUDA_CHECK(cudaMemcpy(d_db, db.data(), db.size(), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_sub, subjects.data(), DB * sizeof(Subject), cudaMemcpyHostToDevice));
    search<<<DB / 64, 64>>>(d_db, d_sub, d_scores, d_best, d_buckets);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> scores(DB);
    unsigned long long best = 0;
    unsigned buckets[16];
    CUDA_CHECK(cudaMemcpy(scores.data(), d_scores, DB * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&best, d_best, sizeof(best), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(buckets, d_buckets, sizeof(buckets), cudaMemcpyDeviceToHost));

    bool ok = true;
    unsigned rb[16] = {0};
    long long total = 0;
    int hits_over_60 = 0;
    for (int k = 0; k < DB; ++k) {
        const int ref = sw_score(subst, query, &db[subjects[k].offset], subjects[k].length);
        if (ref != scores[k]) ok = false;
        rb[std::min(ref / 10, 15)]++;
        total += scores[k];
        hits_over_60 += scores[k] > 60;
    }
    for (int b = 0; b < 16; ++b) ok = ok && rb[b] == buckets[b];
    const int best_score = (int)(best >> 32), best_idx = DB - 1 - (int)(best & 0xffffffffu);
    if (scores[best_idx] != best_score) ok = false;
    printf("database %d query %d total_score %lld\n", DB, QLEN, total);
    printf("best hit index %d score %d; hits above 60: %d\n", best_idx, best_score, hits_over_60);
    printf("score buckets");
    for (int b = 0; b < 16; ++b) printf(" %u", buckets[b]);
    printf("\n");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_db));
    CUDA_CHECK(cudaFree(d_sub));
    CUDA_CHECK(cudaFree(d_scores));
    CUDA_CHECK(cudaFree(d_best));
    CUDA_CHECK(cudaFree(d_buckets));
    return ok ? 0 : 1;
}
