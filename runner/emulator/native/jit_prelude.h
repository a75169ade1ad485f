// The part of every translated kernel that does not depend on the kernel: the launch context
// shared with Python (runner/emulator/jit/native.py mirrors it field by field), the checked
// memory accesses, the floating-point helpers with the interpreter's semantics, and the entry
// point that runs waves on worker threads. The translator (runner/emulator/jit/translate.py)
// makes a translation unit per part of the code object (this prelude and one function that runs
// a wave from its PC until it reaches an instruction it does not translate, a barrier, another
// part, the end of the program or its step budget) and a main one (run_wave, which calls the
// part of a wave's PC). The entry point (CASS_JIT_MAIN) is the same for every kernel: compiled
// once per prelude into an object that every kernel's library links.
#include <cmath>
#include <cstdint>
#include <cstring>
#ifdef CASS_JIT_MAIN  // the parts need no threads (parsing these headers is most of a part's cost)
#include <atomic>
#include <thread>
#include <vector>
#endif

struct Ctx {
    uint32_t* V;            // [vgprs][waves][32]
    uint32_t* S;            // [128][waves]
    uint32_t* SCC;          // [waves]
    int64_t* PC;            // [waves]
    uint8_t* alive;         // [waves]
    const int64_t* wave_wg; // [waves]
    int64_t W;
    int64_t vgprs;
    const uint64_t* bases;  // allocation table, sorted
    const uint64_t* limits;
    int64_t regions;
    uint8_t* lds;
    int64_t lds_bytes;
    int64_t lds_stride;
    uint64_t code_base;
    int64_t max_steps;      // wave instructions one wave may run per call
    int64_t threads;
    int64_t wave_instructions;  // out
    int64_t lane_instructions;  // out
    int64_t fault_code;     // out: 0 none, else FAULT_*
    int64_t fault_wave;
    int64_t fault_lane;
    int64_t fault_pc;
    uint64_t fault_address;
    int64_t fault_bytes;
    uint8_t* barrier;       // [waves]: waiting at s_barrier
    int64_t wg_count;
    uint8_t* scratch;       // [waves][32][scratch_stride], or null: scratch is interpreted
    int64_t scratch_stride;
    int64_t private_limit;  // bytes of private memory per lane
    uint32_t* race_shadow;  // [LDS bytes][4] (runner/emulator/races.py), or null: not checked
    uint32_t* race_barriers;  // [waves]: s_barriers passed
    int64_t* race_report;   // [6]: conflicts, then the first one's wave, other, pc, offset, write
};

enum {
    FAULT_LOAD = 1, FAULT_STORE = 2, FAULT_SCALAR = 3, FAULT_ATOMIC = 4, FAULT_MISALIGNED = 5,
    FAULT_SCRATCH_LOAD = 6, FAULT_SCRATCH_STORE = 7
};

struct Fault {
    int64_t code = 0, lane = 0, pc = 0, bytes = 0;
    uint64_t address = 0;
};

struct alignas(64) Counts {  // one cache line per thread: counted every instruction
    int64_t wave = 0, lane = 0;
};

// the parts of one library call each other only: never bound to another library's parts
#define HIDDEN __attribute__((visibility("hidden")))
#define LANES _Pragma("clang loop vectorize(assume_safety)") for (int l = 0; l < 32; ++l)

static inline float bf(uint32_t x) { return __builtin_bit_cast(float, x); }
static inline uint32_t fb(float x) { return __builtin_bit_cast(uint32_t, x); }
static inline double bd(uint64_t x) { return __builtin_bit_cast(double, x); }
static inline uint64_t db(double x) { return __builtin_bit_cast(uint64_t, x); }
static inline _Float16 hf(uint32_t x) { return __builtin_bit_cast(_Float16, (uint16_t)x); }
static inline uint16_t fh(_Float16 x) { return __builtin_bit_cast(uint16_t, x); }
static inline uint64_t u64of(uint32_t lo, uint32_t hi) { return (uint64_t)hi << 32 | lo; }
// An LDS access by wave w of nbytes at byte `off` of its workgroup's block, checked against and
// recorded in the race shadow as runner/emulator/races.py's LdsRaces._check does.
static inline void race_check(Ctx* c, int64_t w, int64_t pc, uint32_t off, int nbytes,
                              bool write) {
    uint32_t* sh = c->race_shadow + ((uint64_t)c->wave_wg[w] * c->lds_stride + off) * 4;
    const uint32_t me = (uint32_t)w + 1, epoch = c->race_barriers[w];
    for (int b = 0; b < nbytes; ++b, sh += 4) {
        uint32_t other = 0;
        if (sh[0] && sh[0] != me && sh[1] == epoch) other = sh[0];
        else if (write && sh[2] && sh[2] != me && sh[3] == epoch) other = sh[2];
        if (other) {
            int64_t* r = c->race_report;
            if (!r[0]) {
                r[1] = w; r[2] = other == 0xFFFFFFFFu ? -1 : (int64_t)other - 1;
                r[3] = pc; r[4] = (int64_t)off + b; r[5] = write;
            }
            ++r[0];
        }
        if (write) {
            sh[0] = me; sh[1] = epoch;
        } else {
            if (!sh[2] || sh[3] != epoch) sh[2] = me;
            else if (sh[2] != me) sh[2] = 0xFFFFFFFFu;
            sh[3] = epoch;
        }
    }
}

