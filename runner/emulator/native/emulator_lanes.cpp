// Lane loops for the emulator's hottest memory paths: LDS loads and stores of whole dwords for
// every lane of a group of waves, called through ctypes by cass.runner.emulator.lanes.
// Each returns 0 when it did the access, or 1 (having written no LDS) when an active lane is
// misaligned or out of bounds: the caller then takes the checked numpy path, which reports it.
//
//   lds   the batch's LDS as dwords           offs   [waves][32] byte offsets in the workgroup
//   base  per-wave byte offset of the         active [waves][32] active lanes (nullptr: all)
//         workgroup's LDS block               limit  the workgroup's LDS bytes
//   out   nd arrays of waves*32 dwords (every lane; 0 for inactive lanes)
//   data  nd arrays of one dword per active lane, in lane order
#include <cstddef>
#include <cstdint>

namespace {

inline uint32_t lane_bad(uint32_t off, uint32_t nbytes, uint32_t limit) {
    return (off & 3) | (uint32_t)((uint64_t)off + nbytes > limit);
}

template <int ND, bool MASKED>
int load(const uint32_t* __restrict lds, const uint32_t* __restrict offs,
         const uint32_t* __restrict base, const uint8_t* __restrict active, size_t waves,
         uint32_t limit, uint32_t nd, uint32_t* const* out_rows) {
    const uint32_t n = ND ? ND : nd;
    uint32_t* __restrict out[ND ? ND : 16];
    for (uint32_t d = 0; d < n; d++) out[d] = out_rows[d];
    uint32_t bad = 0;
    for (size_t w = 0; w < waves; w++) {
        const uint32_t* block = lds + base[w] / 4;
        for (size_t i = w * 32; i < w * 32 + 32; i++) {
            uint32_t off = offs[i];
            uint32_t wrong = lane_bad(off, 4 * n, limit);
            if (MASKED) wrong &= -(uint32_t)active[i];
            bad |= wrong;
            if (MASKED && !active[i]) {
                for (uint32_t d = 0; d < n; d++) out[d][i] = 0;
                continue;
            }
            const uint32_t* src = block + (wrong ? 0 : off / 4);
            for (uint32_t d = 0; d < n; d++) out[d][i] = src[d];
        }
    }
    return bad != 0;
}

template <bool MASKED>
int store(uint32_t* __restrict lds, const uint32_t* __restrict offs,
          const uint32_t* __restrict base, const uint8_t* __restrict active, size_t waves,
          uint32_t limit, uint32_t nd, const uint32_t* const* data) {
    uint32_t bad = 0;
    for (size_t i = 0; i < waves * 32; i++)
        bad |= lane_bad(offs[i], 4 * nd, limit) & (MASKED ? -(uint32_t)active[i] : ~0u);
    if (bad) return 1;
    for (uint32_t d = 0; d < nd; d++) {  // dword by dword, as the numpy path (overlaps agree)
        const uint32_t* src = data[d];
        size_t j = 0;
        for (size_t w = 0; w < waves; w++) {
            uint32_t* block = lds + base[w] / 4 + d;
            for (size_t i = w * 32; i < w * 32 + 32; i++) {
                if (MASKED && !active[i]) continue;
                block[offs[i] / 4] = src[j++];
            }
        }
    }
    return 0;
}

}  // namespace

extern "C" int cass_lds_load(const uint32_t* lds, const uint32_t* offs, const uint32_t* base,
                             const uint8_t* active, size_t waves, uint32_t limit, uint32_t nd,
                             uint32_t* const* out) {
    if (nd == 0 || nd > 16 || limit < 4 * nd) return 1;
    if (active) return load<0, true>(lds, offs, base, active, waves, limit, nd, out);
    switch (nd) {
        case 1: return load<1, false>(lds, offs, base, active, waves, limit, nd, out);
        case 2: return load<2, false>(lds, offs, base, active, waves, limit, nd, out);
        case 4: return load<4, false>(lds, offs, base, active, waves, limit, nd, out);
        default: return load<0, false>(lds, offs, base, active, waves, limit, nd, out);
    }
}

extern "C" int cass_lds_store(uint32_t* lds, const uint32_t* offs, const uint32_t* base,
                              const uint8_t* active, size_t waves, uint32_t limit, uint32_t nd,
                              const uint32_t* const* data) {
    if (active) return store<true>(lds, offs, base, active, waves, limit, nd, data);
    return store<false>(lds, offs, base, active, waves, limit, nd, data);
}

// Global memory: `addr` [waves*32] are this process's own addresses, each access of 4*nd bytes
// must lie inside one region of the allocation table (sorted `bases`, their `limits`), exactly
// as AllocationTable.first_bad checks it; every active address must be dword-aligned.
namespace {

struct Regions {
    const uint64_t* bases;
    const uint64_t* limits;
    size_t count;
    size_t last = 0;  // the region of the previous lane (accesses are mostly in one)

