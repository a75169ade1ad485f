// cass-target: gfx90a 5.2
// Lane arithmetic written for 32-lane warps, ported for a wave64 target.
#include <hip/hip_runtime.h>

__global__ void lanes(const int* in, int* out) {
    int lane = threadIdx.x % warpSize;
    int warp = threadIdx.x / warpSize;
    unsigned long long below = (1ull << lane) - 1;
    int v = in[threadIdx.x];
    for (int offset = warpSize / 2; offset > 0; offset >>= 1) v += __shfl_xor(v, offset);
    unsigned long long votes = __ballot(v > 0);
    out[threadIdx.x] = warp * 1000 + lane + __popcll(votes & below);
}
