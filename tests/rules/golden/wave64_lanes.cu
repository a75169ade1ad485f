// cass-target: gfx90a 5.2
// Lane arithmetic written for 32-lane warps, ported for a wave64 target.
#include <cuda_runtime.h>

__global__ void lanes(const int* in, int* out) {
    int lane = threadIdx.x % 32;
    int warp = threadIdx.x >> 5;
    unsigned below = (1u << lane) - 1;
    int v = in[threadIdx.x];
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffff, v, offset);
    unsigned votes = __ballot_sync(0xffffffff, v > 0);
    out[threadIdx.x] = warp * 1000 + lane + __popc(votes & below);
}
