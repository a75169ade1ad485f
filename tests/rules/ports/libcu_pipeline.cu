// libcu++ block-scope producer/consumer pipeline: HIP has no counterpart (reported with the route).
#include <cuda/pipeline>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;
__global__ void k(const int* in, int* out) {
  __shared__ int buf[64];
  auto block = cg::this_thread_block();
  __shared__ cuda::pipeline_shared_state<cuda::thread_scope_block, 1> state;
  auto pipe = cuda::make_pipeline(block, &state);
  pipe.producer_acquire();
  cuda::memcpy_async(block, buf, in, sizeof(int) * 64, pipe);
  pipe.producer_commit();
  pipe.consumer_wait();
  out[threadIdx.x] = buf[threadIdx.x];
  pipe.consumer_release();
}
