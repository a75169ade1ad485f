// Run-time specialization with NVRTC: a tiled matrix multiply whose tile size and inner
// dimension are compile-time constants of a program built when the sizes are known (-D options),
// with a fused bias + activation from an in-memory header, and a row-softmax kernel with
// extern "C" linkage found by its plain name. Device memory comes from the runtime API, the
// launches from the driver API. The host recomputes everything in double precision.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <string>
#include <vector>
#include <cuda.h>
#include <cuda_runtime.h>
#include <nvrtc.h>

#define CHECK_NVRTC(call)                                                             \
    do {                                                                              \
        nvrtcResult r_ = (call);                                                      \
        if (r_ != NVRTC_SUCCESS) {                                                    \
            fprintf(stderr, "%s: %s\n", #call, nvrtcGetErrorString(r_));              \
            exit(2);                                                                  \
        }                                                                             \
    } while (0)
#define CHECK_CU(call)                                                                \
    do {                                                                              \
        CUresult r_ = (call);                                                         \
        if (r_ != CUDA_SUCCESS) {                                                     \
            fprintf(stderr, "%s: driver error %d\n", #call, (int)r_);                 \
            exit(2);                                                                  \
        }                                                                             \
    } while (0)

static const char* kActivationHeader =
    "#pragma once\n"
    "__device__ inline float activate(float v) {\n"
    "    return v > 0.0f ? v : 0.01f * v;  // leaky ReLU\n"
    "}\n";

static const char* kProgram =
    "#include \"activation.h\"\n"
    "template <int TILE>\n"
    "__global__ void __launch_bounds__(TILE * TILE)\n"
    "matmul_bias_act(const float* __restrict__ A, const float* __restrict__ B,\n"
    "                const float* __restrict__ bias, float* C, int M, int N) {\n"
    "    __shared__ float As[TILE][TILE + 1];\n"
    "    __shared__ float Bs[TILE][TILE + 1];\n"
    "    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;\n"
    "    float acc = 0.0f;\n"
    "    for (int k0 = 0; k0 < K_DIM; k0 += TILE) {\n"
    "        int ka = k0 + threadIdx.x, kb = k0 + threadIdx.y;\n"
    "        As[threadIdx.y][threadIdx.x] = (row < M && ka < K_DIM) ? __ldg(&A[row * K_DIM + ka]) : 0.0f;\n"
    "        Bs[threadIdx.y][threadIdx.x] = (kb < K_DIM && col < N) ? __ldg(&B[kb * N + col]) : 0.0f;\n"
    "        __syncthreads();\n"
    "#pragma unroll\n"
    "        for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];\n"
    "        __syncthreads();\n"
    "    }\n"
    "    if (row < M && col < N) C[row * N + col] = activate(acc + bias[col]);\n"
    "}\n"
    "extern \"C\" __global__ void row_softmax(float* C, int M, int N) {\n"
    "    int row = blockIdx.x * blockDim.x + threadIdx.x;\n"
    "    if (row >= M) return;\n"
    "    float m = -3.402823466e+38f;\n"
    "    for (int j = 0; j < N; ++j) m = fmaxf(m, C[row * N + j]);\n"
    "    float s = 0.0f;\n"
    "    for (int j = 0; j < N; ++j) s += __expf(C[row * N + j] - m);\n"
    "    for (int j = 0; j < N; ++j) C[row * N + j] = __expf(C[row * N + j] - m) / s;\n"
    "}\n";

static uint32_t g_seed = 77u;
static float next_uniform() {  // uniform in [-1, 1)
    g_seed = g_seed * 1664525u + 1013904223u;
    return (float)((double)(g_seed >> 8) * (2.0 / 16777216.0) - 1.0);
}

int main() {
    const int M = 70, K = 53, N = 45;
    const int tile = 16;
    std::vector<float> A(M * K), B(K * N), bias(N);
    for (auto& v : A) v = next_uniform();
    for (auto& v : B) v = next_uniform();
    for (auto& v : bias) v = 0.5f * next_uniform();

    nvrtcProgram prog;
    const char* header_name = "activation.h";
    CHECK_NVRTC(nvrtcCreateProgram(&prog, kProgram, "matmul.cu", 1, &kActivationHeader,
                                   &header_name));
    std::string instance = "matmul_bias_act<" + std::to_string(tile) + ">";
    CHECK_NVRTC(nvrtcAddNameExpression(prog, instance.c_str()));
    std::string k_define = "-DK_DIM=" + std::to_string(K);
    const char* opts[] = {k_define.c_str(), "--use_fast_math"};
    if (nvrtcCompileProgram(prog, 2, opts) != NVRTC_SUCCESS) {
        size_t size;
        CHECK_NVRTC(nvrtcGetProgramLogSize(prog, &size));
        std::string log(size, '\0');
        CHECK_NVRTC(nvrtcGetProgramLog(prog, &log[0]));
        fprintf(stderr, "compile failed:\n%s\n", log.c_str());
        return 2;
    }
    const char* lowered;
    CHECK_NVRTC(nvrtcGetLoweredName(prog, instance.c_str(), &lowered));
    size_t code_size;
    CHECK_NVRTC(nvrtcGetPTXSize(prog, &code_size));
    std::vector<char> code(code_size);
    CHECK_NVRTC(nvrtcGetPTX(prog, code.data()));

    CHECK_CU(cuInit(0));
    cudaFree(0);  // the runtime creates the primary context the driver calls use
    CUmodule module;
    CUfunction matmul, softmax;
    CHECK_CU(cuModuleLoadData(&module, code.data()));
    CHECK_CU(cuModuleGetFunction(&matmul, module, lowered));
    CHECK_CU(cuModuleGetFunction(&softmax, module, "row_softmax"));
    CHECK_NVRTC(nvrtcDestroyProgram(&prog));

    float *dA, *dB, *dbias, *dC;
    cudaMalloc(&dA, A.size() * sizeof(float));
    cudaMalloc(&dB, B.size() * sizeof(float));
    cudaMalloc(&dbias, bias.size() * sizeof(float));
    cudaMalloc(&dC, M * N * sizeof(float));
    cudaMemcpy(dA, A.data(), A.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dB, B.data(), B.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dbias, bias.data(), bias.size() * sizeof(float), cudaMemcpyHostToDevice);
    cudaError_t status = cudaGetLastError();
    if (status != cudaSuccess) {
        fprintf(stderr, "CUDA error %s\n", cudaGetErrorString(status));
        return 2;
    }
    int m = M, n = N;
    void* mm_args[] = {&dA, &dB, &dbias, &dC, &m, &n};
    CHECK_CU(cuLaunchKernel(matmul, (N + tile - 1) / tile, (M + tile - 1) / tile, 1, tile, tile,
                            1, 0, nullptr, mm_args, nullptr));
    std::vector<float> act(M * N), probs(M * N);
    cudaMemcpy(act.data(), dC, act.size() * sizeof(float), cudaMemcpyDeviceToHost);
    void* sm_args[] = {&dC, &m, &n};
    CHECK_CU(cuLaunchKernel(softmax, (M + 63) / 64, 1, 1, 64, 1, 1, 0, nullptr, sm_args, nullptr));
    CHECK_CU(cuCtxSynchronize());
    cudaMemcpy(probs.data(), dC, probs.size() * sizeof(float), cudaMemcpyDeviceToHost);

    double act_err = 0, prob_err = 0, checksum = 0;
    for (int i = 0; i < M; ++i) {
        std::vector<double> ref(N);
        double mx = -1e300, s = 0;
        for (int j = 0; j < N; ++j) {
            double acc = bias[j];
            for (int k = 0; k < K; ++k) acc += (double)A[i * K + k] * B[k * N + j];
            ref[j] = acc > 0 ? acc : 0.01 * acc;
            act_err = fmax(act_err, fabs(ref[j] - act[i * N + j]));
            mx = fmax(mx, ref[j]);
        }
        for (int j = 0; j < N; ++j) s += exp(ref[j] - mx);
        for (int j = 0; j < N; ++j) {
            prob_err = fmax(prob_err, fabs(exp(ref[j] - mx) / s - probs[i * N + j]));
            checksum += probs[i * N + j] * (j + 1);
        }
    }
    printf("M %d K %d N %d tile %d\n", M, K, N, tile);
    printf("activation max error %.2e (below 1e-4: %s)\n", act_err, act_err < 1e-4 ? "yes" : "no");
    printf("softmax max error below 1e-5: %s\n", prob_err < 1e-5 ? "yes" : "no");
    printf("expected column index checksum %.4f\n", checksum / M);
    bool ok = act_err < 1e-4 && prob_err < 1e-5;
    CHECK_CU(cuModuleUnload(module));
    cudaFree(dA);
    cudaFree(dB);
    cudaFree(dbias);
    cudaFree(dC);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    return ok ? 0 : 1;
}
