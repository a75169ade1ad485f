#include <cstdio>
#include <cuda_runtime.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

__global__ void warp_ops(int* out) {
    int lane = threadIdx.x;
    int key = lane % 5;
    unsigned same = __match_any_sync(0xffffffff, key);
    unsigned even = __ballot_sync(0xffffffff, lane % 2 == 0);
    unsigned sum = __reduce_add_sync(0xffffffff, (unsigned)lane);
    int mn = __reduce_min_sync(0xffffffff, 100 - lane);
    int mx = __reduce_max_sync(0xffffffff, lane * 3);
    unsigned anyv = __any_sync(0xffffffff, lane == 7);
    unsigned allv = __all_sync(0xffffffff, lane < 32);
    int x = __shfl_xor_sync(0xffffffff, lane, 1);
    __syncwarp();
    int dp = __dp4a(0x01020304, 0x01010101, 10);
    cg::thread_block block = cg::this_thread_block();
    cg::thread_block_tile<16> tile = cg::tiled_partition<16>(block);
    int tsum = cg::reduce(tile, lane, cg::plus<int>());
    out[lane * 12 + 0] = __popc(same);
    out[lane * 12 + 1] = __popc(even);
    out[lane * 12 + 2] = sum;
    out[lane * 12 + 3] = mn;
    out[lane * 12 + 4] = mx;
    out[lane * 12 + 5] = anyv;
    out[lane * 12 + 6] = allv;
    out[lane * 12 + 7] = x;
    out[lane * 12 + 8] = dp;
    out[lane * 12 + 9] = tsum;
    out[lane * 12 + 10] = tile.meta_group_rank();
    out[lane * 12 + 11] = tile.meta_group_size();
}

int main() {
    int* d; cudaMalloc(&d, 32 * 12 * sizeof(int));
    warp_ops<<<1, 32>>>(d);
    int h[32 * 12];
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    for (int l = 0; l < 32; ++l) {
        for (int k = 0; k < 12; ++k) printf("%d ", h[l * 12 + k]);
        printf("\n");
    }
    return 0;
}