static inline uint32_t sel(uint32_t exec, int l, uint32_t now, uint32_t old) {
    return ((exec >> l) & 1u) ? now : old;
}

// Which NaN an arithmetic operation returns, as the interpreter's (fpmath.first_nan): the first
// NaN operand in operand order, quieted. Checked after the operation, not left to the host's
// instruction: clang folds a negated source into a subtraction (x86 then returns the unflipped
// NaN) and commutes additions and FMA operands (x86 returns its first source's NaN).
static inline float quiet(float x) { return bf(fb(x) | 0x400000u); }
static inline double quiet(double x) { return bd(db(x) | 0x8000000000000ull); }
static inline _Float16 quiet(_Float16 x) { return hf(fh(x) | 0x200u); }
template <class T> static inline T first_nan(T r) { return r; }  // no operand is a NaN
template <class T, class... U> static inline T first_nan(T r, T x, U... rest) {
    return r == r ? r : x != x ? quiet(x) : first_nan(r, rest...);
}
static inline float add_f32(float a, float b) { return first_nan(a + b, a, b); }
static inline float sub_f32(float a, float b) { return first_nan(a - b, a, b); }
static inline float mul_f32(float a, float b) { return first_nan(a * b, a, b); }
static inline double add_f64(double a, double b) { return first_nan(a + b, a, b); }
static inline double mul_f64(double a, double b) { return first_nan(a * b, a, b); }
static inline _Float16 add_f16(_Float16 a, _Float16 b) {
    return first_nan((_Float16)((float)a + (float)b), a, b);
}
static inline _Float16 sub_f16(_Float16 a, _Float16 b) {
    return first_nan((_Float16)((float)a - (float)b), a, b);
}
static inline _Float16 mul_f16(_Float16 a, _Float16 b) {
    return first_nan((_Float16)((float)a * (float)b), a, b);
}
static inline float fma_f32(float a, float b, float c) {
    return first_nan(__builtin_fmaf(a, b, c), a, b, c);
}
static inline double fma_f64(double a, double b, double c) {
    return first_nan(__builtin_fma(a, b, c), a, b, c);
}

