// hipRAND's device API (Debian's hiprand_kernel.h: rocRAND's header-only generators, nothing of
// cass's) compiled for gfx1100 and run on the emulator; tests/emulator/test_emulated_hiprand_device.py
// checks the draws' distributions. 128 threads, each its own subsequence of one seed, 32 draws each.
#include <hip/hip_runtime.h>
#include <hiprand/hiprand_kernel.h>

#include <cstdio>
#include <vector>

constexpr int kThreads = 128, kDraws = 32, kN = kThreads * kDraws;

template <typename State>
__global__ void draw(unsigned long long seed, float* uniform, float* normal, double* uniform2) {
    const int id = threadIdx.x;
    State state;
    hiprand_init(seed, id, 0, &state);
    for (int i = 0; i < kDraws; ++i) {
        uniform[id * kDraws + i] = hiprand_uniform(&state);
        normal[id * kDraws + i] = hiprand_normal(&state);
        uniform2[id * kDraws + i] = hiprand_uniform_double(&state);
    }
}

template <typename T>
void show(const char* generator, const char* what, const T* d) {
    std::vector<T> h(kN);
    hipMemcpy(h.data(), d, kN * sizeof(T), hipMemcpyDeviceToHost);
    printf("%s_%s", generator, what);
    for (T v : h) printf(" %.9g", (double)v);
    printf("\n");
}

template <typename State>
void run(const char* generator, float* u, float* n, double* d) {
    draw<State><<<1, kThreads>>>(1234ULL, u, n, d);
    show(generator, "uniform", u);
    show(generator, "normal", n);
    show(generator, "double", d);
    draw<State><<<1, kThreads>>>(1234ULL, u, n, d);  // the same seed again: the same numbers
    show(generator, "again", u);
}

int main() {
    float *u, *n;
    double* d;
    hipMalloc(&u, kN * sizeof(float));
    hipMalloc(&n, kN * sizeof(float));
    hipMalloc(&d, kN * sizeof(double));
    run<hiprandStateXORWOW_t>("xorwow", u, n, d);
    run<hiprandStatePhilox4_32_10_t>("philox", u, n, d);
    run<hiprandStateMRG32k3a_t>("mrg32k3a", u, n, d);
    return hipDeviceSynchronize() == hipSuccess ? 0 : 1;
}
