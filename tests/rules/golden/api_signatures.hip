// Runtime calls whose HIP signatures differ from CUDA's.
#include <hip/hip_runtime.h>
#include <cstdio>

__constant__ float coeffs[4];
__device__ int counter;

__global__ void __launch_bounds__(256) __attribute__((amdgpu_waves_per_eu(4))) scale(float* data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= coeffs[i % 4];
    if (i == 0) atomicAdd(&counter, 1);
}

int run(hipStream_t stream) {
    float h_coeffs[4] = {1, 2, 3, 4};
    hipMemcpyToSymbol(HIP_SYMBOL(coeffs), h_coeffs, sizeof(h_coeffs));
    float* pinned;
    hipHostMalloc(&pinned, 1024 * sizeof(float), hipHostMallocDefault);
    unsigned short* img; size_t pitch;
    hipMallocPitch((void**)(&img), &pitch, 640 * sizeof(unsigned short), 480);
    hipFuncSetAttribute(reinterpret_cast<const void*>(scale), hipFuncAttributeMaxDynamicSharedMemorySize, 0);
    hipGraph_t graph; hipGraphExec_t exec;
    hipStreamBeginCapture(stream, hipStreamCaptureModeGlobal);
    scale<<<4, 256, 0, stream>>>(pinned, 1024);
    hipStreamEndCapture(stream, &graph);
    hipGraphInstantiateWithFlags(&exec, graph, 0);
    hipGraphLaunch(exec, stream);
    int count = 0;
    hipMemcpyFromSymbol(&count, HIP_SYMBOL(counter), sizeof(int));
    hipDeviceProp_t prop;
    hipGetDeviceProperties(&prop, 0);
    printf("%s %d\n", prop.name, count);
    hipHostFree(pinned);
    hipFree(img);
    return 0;
}