// IEEE-mode minimum and maximum as fpmath.ieee_min/ieee_max: a NaN operand yields the other
static inline float fmin_ieee(float a, float b) {
    if (b != b) return a;
    if (a != a) return b;
    return (a < b || (a == 0 && b == 0 && std::signbit(a) && !std::signbit(b))) ? a : b;
}
static inline float fmax_ieee(float a, float b) {
    if (b != b) return a;
    if (a != a) return b;
    return (a > b || (a == 0 && b == 0 && !std::signbit(a) && std::signbit(b))) ? a : b;
}
static inline double dmin_ieee(double a, double b) {
    if (b != b) return a;
    if (a != a) return b;
    return (a < b || (a == 0 && b == 0 && std::signbit(a) && !std::signbit(b))) ? a : b;
}
static inline double dmax_ieee(double a, double b) {
    if (b != b) return a;
    if (a != a) return b;
    return (a > b || (a == 0 && b == 0 && !std::signbit(a) && std::signbit(b))) ? a : b;
}
static inline _Float16 hmin_ieee(_Float16 a, _Float16 b) {
    if (b != b) return a;
    if (a != a) return b;
    return (a < b || (a == 0 && b == 0 && (fh(a) >> 15) && !(fh(b) >> 15))) ? a : b;
}
static inline _Float16 hmax_ieee(_Float16 a, _Float16 b) {
    if (b != b) return a;
    if (a != a) return b;
    return (a > b || (a == 0 && b == 0 && !(fh(a) >> 15) && (fh(b) >> 15))) ? a : b;
}
// f16 arithmetic as numpy's: the operation in f32 (or, fma, the f64 sum of the exact product),
// one rounding to f16
static inline _Float16 hround(float x) { return (_Float16)x; }
static inline _Float16 hfma(_Float16 a, _Float16 b, _Float16 c) {
    return first_nan((_Float16)((double)a * (double)b + (double)c), a, b, c);
}
static inline float fmed3(float a, float b, float c) {
    if (a != a || b != b || c != c) return fmin_ieee(fmin_ieee(a, b), c);
    float mx = fmax_ieee(fmax_ieee(a, b), c);
    if (mx == a) return fmax_ieee(b, c);
    if (mx == b) return fmax_ieee(a, c);
    return fmax_ieee(a, b);
}
// saturating conversions as fpmath.to_int: NaN -> 0, truncation toward zero
static inline uint32_t to_i32(double x) {
    if (x != x) return 0;
    x = std::trunc(x);
    if (x <= -2147483648.0) return 0x80000000u;
    if (x >= 2147483647.0) return 0x7FFFFFFFu;
    return (uint32_t)(int32_t)x;
}
static inline uint32_t to_u32(double x) {
    if (x != x) return 0;
    x = std::trunc(x);
    if (x <= 0.0) return 0;
    if (x >= 4294967295.0) return 0xFFFFFFFFu;
    return (uint32_t)x;
}
static inline float fract_f32(float x) {
    if (std::isinf(x)) return bf(0x7FC00000u);
    float f = x - std::floor(x);
    const float limit = bf(0x3F7FFFFFu);
    return (f != f || f < limit) ? f : limit;
}
static inline float ldexp_f32(float x, int32_t e) {
    if (e < -2000) e = -2000;
    if (e > 2000) e = 2000;
    return std::ldexp(x, e);
}
// the class index of v_cmp_class (fpmath.cmp_class): bit of the mask tested for x
static inline uint32_t fclass(float x) {
    const uint32_t b = fb(x);
    const int e = (int)((b >> 23) & 0xFF);
    const bool neg = b >> 31;
    if (x != x) return (b >> 22) & 1u;
    if (e == 255) return neg ? 2 : 9;
    if (e > 0) return neg ? 3 : 8;
    if (x != 0) return neg ? 4 : 7;
    return neg ? 5 : 6;
}

static inline uint32_t fclass(double x) {
    const uint64_t b = db(x);
    const int e = (int)((b >> 52) & 0x7FF);
    const bool neg = b >> 63;
    if (x != x) return (uint32_t)((b >> 51) & 1u);
    if (e == 2047) return neg ? 2 : 9;
    if (e > 0) return neg ? 3 : 8;
    if (x != 0) return neg ? 4 : 7;
    return neg ? 5 : 6;
}
static inline double fract_f64(double x) {
    if (std::isinf(x)) return bd(0x7FF8000000000000ull);
    double f = x - std::floor(x);
    const double limit = bd(0x3FEFFFFFFFFFFFFFull);
    return (f != f || f < limit) ? f : limit;
}
static inline double ldexp_f64(double x, int32_t e) {
    if (e < -2000) e = -2000;
    if (e > 2000) e = 2000;
    return std::ldexp(x, e);
}
// fpmath.frexp_mant / frexp_exp: infinities and NaNs keep their value, exponent 0
template <class T> static inline T frexp_mant(T x) {
    int e;
    return (std::isinf(x) || x != x) ? x : std::frexp(x, &e);
}
template <class T> static inline uint32_t frexp_exp(T x) {
    int e = 0;
    if (std::isinf(x) || x != x) return 0;
    std::frexp(x, &e);
    return (uint32_t)e;
}