    bool inside(uint64_t a, uint64_t nbytes) {
        if (a + nbytes < a) return false;  // wraps: left to the checked path
        if (last < count && bases[last] <= a && a + nbytes <= limits[last]) {
            size_t next = last + 1;  // the last region whose base is <= a, as searchsorted
            if (next == count || bases[next] > a) return true;
        }
        size_t lo = 0, hi = count;  // first base > a
        while (lo < hi) {
            size_t mid = (lo + hi) / 2;
            if (bases[mid] <= a) lo = mid + 1;
            else hi = mid;
        }
        if (lo == 0) return false;
        last = lo - 1;
        return a + nbytes <= limits[last];
    }
};

}  // namespace

extern "C" int cass_global_load(const uint64_t* addr, const uint8_t* active, size_t lanes,
                                const uint64_t* bases, const uint64_t* limits, size_t regions,
                                uint32_t nd, uint32_t* const* out) {
    Regions table{bases, limits, regions};
    for (size_t i = 0; i < lanes; i++)
        if ((!active || active[i]) && ((addr[i] & 3) || !table.inside(addr[i], 4ull * nd)))
            return 1;
    for (uint32_t d = 0; d < nd; d++) {
        uint32_t* dst = out[d];
        for (size_t i = 0; i < lanes; i++)
            dst[i] = (!active || active[i]) ? ((const uint32_t*)addr[i])[d] : 0;
    }
    return 0;
}

extern "C" int cass_global_store(const uint64_t* addr, const uint8_t* active, size_t lanes,
                                 const uint64_t* bases, const uint64_t* limits, size_t regions,
                                 uint32_t nd, const uint32_t* const* data) {
    Regions table{bases, limits, regions};
    for (size_t i = 0; i < lanes; i++)
        if ((!active || active[i]) && ((addr[i] & 3) || !table.inside(addr[i], 4ull * nd)))
            return 1;
    for (uint32_t d = 0; d < nd; d++) {  // dword by dword, as the numpy path
        const uint32_t* src = data[d];
        size_t j = 0;
        for (size_t i = 0; i < lanes; i++)
            if (!active || active[i]) ((uint32_t*)addr[i])[d] = src[j++];
    }
    return 0;
}

// DS loads straight into VGPRs (ds_load_b32..b128, ds_load_2addr*): for every active lane, the
// address register plus each of `noff` offsets selects 4*nd bytes of the workgroup's LDS; an
// access beyond the allocation reads 0 (gfx11), an inactive lane keeps its registers. Register
// rows are [waves][wave_stride] uint32 (a lane's address is read before its results are
// written, so a destination may be the address register). Returns 1, writing nothing, when an
// active lane's access inside the allocation is not dword-aligned (the numpy path takes it).
namespace {

template <int NOFF, int ND>
void ds_load_lanes(const uint32_t* __restrict lds, const uint32_t* __restrict addr,
                   size_t wave_stride, const uint32_t* __restrict base,
                   const uint8_t* __restrict active, size_t waves, uint32_t limit,
                   const uint32_t* offsets, uint32_t* const* dst_rows) {
    uint32_t* __restrict dst[NOFF * ND];
    for (int r = 0; r < NOFF * ND; r++) dst[r] = dst_rows[r];
    uint32_t off_k[NOFF];
    for (int k = 0; k < NOFF; k++) off_k[k] = offsets[k];
    for (size_t w = 0; w < waves; w++) {
        const uint32_t* block = lds + base[w] / 4;
        const size_t row = w * wave_stride;
        for (size_t l = 0; l < 32; l++) {
            if (active && !active[w * 32 + l]) continue;
            const uint32_t a = addr[row + l];
            uint32_t values[NOFF * ND];
            for (int k = 0; k < NOFF; k++) {
                const uint32_t off = a + off_k[k];
                const bool inside = (uint64_t)off + 4 * ND <= limit;
                const uint32_t* src = block + (inside ? off / 4 : 0);
                for (int d = 0; d < ND; d++) values[k * ND + d] = inside ? src[d] : 0;
            }
            for (int r = 0; r < NOFF * ND; r++) dst[r][row + l] = values[r];
        }
    }
}

}  // namespace

extern "C" int cass_ds_load_into(const uint32_t* lds, const uint32_t* addr, size_t wave_stride,
                                 const uint32_t* base, const uint8_t* active, size_t waves,
                                 uint32_t limit, uint32_t nd, uint32_t noff,
                                 const uint32_t* offsets, uint32_t* const* dst) {
    const uint32_t nbytes = 4 * nd;
    if (noff == 0 || noff > 2 || !(nd == 1 || nd == 2 || nd == 4)) return 1;
    for (size_t w = 0; w < waves; w++)
        for (size_t l = 0; l < 32; l++) {
            if (active && !active[w * 32 + l]) continue;
            for (uint32_t k = 0; k < noff; k++) {
                uint32_t off = addr[w * wave_stride + l] + offsets[k];
                if ((uint64_t)off + nbytes <= limit && (off & 3)) return 1;
            }
        }
#define CASS_DS_LOAD(NOFF, ND)                                                                \
    if (noff == NOFF && nd == ND) {                                                           \
        ds_load_lanes<NOFF, ND>(lds, addr, wave_stride, base, active, waves, limit, offsets,  \
                                dst);                                                         \
        return 0;                                                                             \
    }
    CASS_DS_LOAD(1, 1) CASS_DS_LOAD(1, 2) CASS_DS_LOAD(1, 4)
    CASS_DS_LOAD(2, 1) CASS_DS_LOAD(2, 2) CASS_DS_LOAD(2, 4)
#undef CASS_DS_LOAD
    return 1;
}

