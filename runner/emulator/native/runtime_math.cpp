// Fused multiply-add over arrays for the emulator (numpy has no fma): exact v_fma_f64/f32.
#include <cmath>
#include <cstddef>

// The hardware FMA instruction where the CPU has one (same correctly rounded result, ~7x faster
// than the libm call), libm otherwise.
#define CASS_FMA_CLONES __attribute__((target_clones("fma", "default")))

extern "C" CASS_FMA_CLONES void cass_fma_f64(const double* a, const double* b, const double* c,
                                             double* out, size_t n) {
    for (size_t i = 0; i < n; i++) out[i] = std::fma(a[i], b[i], c[i]);
}

extern "C" CASS_FMA_CLONES void cass_fma_f32(const float* a, const float* b, const float* c,
                                             float* out, size_t n) {
    for (size_t i = 0; i < n; i++) out[i] = std::fmaf(a[i], b[i], c[i]);
}
