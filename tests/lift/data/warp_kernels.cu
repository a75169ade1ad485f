// Warp collectives the lifter maps onto wave32: shuffles with widths (segment/clamp masks), match,
// redux, votes in divergent code, a cooperative-groups tile reduction, warp-aggregated atomics
// (VOTEU/UFLO/POPC inserted by ptxas) and the block reductions __syncthreads_count/and/or (BAR.RED).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
extern "C" __global__ void warp_mix(const int* in, int* out) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  int v = in[t];
  int lane = threadIdx.x & 31;
  int r = 0;
  r += __shfl_sync(0xffffffff, v, (lane * 5) & 7, 8);
  r += __shfl_up_sync(0xffffffff, v, 3, 16) * 3;
  r += __shfl_down_sync(0xffffffff, v, 2, 8) * 5;
  r += __shfl_xor_sync(0xffffffff, v, 5, 16) * 7;
  r ^= __match_any_sync(0xffffffff, v & 3);
  int pred;
  unsigned all = __match_all_sync(0xffffffff, v >> 30, &pred);
  r += pred + (int)(all & 1);
  r += __reduce_add_sync(0xffffffff, v) + __reduce_min_sync(0xffffffff, v - 50) * 3 + (int)__reduce_max_sync(0xffffffff, (unsigned)v) * 5;
  r += __reduce_and_sync(0xffffffff, (unsigned)v | 0x100) ^ __reduce_or_sync(0xffffffff, (unsigned)v) ^ __reduce_xor_sync(0xffffffff, (unsigned)v);
  if (v & 1) {   // divergent: collectives over the odd lanes only
    unsigned m = __activemask();
    r += __popc(m) * 11 + __reduce_add_sync(m, v) + __shfl_sync(m, v, __ffs(m) - 1);
    r += __all_sync(m, v > 10) * 13 + __any_sync(m, v > 90) * 17 + (int)(__ballot_sync(m, v & 2) & 0xff);
  }
  cg::thread_block_tile<8> tile = cg::tiled_partition<8>(cg::this_thread_block());
  r += cg::reduce(tile, v, cg::plus<int>()) * 19;
  atomicAdd(&out[256], 1);   // warp-aggregated by ptxas
  int c = __syncthreads_count(v & 4);
  int a = __syncthreads_and(v < 100);
  int o = __syncthreads_or(v == 7);
  out[t] = r + c * 23 + a * 29 + o * 31;
}
