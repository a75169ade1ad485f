// Cooperative groups members that HIP 5.2 lacks: meta_group_rank, cg::reduce, memcpy_async.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/memcpy_async.h>
namespace cg = cooperative_groups;

__global__ void tile_sums(const double* in, double* out) {
    __shared__ double stage[256];
    __shared__ double tile_totals[8];
    cg::thread_block block = cg::this_thread_block();
    cg::memcpy_async(block, stage, in + blockIdx.x * 256, sizeof(double) * 256);
    cg::wait(block);
    cg::thread_block_tile<32> tile = cg::tiled_partition<32>(block);
    double v = cg::reduce(tile, stage[threadIdx.x], cg::plus<double>());
    if (tile.thread_rank() == 0) tile_totals[tile.meta_group_rank()] = v;
    block.sync();
    if (tile.meta_group_rank() == 0) {
        double t = tile.thread_rank() < tile.meta_group_size() ? tile_totals[tile.thread_rank()] : 0.0;
        t = cg::reduce(tile, t, cg::plus<double>());
        if (tile.thread_rank() == 0) out[blockIdx.x] = t;
    }
}