// fma whose NaN result is the first NaN operand in operand order, quieted (fpmath.first_nan, the
// JIT's fma_f32/fma_f64): which one the host instruction returns depends on the operand order the
// compiler picked for it. Inlined into the callers' clones, the FMA instruction where the CPU has
// one (same correctly rounded result, ~7x faster than the libm call), libm otherwise.
static inline float fma_first_nan(float a, float b, float c) {
    const float r = __builtin_fmaf(a, b, c);
    if (r == r) return r;
    const float nan = a != a ? a : b != b ? b : c != c ? c : r;
    return __builtin_bit_cast(float, __builtin_bit_cast(uint32_t, nan) | 0x400000u);
}
static inline double fma_first_nan(double a, double b, double c) {
    const double r = __builtin_fma(a, b, c);
    if (r == r) return r;
    const double nan = a != a ? a : b != b ? b : c != c ? c : r;
    return __builtin_bit_cast(double, __builtin_bit_cast(uint64_t, nan) | 0x8000000000000ull);
}
#define CASS_FMA_CLONES __attribute__((target_clones("fma", "default")))

// Fused multiply-add over arrays (numpy has none): exact v_fma_f64/f32 for fpmath.fma.
extern "C" CASS_FMA_CLONES void cass_fma_f64(const double* a, const double* b, const double* c,
                                             double* out, size_t n) {
    for (size_t i = 0; i < n; i++) out[i] = fma_first_nan(a[i], b[i], c[i]);
}

extern "C" CASS_FMA_CLONES void cass_fma_f32(const float* a, const float* b, const float* c,
                                             float* out, size_t n) {
    for (size_t i = 0; i < n; i++) out[i] = fma_first_nan(a[i], b[i], c[i]);
}

// v_fma_f32 / v_fmac_f32 on VGPR rows ([waves][wave_stride] uint32 holding f32): for every
// active lane dst = fma(a, b, c), correctly rounded (the FMA instruction where the CPU has one).
extern "C" CASS_FMA_CLONES int cass_fma_f32_rows(
    const float* a, const float* b, const float* c, float* dst, size_t wave_stride,
    const uint8_t* active, size_t waves) {
    for (size_t w = 0; w < waves; w++) {
        const size_t row = w * wave_stride;
        if (!active) {
            for (size_t l = 0; l < 32; l++)
                dst[row + l] = fma_first_nan(a[row + l], b[row + l], c[row + l]);
            continue;
        }
        for (size_t l = 0; l < 32; l++)
            if (active[w * 32 + l])
                dst[row + l] = fma_first_nan(a[row + l], b[row + l], c[row + l]);
    }
    return 0;
}

// Global loads of whole dwords straight into VGPRs (global_load_b32..b128): each active lane's
// address is lo[i] | hi[i] << 32 (a VGPR pair) or wave_base[w] + lo[i] (SGPR base + VGPR
// offset), plus `offset`; every access must lie inside one region of the allocation table and
// be dword-aligned, else 1 is returned having written nothing (the checked numpy path then runs
// and reports). Inactive lanes keep their registers; an address is read before results land.
extern "C" int cass_global_load_into(const uint32_t* lo, const uint32_t* hi,
                                     const uint64_t* wave_base, uint64_t offset,
                                     size_t wave_stride, const uint8_t* active, size_t waves,
                                     const uint64_t* bases, const uint64_t* limits,
                                     size_t regions, uint32_t nd, uint32_t* const* dst_rows) {
    if (nd == 0 || nd > 16) return 1;
    Regions table{bases, limits, regions};
    auto address = [&](size_t w, size_t i) {
        uint64_t a = hi ? ((uint64_t)hi[i] << 32 | lo[i]) : (uint64_t)lo[i];
        return a + (wave_base ? wave_base[w] : 0) + offset;
    };
    for (size_t w = 0; w < waves; w++)
        for (size_t l = 0; l < 32; l++) {
            if (active && !active[w * 32 + l]) continue;
            uint64_t a = address(w, w * wave_stride + l);
            if ((a & 3) || !table.inside(a, 4ull * nd)) return 1;
        }
    uint32_t* dst[16];
    for (uint32_t d = 0; d < nd; d++) dst[d] = dst_rows[d];
    for (size_t w = 0; w < waves; w++)
        for (size_t l = 0; l < 32; l++) {
            if (active && !active[w * 32 + l]) continue;
            size_t i = w * wave_stride + l;
            const uint32_t* src = (const uint32_t*)address(w, i);
            uint32_t values[16];
            for (uint32_t d = 0; d < nd; d++) values[d] = src[d];
            for (uint32_t d = 0; d < nd; d++) dst[d][i] = values[d];
        }
    return 0;
}
