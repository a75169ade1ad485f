// cuRAND host API: XORWOW and Philox uniforms and normals checked by their statistics, and the
// first points of the Sobol32 quasi-random sequence as integers (the one generator family whose
// values, not only statistics, other implementations such as rocRAND reproduce for the same seed).
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>
#include <curand.h>

#define CUDA_CHECK(call)                                                          \
    do {                                                                          \
        cudaError_t err_ = (call);                                                \
        if (err_ != cudaSuccess) {                                                \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                          \
            exit(2);                                                              \
        }                                                                         \
    } while (0)
#define CURAND_CHECK(call)                                                        \
    do {                                                                          \
        curandStatus_t s_ = (call);                                               \
        if (s_ != CURAND_STATUS_SUCCESS) {                                        \
            fprintf(stderr, "cuRAND error %d at %s:%d\n", (int)s_, __FILE__,      \
                    __LINE__);                                                    \
            exit(2);                                                              \
        }                                                                         \
    } while (0)

static int failures = 0;

void stats(const char* name, const std::vector<float>& v, double want_mean, double want_var) {
    double sum = 0, sq = 0;
    for (float x : v) sum += x;
    const double mean = sum / v.size();
    for (float x : v) sq += (x - mean) * (x - mean);
    const double var = sq / (v.size() - 1);
    // printed rounded: these are statistics, whose last digits depend on the generator
    printf("%s mean %.2f variance %.2f\n", name, mean + 0.0, var);
    if (fabs(mean - want_mean) > 0.01 || fabs(var - want_var) > 0.01 * (want_var + 0.1)) ++failures;
}

int main() {
    const size_t n = 1 << 20;
    float* d;
    CUDA_CHECK(cudaMalloc(&d, n * sizeof(float)));
    std::vector<float> h(n);
    const curandRngType_t kinds[2] = {CURAND_RNG_PSEUDO_XORWOW, CURAND_RNG_PSEUDO_PHILOX4_32_10};
    const char* names[2] = {"xorwow", "philox"};
    for (int g = 0; g < 2; ++g) {
        curandGenerator_t gen;
        CURAND_CHECK(curandCreateGenerator(&gen, kinds[g]));
        CURAND_CHECK(curandSetPseudoRandomGeneratorSeed(gen, 1234ULL));
        CURAND_CHECK(curandGenerateUniform(gen, d, n));
        CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
        char label[64];
        snprintf(label, sizeof label, "%s uniform", names[g]);
        stats(label, h, 0.5, 1.0 / 12.0);
        int outside = 0;
        for (float x : h) outside += (x <= 0.0f || x > 1.0f);
        printf("%s uniform outside (0, 1]: %d\n", names[g], outside);
        failures += outside != 0;
        CURAND_CHECK(curandGenerateNormal(gen, d, n, 2.0f, 0.5f));
        CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
        snprintf(label, sizeof label, "%s normal(2, 0.5)", names[g]);
        stats(label, h, 2.0, 0.25);
        CURAND_CHECK(curandDestroyGenerator(gen));
    }

    // Sobol32 in 2 dimensions: the first 8 points of each dimension, as 32-bit integers
    unsigned int* du;
    CUDA_CHECK(cudaMalloc(&du, 16 * sizeof(unsigned int)));
    curandGenerator_t sobol;
    CURAND_CHECK(curandCreateGenerator(&sobol, CURAND_RNG_QUASI_SOBOL32));
    CURAND_CHECK(curandSetQuasiRandomGeneratorDimensions(sobol, 2));
    CURAND_CHECK(curandGenerate(sobol, du, 16));
    std::vector<unsigned int> q(16);
    CUDA_CHECK(cudaMemcpy(q.data(), du, 16 * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    printf("sobol32 dimension 0:");
    for (int i = 0; i < 8; ++i) printf(" %u", q[i]);
    printf("\nsobol32 dimension 1:");
    for (int i = 8; i < 16; ++i) printf(" %u", q[i]);
    printf("\n");
    // a low-discrepancy sequence: within each dimension the first 8 points are all different
    for (int i = 0; i < 16; ++i)
        for (int j = i + 1; j < 16; ++j) failures += (i / 8 == j / 8) && q[i] == q[j];
    CURAND_CHECK(curandDestroyGenerator(sobol));
    CUDA_CHECK(cudaFree(d));
    CUDA_CHECK(cudaFree(du));
    printf(failures ? "CHECK FAIL\n" : "CHECK PASS\n");
    return failures ? 1 : 0;
}
