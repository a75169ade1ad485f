// Runtime calls whose HIP signatures differ from CUDA's.
#include <cuda_runtime.h>
#include <cstdio>

__constant__ float coeffs[4];
__device__ int counter;

__global__ void __launch_bounds__(256, 2) scale(float* data, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) data[i] *= coeffs[i % 4];
    if (i == 0) atomicAdd(&counter, 1);
}

int run(cudaStream_t stream) {
    float h_coeffs[4] = {1, 2, 3, 4};
    cudaMemcpyToSymbol(coeffs, h_coeffs, sizeof(h_coeffs));
    float* pinned;
    cudaMallocHost(&pinned, 1024 * sizeof(float));
    unsigned short* img; size_t pitch;
    cudaMallocPitch(&img, &pitch, 640 * sizeof(unsigned short), 480);
    cudaFuncSetAttribute(scale, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
    cudaGraph_t graph; cudaGraphExec_t exec;
    cudaStreamBeginCapture(stream, cudaStreamCaptureModeGlobal);
    scale<<<4, 256, 0, stream>>>(pinned, 1024);
    cudaStreamEndCapture(stream, &graph);
    cudaGraphInstantiate(&exec, graph, 0);
    cudaGraphLaunch(exec, stream);
    int count = 0;
    cudaMemcpyFromSymbol(&count, counter, sizeof(int));
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    printf("%s %d\n", prop.name, count);
    cudaFreeHost(pinned);
    cudaFree(img);
    return 0;
}
