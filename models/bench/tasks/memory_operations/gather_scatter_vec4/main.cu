// Vectorised gather (float4 rows by index) and scatter (int4 records by permutation) with a scalar tail.
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

// Gather: out_rows[i] = table_rows[idx[i]] where a row is 4 float4 (16 floats).
__global__ void gather_rows(const float4* __restrict__ table, const int* __restrict__ idx, int nrows,
                            float4* __restrict__ out) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;  // one float4 per thread
    const int row = t >> 2, part = t & 3;
    if (row < nrows) out[t] = table[idx[row] * 4 + part];
}

// Scatter whole int4 records to permuted slots, then add a scaled copy of the record's own slot.
__global__ void scatter_records(const int4* __restrict__ rec, const int* __restrict__ perm, int n,
                                int4* __restrict__ out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    int4 r = rec[i];
    r.w = r.x + 2 * r.y - r.z + i;
    out[perm[i]] = r;
}

// Length not a multiple of 4: vector body plus scalar tail.
__global__ void scale_vec4_tail(float* __restrict__ data, int n, float s) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    const int nvec = n / 4;
    if (i < nvec) {
        float4 v = reinterpret_cast<float4*>(data)[i];
        v.x *= s; v.y *= s; v.z *= s; v.w *= s;
        reinterpret_cast<float4*>(data)[i] = v;
    } else if (i < nvec + (n & 3)) {
        data[4 * nvec + (i - nvec)] *= s;
    }
}

int main() {
    g_seed = 2468u;
    const int table_rows = 1024, nrows = 4096, nrec = 8192, ntail = 10003;
    std::vector<float> table(table_rows * 16), gathered(nrows * 16), tail(ntail);
    std::vector<int> idx(nrows), perm(nrec);
    std::vector<int4> rec(nrec), scattered(nrec);
    for (auto& v : table) v = next_uniform();
    for (auto& v : idx) v = (int)(next_u32() % table_rows);
    for (int i = 0; i < nrec; ++i) {
        perm[i] = i;
        const int rx = (int)(next_u32() % 1000);  // one call per statement: argument order is unspecified
        const int ry = (int)(next_u32() % 1000);
        const int rz = (int)(next_u32() % 1000);
        rec[i] = make_int4(rx, ry, rz, 0);
    }
    for (int i = nrec - 1; i > 0; --i) {  // Fisher-Yates with the LCG
        const int j = (int)(next_u32() % (uint32_t)(i + 1));
        const int t = perm[i]; perm[i] = perm[j]; perm[j] = t;
    }
    for (auto& v : tail) v = next_uniform();

    float4 *d_table, *d_gathered;
    int *d_idx, *d_perm;
    int4 *d_rec, *d_scattered;
    float* d_tail;
    CUDA_CHECK(cudaMalloc(&d_table, table.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_gathered, gathered.size() * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_idx, nrows * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_perm, nrec * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&d_rec, nrec * sizeof(int4)));
    CUDA_CHECK(cudaMalloc(&d_scattered, nrec * sizeof(int4)));
    CUDA_CHECK(cudaMalloc(&d_tail, ntail * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d_table, table.data(), table.size() * sizeof(float), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_idx, idx.data(), nrows * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_perm, perm.data(), nrec * sizeof(int), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_rec, rec.data(), nrec * sizeof(int4), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_tail, tail.data(), ntail * sizeof(float), cudaMemcpyHostToDevice));
    gather_rows<<<nrows * 4 / 256, 256>>>(d_table, d_idx, nrows, d_gathered);
    scatter_records<<<nrec / 256, 256>>>(d_rec, d_perm, nrec, d_scattered);
    scale_vec4_tail<<<(ntail / 4 + 3 + 255) / 256, 256>>>(d_tail, ntail, 0.5f);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> tail_out(ntail);
    CUDA_CHECK(cudaMemcpy(gathered.data(), d_gathered, gathered.size() * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(scattered.data(), d_scattered, nrec * sizeof(int4), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(tail_out.data(), d_tail, ntail * sizeof(float), cudaMemcpyDeviceToHost));

    bool ok = true;
    double gsum = 0.0, tsum = 0.0;
    long long ssum = 0;
    for (int r = 0; r < nrows; ++r)
        for (int k = 0; k < 16; ++k) {
            if (gathered[r * 16 + k] != table[idx[r] * 16 + k]) ok = false;
            gsum += gathered[r * 16 + k] * (k + 1);
        }
    for (int i = 0; i < nrec; ++i) {
        const int4 s = scattered[perm[i]];
        if (s.x != rec[i].x || s.y != rec[i].y || s.z != rec[i].z || s.w != rec[i].x + 2 * rec[i].y - rec[i].z + i)
            ok = false;
        ssum += (long long)scattered[i].w * (i % 7);
    }
    for (int i = 0; i < ntail; ++i) {
        if (tail_out[i] != tail[i] * 0.5f) ok = false;
        tsum += tail_out[i];
    }
    printf("gather rows %d scatter records %d tail %d\n", nrows, nrec, ntail);
    printf("gather_weighted %.6e\n", gsum);
    printf("scatter_weighted %lld\n", ssum);
    printf("tail_sum %.6e last %.6e\n", tsum, tail_out[ntail - 1]);
    CUDA_CHECK(cudaFree(d_table));
    CUDA_CHECK(cudaFree(d_gathered));
    CUDA_CHECK(cudaFree(d_idx));
    CUDA_CHECK(cudaFree(d_perm));
    CUDA_CHECK(cudaFree(d_rec));
    CUDA_CHECK(cudaFree(d_scattered));
    CUDA_CHECK(cudaFree(d_tail));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
