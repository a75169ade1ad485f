// sm_90 bulk asynchronous copies, one kernel per form: cuda::memcpy_async of 16-byte-aligned
// sizes into a block-scope cuda::barrier (UBLKCP.S.G + the mbarrier's transaction count, over
// two phases of one barrier), and inline PTX cp.async.bulk global -> shared with
// mbarrier::complete_tx, shared -> global and cp.reduce.async.bulk add (UBLKCP.G.S, UBLKRED),
// prefetch, commit and wait_group (UBLKPF, UTMACMDFLUSH, DEPBAR). On sm_80 the first kernel is
// an LDGSTS pipeline instead.
#include <cuda/barrier>
#pragma nv_diag_suppress static_var_with_dynamic_init

using block_barrier = cuda::barrier<cuda::thread_scope_block>;

extern "C" __global__ void bulk_barrier(const int* in, int* out) {
  __shared__ alignas(128) int tile[2][256];
  __shared__ block_barrier bar;
  const int t = threadIdx.x, base = blockIdx.x * 512;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  for (int phase = 0; phase < 2; ++phase) {
    if (t == 0)
      cuda::memcpy_async(tile[phase], in + base + phase * 256, cuda::aligned_size_t<16>(1024), bar);
    bar.arrive_and_wait();
    out[base + phase * 256 + t] = tile[phase][255 - t] * 3 + phase;
  }
}

extern "C" __global__ void bulk_ptx(const int* in, int* copy, int* sums) {
#if __CUDA_ARCH__ >= 900  // an empty kernel for sm_80
  __shared__ alignas(128) int tile[256];
  __shared__ alignas(8) unsigned long long mbar;
  const unsigned sm = (unsigned)__cvta_generic_to_shared(tile);
  const unsigned mb = (unsigned)__cvta_generic_to_shared(&mbar);
  const int t = threadIdx.x;
  if (t == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mb));
    asm volatile("fence.proxy.async.shared::cta;");
  }
  __syncthreads();
  if (t == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(1024));
    asm volatile(
        "cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
        ::"r"(sm), "l"(in + blockIdx.x * 256), "r"(1024), "r"(mb) : "memory");
  }
  asm volatile(
      "{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0; @!p bra W; }"
      ::"r"(mb));
  tile[t] = tile[t] * 2 + t;
  asm volatile("fence.proxy.async.shared::cta;");
  __syncthreads();
  if (t == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;"
                 ::"l"(copy + blockIdx.x * 256), "r"(sm), "r"(1024) : "memory");
    asm volatile("cp.reduce.async.bulk.global.shared::cta.bulk_group.add.s32 [%0], [%1], %2;"
                 ::"l"(sums), "r"(sm), "r"(1024) : "memory");
    asm volatile("cp.async.bulk.prefetch.L2.global [%0], %1;" ::"l"(in), "r"(1024));
    asm volatile("cp.async.bulk.commit_group;");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
#endif
}
