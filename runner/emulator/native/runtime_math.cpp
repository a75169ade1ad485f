// Fused multiply-add over arrays for the emulator (numpy has no fma): exact v_fma_f64/f32.
#include <cmath>
#include <cstddef>
#include <cstdint>

static inline double quiet(double x) {
    return __builtin_bit_cast(double, __builtin_bit_cast(uint64_t, x) | 0x8000000000000ull);
}
static inline float quiet(float x) {
    return __builtin_bit_cast(float, __builtin_bit_cast(uint32_t, x) | 0x400000u);
}

// The hardware FMA instruction where the CPU has one (same correctly rounded result, ~7x faster
// than the libm call), libm otherwise. A NaN result is the first NaN operand in operand order,
// quieted (fpmath.first_nan): which one the host instruction returns depends on the operand order
// the compiler picked for it.
#define CASS_FMA_CLONES __attribute__((target_clones("fma", "default")))

extern "C" CASS_FMA_CLONES void cass_fma_f64(const double* a, const double* b, const double* c,
                                             double* out, size_t n) {
    for (size_t i = 0; i < n; i++) {
        const double r = std::fma(a[i], b[i], c[i]);
        out[i] = r == r ? r : a[i] != a[i] ? quiet(a[i]) : b[i] != b[i] ? quiet(b[i])
                 : c[i] != c[i] ? quiet(c[i]) : r;
    }
}

extern "C" CASS_FMA_CLONES void cass_fma_f32(const float* a, const float* b, const float* c,
                                             float* out, size_t n) {
    for (size_t i = 0; i < n; i++) {
        const float r = std::fmaf(a[i], b[i], c[i]);
        out[i] = r == r ? r : a[i] != a[i] ? quiet(a[i]) : b[i] != b[i] ? quiet(b[i])
                 : c[i] != c[i] ? quiet(c[i]) : r;
    }
}