// the division helpers as fpmath.div_scale / div_fmas / div_fixup (f32, then f64)
static inline int fexp(float x) { return (int)((fb(x) >> 23) & 0xFF); }
static inline bool fdenorm(float x) { return fexp(x) == 0 && x != 0; }
static inline float div_scale_f32(float s0, float s1, float s2, bool& vcc) {
    const int e1 = fexp(s1), e2 = fexp(s2);
    const double inv = 1.0 / (double)s1;
    const float quo = s2 / s1;
    const bool inv_den = inv != 0 && std::fabs(inv) < 1.1754943508222875e-38;
    const bool quo_den = fdenorm(quo);
    const float up = std::ldexp(s0, 64), down = std::ldexp(s0, -64);
    const bool zero = s2 == 0 || s1 == 0;
    const bool c1 = !zero && e2 - e1 >= 96;
    const bool c2 = !zero && !c1 && fdenorm(s1);
    const bool c3 = !zero && !c1 && !c2 && inv_den && quo_den;
    const bool c4 = !zero && !c1 && !c2 && !c3 && inv_den;
    const bool c5 = !zero && !c1 && !c2 && !c3 && !c4 && quo_den;
    const bool c6 = !zero && !c1 && !c2 && !c3 && !c4 && !c5 && e2 <= 23;
    float d = zero ? bf(0x7FC00000u) : s0;
    if ((c1 || c3) && s0 == s1) d = up;
    if (c2 || c6) d = up;
    if (c4) d = down;
    if (c5 && s0 == s2) d = up;
    vcc = c1 || c3 || c5;
    return d;
}
static inline float div_fmas_f32(float a, float b, float c, bool vcc) {
    const float r = fma_f32(a, b, c);
    return vcc ? std::ldexp(r, fexp(c) > 127 ? 64 : -64) : r;
}
static inline float div_fixup_f32(float s0, float s1, float s2) {
    const bool sign = std::signbit(s1) != std::signbit(s2);
    const float qnan = bf(0x7FC00000u);
    if (s2 != s2 || s1 != s1) return qnan;
    if (s1 == 0 && s2 == 0) return qnan;
    if (std::isinf(s1) && std::isinf(s2)) return qnan;
    if (s1 == 0 || std::isinf(s2)) return sign ? -INFINITY : INFINITY;
    if (std::isinf(s1) || s2 == 0) return sign ? -0.0f : 0.0f;
    const int e1 = fexp(s1), e2 = fexp(s2);
    if (e2 - e1 < -150) return sign ? -0.0f : 0.0f;
    if (e1 == 255) return sign ? -3.4028234663852886e38f : 3.4028234663852886e38f;
    return sign ? -std::fabs(s0) : std::fabs(s0);
}

static inline int dexp(double x) { return (int)((db(x) >> 52) & 0x7FF); }
static inline bool ddenorm(double x) { return dexp(x) == 0 && x != 0; }
static inline double div_scale_f64(double s0, double s1, double s2, bool& vcc) {
    const int e1 = dexp(s1), e2 = dexp(s2);
    const double inv = 1.0 / s1;
    const double quo = s2 / s1;
    const bool inv_den = inv != 0 && std::fabs(inv) < 2.2250738585072014e-308;
    const bool quo_den = ddenorm(quo);
    const double up = ldexp_f64(s0, 128), down = ldexp_f64(s0, -128);
    const bool zero = s2 == 0 || s1 == 0;
    const bool c1 = !zero && e2 - e1 >= 768;
    const bool c2 = !zero && !c1 && ddenorm(s1);
    const bool c3 = !zero && !c1 && !c2 && inv_den && quo_den;
    const bool c4 = !zero && !c1 && !c2 && !c3 && inv_den;
    const bool c5 = !zero && !c1 && !c2 && !c3 && !c4 && quo_den;
    const bool c6 = !zero && !c1 && !c2 && !c3 && !c4 && !c5 && e2 <= 53;
    double d = zero ? bd(0x7FF8000000000000ull) : s0;
    if ((c1 || c3) && s0 == s1) d = up;
    if (c2 || c6) d = up;
    if (c4) d = down;
    if (c5 && s0 == s2) d = up;
    vcc = c1 || c3 || c5;
    return d;
}
static inline double div_fmas_f64(double a, double b, double c, bool vcc) {
    const double r = fma_f64(a, b, c);
    return vcc ? ldexp_f64(r, dexp(c) > 1023 ? 128 : -128) : r;
}
static inline double div_fixup_f64(double s0, double s1, double s2) {
    const bool sign = std::signbit(s1) != std::signbit(s2);
    const double qnan = bd(0x7FF8000000000000ull);
    if (s2 != s2 || s1 != s1) return qnan;
    if (s1 == 0 && s2 == 0) return qnan;
    if (std::isinf(s1) && std::isinf(s2)) return qnan;
    if (s1 == 0 || std::isinf(s2)) return sign ? -INFINITY : INFINITY;
    if (std::isinf(s1) || s2 == 0) return sign ? -0.0 : 0.0;
    const int e1 = dexp(s1), e2 = dexp(s2);
    if (e2 - e1 < -1075) return sign ? -0.0 : 0.0;
    if (e1 == 2047) return sign ? -1.7976931348623157e308 : 1.7976931348623157e308;
    return sign ? -std::fabs(s0) : std::fabs(s0);
}

