// Runtime compilation with NVRTC: a templated AXPY and a templated block reduction (warp shuffles,
// a tree in shared memory) compiled at run time, instantiated for float and double through name
// expressions, found by their lowered names and launched through the driver API. The host checks
// every result against its own computation.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#define NVRTC_CHECK(call)                                                          \
    do {                                                                           \
        nvrtcResult r_ = (call);                                                   \
        if (r_ != NVRTC_SUCCESS) {                                                 \
            fprintf(stderr, "NVRTC error %s at line %d\n", nvrtcGetErrorString(r_), \
                    __LINE__);                                                     \
            exit(2);                                                               \
        }                                                                          \
    } while (0)
#define CUDA_CHECK(call)                                                             \
    do {                                                                           \
        CUresult r_ = (call);                                                      \
        if (r_ != CUDA_SUCCESS) {                                                  \
            fprintf(stderr, "driver error %d at line %d\n", (int)r_, __LINE__);    \
            exit(2);                                                               \
        }                                                                          \
    } while (0)

static const char* kKernels = R"(
template <typename T>
__global__ void axpy(T a, const T* x, T* y, int n) {
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        y[i] = a * x[i] + y[i];
}

template <typename T, int BLOCK>
__global__ void block_sum(const T* in, T* partial, int n) {
    __shared__ T warp_sums[BLOCK / 32];
    T v = 0;
    for (int i = blockIdx.x * BLOCK + threadIdx.x; i < n; i += gridDim.x * BLOCK) v += in[i];
    for (int offset = 16; offset > 0; offset /= 2) v += __shfl_down_sync(0xffffffffu, v, offset);
    if (threadIdx.x % 32 == 0) warp_sums[threadIdx.x / 32] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        T s = 0;
        for (int w = 0; w < BLOCK / 32; ++w) s += warp_sums[w];
        partial[blockIdx.x] = s;
    }
}
)";

static uint32_t g_seed = 2024u;
static double next_uniform() {  // uniform in [-1, 1)
    g_seed = g_seed * 1664525u + 1013904223u;
    return (double)(g_seed >> 8) * (2.0 / 16777216.0) - 1.0;
}

struct Compiled {
    CUmodule module;
    CUfunction axpy_f, axpy_d, sum_f, sum_d;
};

static Compiled compile_kernels() {
    nvrtcProgram prog;
    NVRTC_CHECK(nvrtcCreateProgram(&prog, kKernels, "kernels.cu", 0, nullptr, nullptr));
    const char* names[] = {"axpy<float>", "axpy<double>", "block_sum<float, 256>",
                           "block_sum<double, 256>"};
    for (const char* name : names) NVRTC_CHECK(nvrtcAddNameExpression(prog, name));
    const char* opts[] = {"--std=c++17"};
    nvrtcResult built = nvrtcCompileProgram(prog, 1, opts);
    size_t log_size = 0;
    NVRTC_CHECK(nvrtcGetProgramLogSize(prog, &log_size));
    if (built != NVRTC_SUCCESS) {
        std::vector<char> log(log_size);
        NVRTC_CHECK(nvrtcGetProgramLog(prog, log.data()));
        fprintf(stderr, "compilation failed:\n%s\n", log.data());
        exit(2);
    }
    size_t code_size = 0;
    NVRTC_CHECK(nvrtcGetPTXSize(prog, &code_size));
    std::vector<char> code(code_size);
    NVRTC_CHECK(nvrtcGetPTX(prog, code.data()));
    Compiled c;
    CUDA_CHECK(cuModuleLoadData(&c.module, code.data()));
    CUfunction* slots[] = {&c.axpy_f, &c.axpy_d, &c.sum_f, &c.sum_d};
    for (int k = 0; k < 4; ++k) {
        const char* lowered = nullptr;
        NVRTC_CHECK(nvrtcGetLoweredName(prog, names[k], &lowered));
        CUDA_CHECK(cuModuleGetFunction(slots[k], c.module, lowered));
    }
    NVRTC_CHECK(nvrtcDestroyProgram(&prog));
    return c;
}

template <typename T>
static bool run_case(const Compiled& c, CUfunction axpy, CUfunction sum, int n, T a,
                     const char* label) {
    std::vector<T> x(n), y(n);
    for (int i = 0; i < n; ++i) x[i] = (T)next_uniform(), y[i] = (T)next_uniform();
    const int blocks = 48, threads = 256;
    CUdeviceptr dx, dy, dp;
    CUDA_CHECK(cuMemAlloc(&dx, n * sizeof(T)));
    CUDA_CHECK(cuMemAlloc(&dy, n * sizeof(T)));
    CUDA_CHECK(cuMemAlloc(&dp, blocks * sizeof(T)));
    CUDA_CHECK(cuMemcpyHtoD(dx, x.data(), n * sizeof(T)));
    CUDA_CHECK(cuMemcpyHtoD(dy, y.data(), n * sizeof(T)));
    void* axpy_args[] = {&a, &dx, &dy, &n};
    CUDA_CHECK(cuLaunchKernel(axpy, blocks, 1, 1, threads, 1, 1, 0, nullptr, axpy_args, nullptr));
    void* sum_args[] = {&dy, &dp, &n};
    CUDA_CHECK(cuLaunchKernel(sum, blocks, 1, 1, threads, 1, 1, 0, nullptr, sum_args, nullptr));
    CUDA_CHECK(cuCtxSynchronize());
    std::vector<T> out(n), partial(blocks);
    CUDA_CHECK(cuMemcpyDtoH(out.data(), dy, n * sizeof(T)));
    CUDA_CHECK(cuMemcpyDtoH(partial.data(), dp, blocks * sizeof(T)));
    double max_err = 0, device_sum = 0, host_sum = 0, abs_sum = 0;
    for (int i = 0; i < n; ++i) {
        T expect = a * x[i] + y[i];
        max_err = fmax(max_err, fabs((double)out[i] - (double)expect));
        host_sum += (double)expect;
        abs_sum += fabs((double)expect);
    }
    for (int b = 0; b < blocks; ++b) device_sum += (double)partial[b];
    double tol = sizeof(T) == 4 ? 1e-5 : 1e-12;
    bool ok = max_err <= tol && fabs(device_sum - host_sum) <= tol * abs_sum;
    printf("%s n %d axpy max error %.3e sum %.6f (host %.6f) %s\n", label, n, max_err,
           device_sum, host_sum, ok ? "ok" : "WRONG");
    CUDA_CHECK(cuMemFree(dx));
    CUDA_CHECK(cuMemFree(dy));
    CUDA_CHECK(cuMemFree(dp));
    return ok;
}

int main() {
    int major = 0, minor = 0;
    NVRTC_CHECK(nvrtcVersion(&major, &minor));
    CUDA_CHECK(cuInit(0));
    CUdevice device;
    CUDA_CHECK(cuDeviceGet(&device, 0));
    CUcontext context;
    CUDA_CHECK(cuDevicePrimaryCtxRetain(&context, device));
    CUDA_CHECK(cuCtxSetCurrent(context));
    Compiled c = compile_kernels();
    bool ok = true;
    ok &= run_case<float>(c, c.axpy_f, c.sum_f, 20000, 1.5f, "float ");
    ok &= run_case<double>(c, c.axpy_d, c.sum_d, 30011, -0.75, "double");
    ok &= run_case<float>(c, c.axpy_f, c.sum_f, 777, 3.0f, "float ");
    CUDA_CHECK(cuModuleUnload(c.module));
    CUDA_CHECK(cuDevicePrimaryCtxRelease(device));
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
