// Exercises cass's reference hipRAND host API on the emulator; tests/emulator/test_emulated_hiprand.py
// checks Philox and Sobol32 word for word against Python and the pseudo generators' statistics.
#include <hip/hip_runtime.h>
#include <hiprand/hiprand.h>

#include <cmath>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                  \
    do {                                                          \
        hiprandStatus_t s_ = (x);                                 \
        if (s_ != HIPRAND_STATUS_SUCCESS) {                       \
            printf("FAIL %s -> %d\n", #x, (int)s_);               \
            return 1;                                             \
        }                                                         \
    } while (0)

int main() {
    unsigned int* words;
    float* f;
    hipMalloc(&words, 64 * sizeof(unsigned int));
    const size_t n = 1 << 16;
    hipMalloc(&f, n * sizeof(float));
    std::vector<unsigned int> w(16);

    hiprandGenerator_t g;
    CHECK(hiprandCreateGenerator(&g, HIPRAND_RNG_PSEUDO_PHILOX4_32_10));
    CHECK(hiprandSetPseudoRandomGeneratorSeed(g, 0x123456789abcdefULL));
    CHECK(hiprandGenerate(g, words, 12));
    CHECK(hiprandGenerate(g, words + 12, 4));  // continues the sequence
    hipMemcpy(w.data(), words, 16 * sizeof(unsigned int), hipMemcpyDeviceToHost);
    printf("philox");
    for (unsigned v : w) printf(" %u", v);
    printf("\n");
    CHECK(hiprandSetGeneratorOffset(g, 5));
    CHECK(hiprandGenerate(g, words, 3));
    hipMemcpy(w.data(), words, 3 * sizeof(unsigned int), hipMemcpyDeviceToHost);
    printf("philox_offset5 %u %u %u\n", w[0], w[1], w[2]);
    printf("odd_normal %d\n", (int)hiprandGenerateNormal(g, f, 3, 0.0f, 1.0f));
    CHECK(hiprandDestroyGenerator(g));

    CHECK(hiprandCreateGenerator(&g, HIPRAND_RNG_QUASI_SOBOL32));
    CHECK(hiprandSetQuasiRandomGeneratorDimensions(g, 2));
    CHECK(hiprandGenerate(g, words, 32));
    std::vector<unsigned int> q(32);
    hipMemcpy(q.data(), words, 32 * sizeof(unsigned int), hipMemcpyDeviceToHost);
    printf("sobol");
    for (unsigned v : q) printf(" %u", v);
    printf("\n");
    printf("sobol_dims3 %d\n", (int)hiprandSetQuasiRandomGeneratorDimensions(g, 3));
    CHECK(hiprandDestroyGenerator(g));

    for (hiprandRngType_t t : {HIPRAND_RNG_PSEUDO_XORWOW, HIPRAND_RNG_PSEUDO_PHILOX4_32_10}) {
        CHECK(hiprandCreateGeneratorHost(&g, t));  // host output
        CHECK(hiprandSetPseudoRandomGeneratorSeed(g, 42));
        std::vector<float> h(n);
        CHECK(hiprandGenerateUniform(g, h.data(), n));
        double sum = 0, sq = 0, lo = 2, hi = -1;
        for (float v : h) sum += v, lo = fmin(lo, v), hi = fmax(hi, v);
        for (float v : h) sq += (v - sum / n) * (v - sum / n);
        printf("uniform%d %.6f %.6f %.9g %.9g\n", (int)t, sum / n, sq / (n - 1), lo, hi);
        CHECK(hiprandGenerateNormal(g, h.data(), n, 1.0f, 2.0f));
        sum = sq = 0;
        for (float v : h) sum += v;
        for (float v : h) sq += (v - sum / n) * (v - sum / n);
        printf("normal%d %.6f %.6f\n", (int)t, sum / n, sq / (n - 1));
        CHECK(hiprandDestroyGenerator(g));
    }
    printf("mtgp %d\n", (int)hiprandCreateGenerator(&g, HIPRAND_RNG_PSEUDO_MTGP32));
    return 0;
}
