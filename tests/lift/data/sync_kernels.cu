// Block synchronisation beyond __syncthreads, one kernel per family: named barriers with thread
// counts and arrive-only warps (PTX bar.sync / bar.arrive), __syncthreads_count/and/or, a cp.async
// double-buffered pipeline (LDGSTS, LDGDEPBAR, DEPBAR), cuda::barrier with memcpy_async
// (mbarrier: ATOMS.ARRIVE on sm_80, SYNCS on sm_90) and raw mbarrier phases with transaction
// counts (sm_90: expect_tx / complete_tx / parity waits). Blocks of 128 threads.
#include <cooperative_groups.h>
#include <cuda/barrier>
#include <cuda_pipeline.h>

namespace cg = cooperative_groups;

extern "C" __global__ void named(const int* in, int* out) {
  __shared__ int buf[128];
  __shared__ int ping[2][64];
  int t = threadIdx.x, base = blockIdx.x * 128;
  if (t < 64) {  // warps 0-1 produce and only arrive; warps 2-3 wait for them
    buf[t] = in[base + t] * 3;
    asm volatile("bar.arrive 1, 128;" ::: "memory");
  } else {
    asm volatile("bar.sync 1, 128;" ::: "memory");
    out[base + t] = buf[127 - t] + t;
  }
  int g = t / 64, k = t % 64, acc = in[base + t];
  for (int r = 0; r < (g ? 5 : 3); ++r) {  // two groups of 64 threads, each on its own barrier
    ping[g][k] = acc;
    if (g) asm volatile("bar.sync 3, 64;" ::: "memory");
    else asm volatile("bar.sync 2, 64;" ::: "memory");
    acc += ping[g][(k + r + 1) % 64];
    if (g) asm volatile("bar.sync 3, 64;" ::: "memory");
    else asm volatile("bar.sync 2, 64;" ::: "memory");
  }
  if (t < 64) out[base + t] = acc;
  else out[base + t] += acc * 7;
}

extern "C" __global__ void reductions(const int* in, int* out) {
  int v = in[blockIdx.x * blockDim.x + threadIdx.x];
  int c = __syncthreads_count(v > 50);
  int a = __syncthreads_and(v >= 0);
  int o = __syncthreads_or(v == 77);
  if (threadIdx.x == 0) {
    out[blockIdx.x * 3] = c;
    out[blockIdx.x * 3 + 1] = a;
    out[blockIdx.x * 3 + 2] = o;
  }
}

extern "C" __global__ void pipelined(const int* in, int* out, int tiles) {
  __shared__ int tile[2][128];
  int t = threadIdx.x, acc = 0;
  __pipeline_memcpy_async(&tile[0][t], &in[t], sizeof(int));
  __pipeline_commit();
  for (int k = 0; k < tiles; ++k) {
    if (k + 1 < tiles) __pipeline_memcpy_async(&tile[(k + 1) & 1][t], &in[(k + 1) * 128 + t], sizeof(int));
    __pipeline_commit();
    __pipeline_wait_prior(1);
    __syncthreads();
    acc += tile[k & 1][(t + k) % 128] * (k + 1);
    __syncthreads();
  }
  out[blockIdx.x * 128 + t] = acc;
}

extern "C" __global__ void barriered(const int* in, int* out) {
  __shared__ int smem[256];
#pragma nv_diag_suppress static_var_with_dynamic_init
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  auto block = cg::this_thread_block();
  if (block.thread_rank() == 0) init(&bar, block.size());
  block.sync();
  cuda::memcpy_async(block, smem, in + blockIdx.x * 256, sizeof(int) * 256, bar);
  bar.arrive_and_wait();
  int t = threadIdx.x;
  out[blockIdx.x * 128 + t] = smem[255 - t] + smem[t];
  for (int r = 0; r < 3; ++r) {  // more phases: write, arrive, wait, read a neighbour
    smem[t] = smem[t] * 2 + r;
    bar.arrive_and_wait();
    int x = smem[(t + 1) % 128];
    bar.arrive_and_wait();
    out[blockIdx.x * 128 + t] += x;
  }
}

extern "C" __global__ void phases(int* out) {
  __shared__ unsigned long long mbar;
  __shared__ int data[128];
  unsigned a = (unsigned)__cvta_generic_to_shared(&mbar);
  int t = threadIdx.x;
  if (t == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(a), "r"(128));
  __syncthreads();
  for (int p = 0; p < 4; ++p) {
    data[t] = t * (p + 1);
    unsigned long long token;
#if __CUDA_ARCH__ >= 900
    if (t == 0) {  // thread 0 also expects 64 "bytes" that thread 1 completes after arriving
      asm volatile("mbarrier.arrive.expect_tx.shared.b64 %0, [%1], 64;" : "=l"(token) : "r"(a) : "memory");
    } else {
      asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(token) : "r"(a) : "memory");
      if (t == 1) asm volatile("mbarrier.complete_tx.shared.b64 [%0], 64;" ::"r"(a) : "memory");
    }
#else
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(token) : "r"(a) : "memory");
#endif
    unsigned done = 0;
    while (!done)
      asm volatile("{.reg .pred q; mbarrier.test_wait.parity.shared.b64 q, [%1], %2; selp.u32 %0, 1, 0, q;}"
                   : "=r"(done) : "r"(a), "r"(p & 1) : "memory");
    out[blockIdx.x * 512 + p * 128 + t] = data[127 - t] + p;
    __syncthreads();
  }
}

int main() { return 0; }
