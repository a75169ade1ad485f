// cp.async.bulk.tensor with a CUtensorMap (UTMALDG, UTMASTG, UTMAPF on sm_90): the lifter reports
// each as a located error, the tensor map's layout being undocumented and without a HIP
// counterpart.
#include <cuda.h>

extern "C" __global__ void tma_copy(const __grid_constant__ CUtensorMap map, int* out) {
  __shared__ alignas(128) int tile[16 * 16];
  __shared__ alignas(8) unsigned long long mbar;
  const unsigned sm = (unsigned)__cvta_generic_to_shared(tile);
  const unsigned mb = (unsigned)__cvta_generic_to_shared(&mbar);
  if (threadIdx.x == 0) asm volatile("mbarrier.init.shared::cta.b64 [%0], 1;" ::"r"(mb));
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 _, [%0], %1;" ::"r"(mb), "r"(1024));
    asm volatile(
        "cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes"
        " [%0], [%1, {%2, %3}], [%4];" ::"r"(sm), "l"(&map), "r"(0), "r"(16), "r"(mb) : "memory");
  }
  asm volatile(
      "{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], 0; @!p bra W; }"
      ::"r"(mb));
  out[threadIdx.x] = tile[threadIdx.x];
  __syncthreads();
  if (threadIdx.x == 0) {
    asm volatile("cp.async.bulk.tensor.2d.global.shared::cta.tile.bulk_group [%0, {%1, %2}], [%3];"
                 ::"l"(&map), "r"(0), "r"(0), "r"(sm) : "memory");
    asm volatile("cp.async.bulk.prefetch.tensor.2d.L2.global [%0, {%1, %2}];"
                 ::"l"(&map), "r"(0), "r"(0));
  }
}