// WMMA as ops_wmma: D = A x B + C over one 16x16x16 tile per wave, in double, every lane
// written; A and B from lanes 0-15 (lane = row of A / column of B, K packed low first)
enum { WMMA_F16 = 0, WMMA_BF16 = 1, WMMA_IU8 = 2, WMMA_IU4 = 3 };
static inline double bf16_to_double(uint32_t h) { return (double)bf((h & 0xFFFFu) << 16); }
static inline uint32_t double_to_bf16(double x) {
    const uint32_t bits = fb((float)x);
    if (x != x) return ((bits >> 16) | 0x40u) & 0xFFFFu;
    return ((bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16) & 0xFFFFu;
}
static inline void wmma_operand(const uint32_t* const* rows, int kind, bool is_signed, double (*out)[16],
                                int64_t (*iout)[16]) {
    for (int lane = 0; lane < 16; ++lane) {
        for (int k = 0; k < 16; ++k) {
            if (kind == WMMA_F16 || kind == WMMA_BF16) {
                const uint32_t h = (rows[k / 2][lane] >> (16 * (k & 1))) & 0xFFFFu;
                out[lane][k] = kind == WMMA_F16 ? (double)hf(h) : bf16_to_double(h);
            } else if (kind == WMMA_IU8) {
                const uint32_t b = (rows[k / 4][lane] >> (8 * (k & 3))) & 0xFFu;
                iout[lane][k] = is_signed ? (int64_t)(int8_t)b : (int64_t)b;
            } else {
                const uint32_t nib = (rows[k / 8][lane] >> (4 * (k & 7))) & 0xFu;
                iout[lane][k] = is_signed && nib >= 8 ? (int64_t)nib - 16 : (int64_t)nib;
            }
        }
    }
}

static inline uint32_t bfe_u(uint32_t a, uint32_t off, uint32_t size) {
    off &= 31; size &= 31;
    return (a >> off) & ((1u << size) - 1u);
}
static inline uint32_t bfe_i(uint32_t a, uint32_t off, uint32_t size) {
    off &= 31; size &= 31;
    uint32_t r = (a >> off) & ((1u << size) - 1u);
    if (size == 0) return 0;
    uint32_t shift = (32 - size) & 31;
    return (uint32_t)((int32_t)(r << shift) >> shift);
}
static inline uint64_t sbfe(uint64_t a, uint64_t b, bool is_signed, int width) {
    uint64_t off = b & (width == 64 ? 0x3F : 0x1F);
    uint64_t size = (b >> 16) & 0x7F;
    if (size > (uint64_t)width) size = width;
    uint64_t raw = (width == 64 ? a : (uint32_t)a) >> off;
    uint64_t mask = size >= (uint64_t)width ? ~0ull : ((1ull << size) - 1);
    if (width == 32) mask &= 0xFFFFFFFFull;
    uint64_t r = raw & mask;
    if (is_signed && size > 0 && size < (uint64_t)width && ((r >> (size - 1)) & 1)) r |= ~mask;
    return width == 32 ? (r & 0xFFFFFFFFull) : r;
}
static inline uint32_t clz_or_ones(uint32_t a) { return a ? (uint32_t)__builtin_clz(a) : 0xFFFFFFFFu; }
static inline uint32_t cls_or_ones(uint32_t a) { return clz_or_ones((int32_t)a < 0 ? ~a : a); }
static inline uint32_t ctz_or_ones(uint64_t a) { return a ? (uint32_t)__builtin_ctzll(a) : 0xFFFFFFFFu; }
static inline int32_t i24(uint32_t a) { return (int32_t)(a << 8) >> 8; }

// global memory: every access inside one allocation of the table (device pointer == host pointer)
static inline bool inside(const Ctx* c, uint64_t a, uint64_t n, int64_t& hint) {
    int64_t h = hint;
    if (h >= 0 && a >= c->bases[h] && a + n <= c->limits[h] && a + n >= a) return true;
    int64_t lo = 0, hi = c->regions;  // last base <= a
    while (lo < hi) {
        int64_t mid = (lo + hi) / 2;
        if (c->bases[mid] <= a) lo = mid + 1; else hi = mid;
    }
    h = lo - 1;
    if (h < 0 || a + n > c->limits[h] || a + n < a) return false;
    hint = h;
    return true;
}

static inline void fault(Fault& f, int64_t code, int64_t lane, uint64_t address, int64_t bytes) {
    f.code = code; f.lane = lane; f.address = address; f.bytes = bytes;
}

// scratch (private) accesses of one wave, out of line (compiled once, not per instruction):
// 1 when an active lane's offset O[l] passes the private segment (the fault, as the
// interpreter's), 2 when it passes the array grown so far (the interpreter runs it), else 0
static __attribute__((noinline)) int scratch_check(const Ctx* c, uint32_t exec, const uint32_t* O,
                                                   uint32_t n, Fault& f, int64_t code) {
    for (int l = 0; l < 32; ++l)
        if (((exec >> l) & 1u) && (uint64_t)O[l] + n > (uint64_t)c->private_limit) {
            fault(f, code, l, O[l], n);
            return 1;
        }
    for (int l = 0; l < 32; ++l)
        if (((exec >> l) & 1u) && (uint64_t)O[l] + n > (uint64_t)c->scratch_stride) return 2;
    return 0;
}
// ext: 0 whole dwords, 1 u8, 2 i8, 3 u16, 4 i16 (zero- or sign-extended into T[0])
static __attribute__((noinline)) void scratch_load(const Ctx* c, int64_t w, uint32_t exec,
                                                   const uint32_t* O, uint32_t n, int ext,
                                                   uint32_t (*T)[32]) {
    const uint8_t* const priv = c->scratch + w * 32 * c->scratch_stride;
    for (int l = 0; l < 32; ++l) {
        if (!((exec >> l) & 1u)) continue;
        const uint8_t* p = priv + l * c->scratch_stride + O[l];
        if (ext == 0) {
            uint32_t t[4];
            std::memcpy(t, p, n);
            for (uint32_t d = 0; d < n / 4; ++d) T[d][l] = t[d];
        } else if (ext <= 2) {
            T[0][l] = ext == 1 ? (uint32_t)p[0] : (uint32_t)(int32_t)(int8_t)p[0];
        } else {
            uint16_t h;
            std::memcpy(&h, p, 2);
            T[0][l] = ext == 3 ? (uint32_t)h : (uint32_t)(int32_t)(int16_t)h;
        }
    }
}
static __attribute__((noinline)) void scratch_store(const Ctx* c, int64_t w, uint32_t exec,
                                                    const uint32_t* O, uint32_t n,
                                                    const uint32_t* const* rows) {
    uint8_t* const priv = c->scratch + w * 32 * c->scratch_stride;
    for (int l = 0; l < 32; ++l) {
        if (!((exec >> l) & 1u)) continue;
        uint32_t t[4];
        for (uint32_t d = 0; d < (n + 3) / 4; ++d) t[d] = rows[d][l];
        std::memcpy(priv + l * c->scratch_stride + O[l], t, n);
    }
}

// global atomics, one lane at a time in lane order (ops_memory.ATOMICS); atomic across threads
static inline uint32_t atomic_u32(uint64_t a, int op, uint32_t s, uint32_t cmp) {
    uint32_t* p = (uint32_t*)a;
    switch (op) {
        case 0: return __atomic_fetch_add(p, s, __ATOMIC_SEQ_CST);
        case 1: return __atomic_fetch_sub(p, s, __ATOMIC_SEQ_CST);
        case 2: return __atomic_fetch_and(p, s, __ATOMIC_SEQ_CST);
        case 3: return __atomic_fetch_or(p, s, __ATOMIC_SEQ_CST);
        case 4: return __atomic_fetch_xor(p, s, __ATOMIC_SEQ_CST);
        case 5: return __atomic_exchange_n(p, s, __ATOMIC_SEQ_CST);
    }
    uint32_t old = __atomic_load_n(p, __ATOMIC_SEQ_CST), now;
    do {
        switch (op) {
            case 6: now = (int32_t)old < (int32_t)s ? old : s; break;   // min_i32
            case 7: now = (int32_t)old > (int32_t)s ? old : s; break;   // max_i32
            case 8: now = old < s ? old : s; break;                     // min_u32
            case 9: now = old > s ? old : s; break;                     // max_u32
            case 10: now = old == cmp ? s : old; break;                 // cmpswap_b32
            default: now = fb(bf(old) + bf(s)); break;                  // add_f32
        }
    } while (!__atomic_compare_exchange_n(p, &old, now, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST));
    return old;
}

// the dispatcher: runs a wave from its PC in the part holding it (the kernel's own main unit)
HIDDEN int run_wave(Ctx* c, int64_t w, Counts& k, Fault& f);

#ifdef CASS_JIT_MAIN  // the entry point, the same for every kernel: compiled once, then linked

// one round: every wave of `waves` runs on the worker threads until it stops; the index (into
// `waves`) of the first faulting wave, or -1
static int64_t run_round(Ctx* c, const int64_t* waves, int64_t n, std::vector<Counts>& counts,
                         std::vector<Fault>& faults) {
    std::atomic<int64_t> next{0};
    std::vector<int64_t> fault_of(counts.size(), -1);
    // threads take runs of CHUNK waves: a wave's SGPRs share cache lines with its neighbours'
    const int64_t CHUNK = 16;
    auto work = [&](size_t t) {
        for (int64_t first; (first = next.fetch_add(CHUNK)) < n;) {
            for (int64_t i = first; i < first + CHUNK && i < n; ++i) {
                if (run_wave(c, waves[i], counts[t], faults[i])) {
                    if (fault_of[t] < 0 || i < fault_of[t]) fault_of[t] = i;
                    return;  // the other threads finish their waves; the first is reported
                }
            }
        }
    };
    const size_t threads = n > 1 ? counts.size() : 1;
    std::vector<std::thread> pool;
    for (size_t t = 1; t < threads; ++t) pool.emplace_back(work, t);
    work(0);
    for (auto& th : pool) th.join();
    int64_t first = -1;
    for (int64_t i : fault_of)
        if (i >= 0 && (first < 0 || i < first)) first = i;
    return first;
}

// Waves that reach s_barrier stop there (barrier flag set, PC after it). After each round the
// barriers are released as the interpreter's scheduler releases them (every live wave of the
// workgroup waiting), and the released waves of this call run again, until none is released or
// the call has run its step budget (max_steps per wave).
extern "C" int cass_jit_run(Ctx* c, const int64_t* waves, int64_t n) {
    std::vector<Counts> counts(c->threads > 1 && n > 1 ? c->threads : 1);
    std::vector<int64_t> set(waves, waves + n), again;
    std::vector<Fault> faults;
    std::vector<int64_t> pending;
    const int64_t budget = c->max_steps * (n > 0 ? n : 1);
    int64_t ran = 0, first = -1;
    while (!set.empty()) {
        faults.assign(set.size(), Fault());
        first = run_round(c, set.data(), (int64_t)set.size(), counts, faults);
        if (first >= 0) break;
        bool waiting = false;
        for (int64_t w : set) waiting |= c->alive[w] && c->barrier[w];
        ran = 0;
        for (auto& k : counts) ran += k.wave;
        if (!waiting || ran >= budget) break;
        pending.assign(c->wg_count, 0);
        for (int64_t w = 0; w < c->W; ++w)
            if (c->alive[w] && !c->barrier[w]) ++pending[c->wave_wg[w]];
        again.clear();
        for (int64_t w : set)
            if (c->barrier[w] && pending[c->wave_wg[w]] == 0) again.push_back(w);
        for (int64_t w = 0; w < c->W; ++w)
            if (c->barrier[w] && pending[c->wave_wg[w]] == 0) c->barrier[w] = 0;
        set.swap(again);
    }
    for (auto& k : counts) {
        c->wave_instructions += k.wave;
        c->lane_instructions += k.lane;
    }
    if (first < 0) return 0;
    const Fault& f = faults[first];
    c->fault_code = f.code; c->fault_wave = set[first]; c->fault_lane = f.lane;
    c->fault_pc = f.pc; c->fault_address = f.address; c->fault_bytes = f.bytes;
    return 1;
}
#endif  // CASS_JIT_MAIN
