// Viterbi decoding for a hidden Markov model with integer (scaled log-probability) scores, so every
// max and tie-break is exact: one block per observation sequence, one thread per state; the transition
// matrix is staged in shared memory, backpointers go to global memory, the final best state is found
// with a warp-shuffle argmax (ties to the lower state) and a second kernel traces the path back.
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

constexpr int S = 64;       // states (two warps)
constexpr int T = 128;      // sequence length
constexpr int SEQS = 8;
constexpr int SYMBOLS = 16;
constexpr int NEG = -1000000000;

struct Hmm {
    const int* trans;  // S x S, trans[i * S + j] = score of i -> j
    const int* emit;   // S x SYMBOLS
    const int* start;  // S
};

__device__ __forceinline__ void argmax_pair(int& v, int& idx, int ov, int oi) {
    if (ov > v || (ov == v && oi < idx)) { v = ov; idx = oi; }
}

__global__ void viterbi_forward(Hmm hmm, const unsigned char* obs, unsigned char* back, int* final_score, int* final_state) {
    __shared__ int tr[S * S];
    __shared__ int score[2][S];
    __shared__ int warp_best[2][S / 32];
    const int j = threadIdx.x, seq = blockIdx.x;
    const unsigned char* o = obs + seq * T;
    for (int k = j; k < S * S; k += S) tr[k] = hmm.trans[k];
    score[0][j] = hmm.start[j] + hmm.emit[j * SYMBOLS + o[0]];
    __syncthreads();
    for (int t = 1; t < T; ++t) {
        const int* prev = score[(t - 1) & 1];
        int best = NEG, arg = 0;
        for (int i = 0; i < S; ++i) {
            const int v = prev[i] + tr[i * S + j];
            if (v > best) { best = v; arg = i; }
        }
        score[t & 1][j] = best + hmm.emit[j * SYMBOLS + o[t]];
        back[((size_t)seq * T + t) * S + j] = (unsigned char)arg;
        __syncthreads();
    }
    int v = score[(T - 1) & 1][j], idx = j;
    for (int off = 16; off > 0; off >>= 1) {
        const int ov = __shfl_down_sync(0xffffffffu, v, off), oi = __shfl_down_sync(0xffffffffu, idx, off);
        argmax_pair(v, idx, ov, oi);
    }
    if ((j & 31) == 0) { warp_best[0][j / 32] = v; warp_best[1][j / 32] = idx; }
    __syncthreads();
    if (j == 0) {
        int bv = warp_best[0][0], bi = warp_best[1][0];
        argmax_pair(bv, bi, warp_best[0][1], warp_best[1][1]);
        final_score[seq] = bv;
        final_state[seq] = bi;
    }
}

__global__ void traceback(const unsigned char* back, const int* final_state, unsigned char* path) {
    const int seq = blockIdx.x * blockDim.x + threadIdx.x;
    if (seq >= SEQS) return;
    int s = final_state[seq];
    for (int t = T - 1; t >= 0; --t) {
        path[seq * T + t] = (unsigned char)s;
        if (t > 0) s = back[((size_t)seq * T + t) * S + s];
    }
}

int main() {
    g_seed = 1967u;
    std::vector<int> trans(S * S), emit(S * SYMBOLS), start(S);
    for (int i = 0; i < S; ++i)
        for (int j = 0; j < S; ++j) {
            const int d = abs(i - j);
            trans[i * S + j] = d == 0 ? -50 : d == 1 ? -200 : -800 - (int)(next_u32() % 400u);  // sticky chain
        }
    for (int i = 0; i < S; ++i) {
        start[i] = -(int)(next_u32() % 300u);
        for (int k = 0; k < SYMBOLS; ++k) emit[i * SYMBOLS + k] = (k == i % SYMBOLS) ? -100 : -600 - (int)(next_u32() % 300u);
    }
    std::vector<unsigned char> obs(SEQS * T);
    for (int q = 0; q < SEQS; ++q) {
        int state = (int)(next_u32() % S);
        for (int t = 0; t < T; ++t) {
            if ((next_u32() >> 28) == 0u) state = (state + 1 + (int)(next_u32() % 3u)) % S;
            obs[q * T + t] = (unsigned char)((next_u32() >> 29) == 0u ? next_u32() % SYMBOLS : state % SYMBOLS);
        }
    }
    int *d_trans, *d_emit, *d_start, *d_fscore, *d_fstate;
    unsigned char *d_obs, *d_back, *d_path;
    CUDA_CHECK(cudaMalloc(&d_trans, S * S * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_emit, S * SYMBOLS * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_start, S * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_fscore, SEQS * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_fstate, SEQS * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_obs, SEQS * T));
    CUDA_CHECK(cudaMalloc(&d_back, (size_t)SEQS * T * S));
    CUDA_CHECK(cudaMalloc(&d_path, SEQS * T));
    CUDA_CHECK(cudaMemcpy(d_trans, trans.data(), S * S * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_emit, emit.data(), S * SYMBOLS * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_start, start.data(), S * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_obs, obs.data(), SEQS * T, cudaMemcpyHostToDevice));
    viterbi_forward<<<SEQS, S>>>(Hmm{d_trans, d_emit, d_start}, d_obs, d_back, d_fscore, d_fstate);
    CUDA_CHECK(cudaGetLastError());
    traceback<<<1, 32>>>(d_back, d_fstate, d_path);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> fscore(SEQS);
    std::vector<unsigned char> path(SEQS * T);
    CUDA_CHECK(cudaMemcpy(fscore.data(), d_fscore, SEQS * sizeof(int), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(path.data(), d_path, SEQS * T, cudaMemcpyDeviceToHost));

    bool ok = true;
    for (int q = 0; q < SEQS; ++q) {
        std::vector<int> prev(S), cur(S);
        std::vector<unsigned char> bk((size_t)T * S);
        for (int j = 0; j < S; ++j) prev[j] = start[j] + emit[j * SYMBOLS + obs[q * T]];
        for (int t = 1; t < T; ++t) {
            for (int j = 0; j < S; ++j) {
                int best = NEG, arg = 0;
                for (int i = 0; i < S; ++i)
                    if (prev[i] + trans[i * S + j] > best) { best = prev[i] + trans[i * S + j]; arg = i; }
                cur[j] = best + emit[j * SYMBOLS + obs[q * T + t]];
                bk[(size_t)t * S + j] = (unsigned char)arg;
            }
            prev.swap(cur);
        }
        int bs = 0;
        for (int j = 1; j < S; ++j) if (prev[j] > prev[bs]) bs = j;
        if (prev[bs] != fscore[q]) ok = false;
        int changes = 0;
        for (int t = T - 1; t >= 0; --t) {
            if (path[q * T + t] != bs) ok = false;
            if (t > 0) {
                const int nb = bk[(size_t)t * S + bs];
                changes += nb != bs;
                bs = nb;
            }
        }
        printf("seq %d score %d start_state %d end_state %d state_changes %d\n", q, fscore[q], path[q * T], path[q * T + T - 1], changes);
    }
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_trans)); CUDA_CHECK(cudaFree(d_emit)); CUDA_CHECK(cudaFree(d_start));
    CUDA_CHECK(cudaFree(d_fscore)); CUDA_CHECK(cudaFree(d_fstate)); CUDA_CHECK(cudaFree(d_obs));
    CUDA_CHECK(cudaFree(d_back)); CUDA_CHECK(cudaFree(d_path));
    return ok ? 0 : 1;
}
