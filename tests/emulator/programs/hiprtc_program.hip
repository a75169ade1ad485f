// hipRTC on the emulator: a templated kernel compiled at run time, found by its lowered name,
// launched through the module API; then a program with an error, whose log must name the line.
#include <hip/hip_runtime.h>
#include <hip/hiprtc.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#define CHECK(x)                                                                    \
    do {                                                                            \
        hiprtcResult r_ = (x);                                                      \
        if (r_ != HIPRTC_SUCCESS) {                                                 \
            printf("%s failed: %s\n", #x, hiprtcGetErrorString(r_));                \
            return 1;                                                               \
        }                                                                           \
    } while (0)

static const char* kSource = R"(
#include "scale.h"
template <typename T>
__global__ void axpy(T a, const T* x, T* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i] + SCALE_OFFSET;
}
)";

int main() {
    int major = 0, minor = 0;
    CHECK(hiprtcVersion(&major, &minor));
    const char* header = "#define SCALE_OFFSET ((T)OFFSET)\n";
    const char* header_name = "scale.h";
    hiprtcProgram prog;
    CHECK(hiprtcCreateProgram(&prog, kSource, "axpy.cu", 1, &header, &header_name));
    CHECK(hiprtcAddNameExpression(prog, "axpy<float>"));
    CHECK(hiprtcAddNameExpression(prog, "&axpy<double>"));
    const char* lowered = nullptr;
    if (hiprtcGetLoweredName(prog, "axpy<float>", &lowered) !=
        HIPRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION) {
        printf("lowered name before compilation\n");
        return 1;
    }
    const char* opts[] = {"-DOFFSET=1", "--std=c++17", "-default-device"};
    CHECK(hiprtcCompileProgram(prog, 3, opts));
    if (hiprtcAddNameExpression(prog, "axpy<int>") !=
        HIPRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION) {
        printf("name expression accepted after compilation\n");
        return 1;
    }
    const char *lf = nullptr, *ld = nullptr;
    CHECK(hiprtcGetLoweredName(prog, "axpy<float>", &lf));
    CHECK(hiprtcGetLoweredName(prog, "&axpy<double>", &ld));
    printf("lowered %s %s\n", lf, ld);
    size_t size = 0;
    CHECK(hiprtcGetCodeSize(prog, &size));
    std::vector<char> code(size);
    CHECK(hiprtcGetCode(prog, code.data()));

    hipModule_t module;
    hipFunction_t fn;
    if (hipModuleLoadData(&module, code.data()) != hipSuccess) return 1;
    if (hipModuleGetFunction(&fn, module, lf) != hipSuccess) return 1;
    const int n = 1000;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) x[i] = 0.5f * i, y[i] = 2.0f;
    float *dx, *dy;
    hipMalloc(&dx, n * sizeof(float));
    hipMalloc(&dy, n * sizeof(float));
    hipMemcpy(dx, x.data(), n * sizeof(float), hipMemcpyHostToDevice);
    hipMemcpy(dy, y.data(), n * sizeof(float), hipMemcpyHostToDevice);
    float a = 3.0f;
    int count = n;
    void* args[] = {&a, &dx, &dy, &count};
    if (hipModuleLaunchKernel(fn, (n + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr) !=
        hipSuccess)
        return 1;
    hipMemcpy(y.data(), dy, n * sizeof(float), hipMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; ++i)
        if (std::fabs(y[i] - (3.0f * 0.5f * i + 2.0f + 1.0f)) > 1e-4f) ++bad;
    printf("axpy<float>: %d wrong\n", bad);
    CHECK(hiprtcDestroyProgram(&prog));

    hiprtcProgram broken;
    CHECK(hiprtcCreateProgram(&broken, "__global__ void k(float* y) {\n  y[0] = missing;\n}\n",
                              "broken.cu", 0, nullptr, nullptr));
    hiprtcResult r = hiprtcCompileProgram(broken, 0, nullptr);
    size_t log_size = 0;
    CHECK(hiprtcGetProgramLogSize(broken, &log_size));
    std::vector<char> log(log_size);
    CHECK(hiprtcGetProgramLog(broken, log.data()));
    printf("broken: %s\n", hiprtcGetErrorString(r));
    printf("log: %s", strstr(log.data(), "broken.cu:2:10: error") ? "located\n" : log.data());
    hiprtcDestroyProgram(&broken);
    puts(bad == 0 && r == HIPRTC_ERROR_COMPILATION ? "hiprtc_program: PASS" : "FAIL");
    return 0;
}
