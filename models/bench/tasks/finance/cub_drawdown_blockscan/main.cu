// Trading-account analytics with CUB block primitives: one block per account loads 1024 daily P&L values
// (integer cents) with cub::BlockLoad, forms the equity curve with an inclusive cub::BlockScan (sum),
// the running peak with a second scan (max), and reduces the largest peak-to-trough drawdown and the
// final equity with cub::BlockReduce. Totals across accounts use 64-bit atomics.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <algorithm>
#include <climits>
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

#include <cub/block/block_load.cuh>
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>

constexpr int THREADS = 128;
constexpr int PER_THREAD = 8;
constexpr int DAYS = THREADS * PER_THREAD;
constexpr int ACCOUNTS = 64;

struct MaxOp {
    __host__ __device__ long long operator()(long long a, long long b) const { return a > b ? a : b; }
};

__global__ void account_stats(const long long* pnl, long long* final_equity, long long* max_drawdown,
                              unsigned long long* total_positive_days) {
    using Load = cub::BlockLoad<long long, THREADS, PER_THREAD, cub::BLOCK_LOAD_TRANSPOSE>;
    using Scan = cub::BlockScan<long long, THREADS>;
    using Reduce = cub::BlockReduce<long long, THREADS>;
    __shared__ union {
        typename Load::TempStorage load;
        typename Scan::TempStorage scan;
        typename Reduce::TempStorage reduce;
    } temp;
    long long v[PER_THREAD], equity[PER_THREAD], peak[PER_THREAD];
    Load(temp.load).Load(pnl + (size_t)blockIdx.x * DAYS, v);
    __syncthreads();
    unsigned long long positive = 0;
    for (int k = 0; k < PER_THREAD; ++k) positive += v[k] > 0;
    Scan(temp.scan).InclusiveSum(v, equity);
    __syncthreads();
    Scan(temp.scan).InclusiveScan(equity, peak, MaxOp());
    __syncthreads();
    long long dd = 0;
    for (int k = 0; k < PER_THREAD; ++k) dd = max(dd, (peak[k] > 0 ? peak[k] : 0) - equity[k]);  // peak includes start 0
    const long long block_dd = Reduce(temp.reduce).Reduce(dd, MaxOp());
    __syncthreads();
    const long long last = Reduce(temp.reduce).Reduce(threadIdx.x == THREADS - 1 ? equity[PER_THREAD - 1] : LLONG_MIN, MaxOp());
    if (threadIdx.x == 0) {
        max_drawdown[blockIdx.x] = block_dd;
        final_equity[blockIdx.x] = last;
    }
    atomicAdd(total_positive_days, positive);
}

int main() {
    g_seed = 1637u;
    std::vector<long long> pnl((size_t)ACCOUNTS * DAYS);
    for (int a = 0; a < ACCOUNTS; ++a) {
        const long long edge = (long long)(a % 7) - 3;  // some accounts drift up, some down
        for (int d = 0; d < DAYS; ++d) pnl[(size_t)a * DAYS + d] = (long long)(next_u32() % 20001u) - 10000 + edge * 25;
    }
    long long *d_pnl, *d_final, *d_dd;
    unsigned long long* d_pos;
    CUDA_CHECK(cudaMalloc(&d_pnl, pnl.size() * sizeof(long long)));
    CUDA_CHECK(cudaMalloc(&d_final, ACCOUNTS * sizeof(long long)));
    CUDA_CHECK(cudaMalloc(&d_dd, ACCOUNTS * sizeof(long long)));
    CUDA_CHECK(cudaMalloc(&d_pos, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemset(d_pos, 0, sizeof(unsigned long long)));
    CUDA_CHECK(cudaMemcpy(d_pnl, pnl.data(), pnl.size() * sizeof(long long), cudaMemcpyHostToDevice));
    account_stats<<<ACCOUNTS, THREADS>>>(d_pnl, d_final, d_dd, d_pos);
    CUDA_CHECK(cudaGetLastError());
    std::vector<long long> fin(ACCOUNTS), dd(ACCOUNTS);
    unsigned long long pos = 0;
    CUDA_CHECK(cudaMemcpy(fin.data(), d_final, ACCOUNTS * sizeof(long long), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(dd.data(), d_dd, ACCOUNTS * sizeof(long long), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&pos, d_pos, sizeof(pos), cudaMemcpyDeviceToHost));

    bool ok = true;
    unsigned long long rpos = 0;
    long long dd_sum = 0, fin_sum = 0, worst = 0;
    int worst_acct = 0;
    for (int a = 0; a < ACCOUNTS; ++a) {
        long long eq = 0, peak = 0, mdd = 0;
        for (int d = 0; d < DAYS; ++d) {
            const long long v = pnl[(size_t)a * DAYS + d];
            rpos += v > 0;
            eq += v;
            peak = std::max(peak, eq);
            mdd = std::max(mdd, peak - eq);
        }
        if (eq != fin[a] || mdd != dd[a]) ok = false;
        dd_sum += dd[a];
        fin_sum += fin[a];
        if (dd[a] > worst) { worst = dd[a]; worst_acct = a; }
    }
    if (rpos != pos) ok = false;
    printf("accounts %d days %d positive_days %llu\n", ACCOUNTS, DAYS, pos);
    printf("sum_final_equity_cents %lld sum_max_drawdown_cents %lld\n", fin_sum, dd_sum);
    printf("worst account %d drawdown %lld final %lld\n", worst_acct, worst, fin[worst_acct]);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_pnl));
    CUDA_CHECK(cudaFree(d_final));
    CUDA_CHECK(cudaFree(d_dd));
    CUDA_CHECK(cudaFree(d_pos));
    return ok ? 0 : 1;
}
