// cass's reference implementations for emulated verification: hipRAND's host API.
//
// The hipRAND 5.2 host API (Debian's hiprand.h declares every function here) as plain HIP kernels
// compiled for gfx1100 with the program that calls them. No implementation reproduces cuRAND's
// pseudo-random numbers on AMD (rocRAND's own table: only Sobol32/Sobol64 match), so these aim
// at correct algorithms and statistics; ports of cuRAND code are verified on statistics.
//
// - PHILOX4_32_10: Salmon et al.'s Philox-4x32-10, counter = output index / 4, key = the seed.
// - XORWOW (and PSEUDO_DEFAULT): Marsaglia's xorwow recurrence, one stream per output lane of a
//   fixed 4,096-lane layout, each seeded by SplitMix64 (not cuRAND's or rocRAND's stream layout).
// - SOBOL32 (and QUASI_DEFAULT): the Sobol sequence in Gray-code order, dimension 1 van der
//   Corput, dimension 2 the primitive polynomial x + 1; more dimensions are HIPRAND_STATUS_OUT_OF_RANGE.
// Uniform floats are in (0, 1]; normals by Box-Muller; log-normals exp(normal) (pseudo generators
// only). Other generator types are HIPRAND_STATUS_NOT_IMPLEMENTED. On an AMD GPU the real hipRAND (rocRAND) is linked.

#include <hip/hip_runtime.h>
#include <hiprand/hiprand.h>

#include <cstdint>
#include <new>

// Every function defined below must be one hiprand.h declares (a misspelt name is an error).
#pragma clang diagnostic error "-Wmissing-prototypes"

struct rocrand_generator_base_type {
    hiprandRngType_t type;
    unsigned long long seed = 0;
    unsigned long long offset = 0;
    unsigned int dimensions = 1;
    hipStream_t stream = nullptr;
    bool host = false;  // created by hiprandCreateGeneratorHost: outputs are host memory
};

namespace {

constexpr int kThreads = 256;
constexpr unsigned kLanes = 4096;  // the XORWOW layout: output i comes from lane i % kLanes

enum class Dist { bits, uniform, normal, lognormal };

__device__ uint64_t splitmix64(uint64_t& x) {
    uint64_t z = (x += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

__device__ void philox_round(uint32_t* c, const uint32_t* k) {
    const uint64_t p0 = static_cast<uint64_t>(0xD2511F53u) * c[0];
    const uint64_t p1 = static_cast<uint64_t>(0xCD9E8D57u) * c[2];
    const uint32_t hi0 = static_cast<uint32_t>(p0 >> 32), lo0 = static_cast<uint32_t>(p0);
    const uint32_t hi1 = static_cast<uint32_t>(p1 >> 32), lo1 = static_cast<uint32_t>(p1);
    c[0] = hi1 ^ c[1] ^ k[0];
    c[1] = lo1;
    c[2] = hi0 ^ c[3] ^ k[1];
    c[3] = lo0;
}

// Philox-4x32-10 of counter (index, 0, 0, 0) under key (seed low, seed high).
__device__ void philox4x32_10(uint64_t index, uint64_t seed, uint32_t* out) {
    uint32_t c[4] = {static_cast<uint32_t>(index), static_cast<uint32_t>(index >> 32), 0, 0};
    uint32_t k[2] = {static_cast<uint32_t>(seed), static_cast<uint32_t>(seed >> 32)};
    for (int r = 0; r < 10; ++r) {
        if (r) {
            k[0] += 0x9E3779B9u;
            k[1] += 0xBB67AE85u;
        }
        philox_round(c, k);
    }
    for (int i = 0; i < 4; ++i) out[i] = c[i];
}

__device__ uint32_t sobol32(uint64_t index, unsigned dimension) {
    const uint64_t gray = index ^ (index >> 1);
    uint32_t x = 0, v = 1u << 31;
    for (int bit = 0; bit < 32; ++bit) {
        if ((gray >> bit) & 1) x ^= v;
        v = dimension == 0 ? v >> 1 : v ^ (v >> 1);  // dimension 2: m_k from x + 1
    }
    return x;
}

__device__ float to_uniform(uint32_t x) { return (x >> 8) * (1.0f / 16777216.0f) + (1.0f / 16777216.0f); }
__device__ double to_uniform_double(uint32_t a, uint32_t b) {
    const uint64_t bits = (static_cast<uint64_t>(a) << 21) ^ b;
    return ((bits & ((1ull << 53) - 1)) + 1) * (1.0 / 9007199254740992.0);
}

// Raw 32-bit words for outputs [first, first + count) of pseudo generators, by output index.
struct Raw {
    hiprandRngType_t type;
    uint64_t seed, offset;
};

__device__ uint32_t philox_word(const Raw& r, uint64_t i) {
    uint32_t block[4];
    philox4x32_10((r.offset + i) / 4, r.seed, block);
    return block[(r.offset + i) % 4];
}

// One XORWOW lane's stream: output i is step i / kLanes of lane i % kLanes.
__global__ void xorwow_kernel(Raw r, uint32_t* words, uint64_t count) {
    const unsigned lane = blockIdx.x * blockDim.x + threadIdx.x;
    if (lane >= kLanes) return;
    uint64_t s = r.seed ^ (0xD1B54A32D192ED03ull * (lane + 1));
    uint32_t x[5], d;
    for (int i = 0; i < 5; ++i) x[i] = static_cast<uint32_t>(splitmix64(s)) | (i == 0);
    d = static_cast<uint32_t>(splitmix64(s));
    const uint64_t skip = r.offset;  // whole-sequence offset: the first `offset` outputs dropped
    for (uint64_t i = lane; i < count + skip; i += kLanes) {
        uint32_t t = x[0] ^ (x[0] >> 2);
        x[0] = x[1]; x[1] = x[2]; x[2] = x[3]; x[3] = x[4];
        x[4] = (x[4] ^ (x[4] << 4)) ^ (t ^ (t << 1));
        d += 362437u;
        if (i >= skip) words[i - skip] = x[4] + d;
    }
}

__global__ void philox_kernel(Raw r, uint32_t* words, uint64_t count) {
    uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
    if (i < count) words[i] = philox_word(r, i);
}

// Sobol: dimension-major, count / dimensions points of each dimension.
__global__ void sobol_kernel(uint64_t offset, unsigned dims, uint32_t* words, uint64_t count) {
    uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
    if (i >= count) return;
    const uint64_t per = count / dims;
    words[i] = sobol32(offset + i % per, static_cast<unsigned>(i / per));
}

template <typename T, Dist dist>
__global__ void shape_kernel(const uint32_t* words, T* out, uint64_t count, T mean, T stddev,
                             bool pairs) {
    uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
    if (i >= count) return;
    if (dist == Dist::uniform) {
        out[i] = static_cast<T>(to_uniform(words[i]));
        return;
    }
    // Box-Muller on the pair (2j, 2j+1); doubles use two words per uniform
    const uint64_t j = i / 2;
    double u1, u2;
    if (pairs) {
        u1 = to_uniform_double(words[4 * j], words[4 * j + 1]);
        u2 = to_uniform_double(words[4 * j + 2], words[4 * j + 3]);
    } else {
        u1 = to_uniform(words[2 * j]);
        u2 = to_uniform(words[2 * j + 1]);
    }
    double s, c;
    sincospi(2.0 * u2, &s, &c);
    const double z = sqrt(-2.0 * log(u1)) * (i % 2 ? s : c);
    const double v = static_cast<double>(mean) + static_cast<double>(stddev) * z;
    out[i] = static_cast<T>(dist == Dist::lognormal ? exp(v) : v);
}

__global__ void uniform_double_kernel(const uint32_t* words, double* out, uint64_t count) {
    uint64_t i = blockIdx.x * static_cast<uint64_t>(blockDim.x) + threadIdx.x;
    if (i < count) out[i] = to_uniform_double(words[2 * i], words[2 * i + 1]);
}

unsigned grid(uint64_t n) { return static_cast<unsigned>((n + kThreads - 1) / kThreads); }

bool quasi(hiprandRngType_t t) { return t == HIPRAND_RNG_QUASI_SOBOL32 || t == HIPRAND_RNG_QUASI_DEFAULT; }

// `count` raw words into device memory `words` (the generator's sequence, from its offset).
hiprandStatus_t raw_words(hiprandGenerator_t g, uint32_t* words, uint64_t count) {
    Raw r{g->type, g->seed, g->offset};
    if (quasi(g->type)) {
        if (count % g->dimensions) return HIPRAND_STATUS_LENGTH_NOT_MULTIPLE;
        sobol_kernel<<<grid(count), kThreads, 0, g->stream>>>(g->offset, g->dimensions, words, count);
    } else if (g->type == HIPRAND_RNG_PSEUDO_PHILOX4_32_10) {
        philox_kernel<<<grid(count), kThreads, 0, g->stream>>>(r, words, count);
    } else {
        xorwow_kernel<<<grid(kLanes), kThreads, 0, g->stream>>>(r, words, count);
    }
    return hipGetLastError() == hipSuccess ? HIPRAND_STATUS_SUCCESS : HIPRAND_STATUS_LAUNCH_FAILURE;
}

// Generate `words_needed` words, let `shape` turn them into the output, then (for a host
// generator) copy the result back; the output's sequence position advances by `outputs`.
template <typename T, typename Shape>
hiprandStatus_t produce(hiprandGenerator_t g, T* out, uint64_t outputs, uint64_t words_needed,
                        Shape shape) {
    if (!g) return HIPRAND_STATUS_NOT_INITIALIZED;
    if (!out) return HIPRAND_STATUS_OUT_OF_RANGE;
    if (outputs == 0) return HIPRAND_STATUS_SUCCESS;
    uint32_t* words = nullptr;
    T* device_out = out;
    if (hipMalloc(&words, words_needed * sizeof(uint32_t)) != hipSuccess)
        return HIPRAND_STATUS_ALLOCATION_FAILED;
    if (g->host && hipMalloc(&device_out, outputs * sizeof(T)) != hipSuccess) {
        hipFree(words);
        return HIPRAND_STATUS_ALLOCATION_FAILED;
    }
    hiprandStatus_t status = raw_words(g, words, words_needed);
    if (status == HIPRAND_STATUS_SUCCESS) status = shape(words, device_out);
    if (status == HIPRAND_STATUS_SUCCESS && g->host &&
        hipMemcpy(out, device_out, outputs * sizeof(T), hipMemcpyDeviceToHost) != hipSuccess)
        status = HIPRAND_STATUS_INTERNAL_ERROR;
    hipStreamSynchronize(g->stream);
    hipFree(words);
    if (g->host) hipFree(device_out);
    if (status == HIPRAND_STATUS_SUCCESS && !quasi(g->type)) g->offset += words_needed;
    if (status == HIPRAND_STATUS_SUCCESS && quasi(g->type)) g->offset += words_needed / g->dimensions;
    return status;
}

template <typename T, Dist dist>
hiprandStatus_t shaped(hiprandGenerator_t g, T* out, size_t n, T mean, T stddev) {
    if (g && quasi(g->type) && dist != Dist::uniform) return HIPRAND_STATUS_NOT_IMPLEMENTED;
    if (dist != Dist::uniform && n % 2) return HIPRAND_STATUS_LENGTH_NOT_MULTIPLE;
    const bool pairs = sizeof(T) == 8 && dist != Dist::uniform;
    const uint64_t words = pairs ? 2 * (n + n % 2) : dist == Dist::uniform ? n : n + n % 2;
    return produce(g, out, n, words, [&](uint32_t* w, T* o) {
        shape_kernel<T, dist><<<grid(n), kThreads, 0, g->stream>>>(w, o, n, mean, stddev, pairs);
        return hipGetLastError() == hipSuccess ? HIPRAND_STATUS_SUCCESS : HIPRAND_STATUS_LAUNCH_FAILURE;
    });
}

hiprandStatus_t create(hiprandGenerator_t* g, hiprandRngType_t type, bool host) {
    if (!g) return HIPRAND_STATUS_NOT_INITIALIZED;
    if (type != HIPRAND_RNG_PSEUDO_DEFAULT && type != HIPRAND_RNG_PSEUDO_XORWOW &&
        type != HIPRAND_RNG_PSEUDO_PHILOX4_32_10 && !quasi(type))
        return HIPRAND_STATUS_NOT_IMPLEMENTED;
    *g = new (std::nothrow) rocrand_generator_base_type{type};
    if (!*g) return HIPRAND_STATUS_ALLOCATION_FAILED;
    (*g)->host = host;
    return HIPRAND_STATUS_SUCCESS;
}

}  // namespace

extern "C" {

hiprandStatus_t hiprandCreateGenerator(hiprandGenerator_t* g, hiprandRngType_t type) {
    return create(g, type, false);
}
hiprandStatus_t hiprandCreateGeneratorHost(hiprandGenerator_t* g, hiprandRngType_t type) {
    return create(g, type, true);
}
hiprandStatus_t hiprandDestroyGenerator(hiprandGenerator_t g) {
    if (!g) return HIPRAND_STATUS_NOT_INITIALIZED;
    delete g;
    return HIPRAND_STATUS_SUCCESS;
}
hiprandStatus_t hiprandSetStream(hiprandGenerator_t g, hipStream_t stream) {
    if (!g) return HIPRAND_STATUS_NOT_INITIALIZED;
    g->stream = stream;
    return HIPRAND_STATUS_SUCCESS;
}
hiprandStatus_t hiprandSetPseudoRandomGeneratorSeed(hiprandGenerator_t g, unsigned long long seed) {
    if (!g) return HIPRAND_STATUS_NOT_INITIALIZED;
    if (quasi(g->type)) return HIPRAND_STATUS_TYPE_ERROR;
    g->seed = seed;
    g->offset = 0;
    return HIPRAND_STATUS_SUCCESS;
}
hiprandStatus_t hiprandSetGeneratorOffset(hiprandGenerator_t g, unsigned long long offset) {
    if (!g) return HIPRAND_STATUS_NOT_INITIALIZED;
    g->offset = offset;
    return HIPRAND_STATUS_SUCCESS;
}
hiprandStatus_t hiprandSetQuasiRandomGeneratorDimensions(hiprandGenerator_t g, unsigned int dims) {
    if (!g) return HIPRAND_STATUS_NOT_INITIALIZED;
    if (!quasi(g->type)) return HIPRAND_STATUS_TYPE_ERROR;
    if (dims < 1 || dims > 2) return HIPRAND_STATUS_OUT_OF_RANGE;
    g->dimensions = dims;
    return HIPRAND_STATUS_SUCCESS;
}
hiprandStatus_t hiprandGenerate(hiprandGenerator_t g, unsigned int* out, size_t n) {
    return produce(g, out, n, n, [&](uint32_t* w, unsigned int* o) {
        return hipMemcpyAsync(o, w, n * sizeof(uint32_t), hipMemcpyDeviceToDevice, g->stream) == hipSuccess
                   ? HIPRAND_STATUS_SUCCESS
                   : HIPRAND_STATUS_INTERNAL_ERROR;
    });
}
hiprandStatus_t hiprandGenerateUniform(hiprandGenerator_t g, float* out, size_t n) {
    return shaped<float, Dist::uniform>(g, out, n, 0.0f, 1.0f);
}
hiprandStatus_t hiprandGenerateUniformDouble(hiprandGenerator_t g, double* out, size_t n) {
    return produce(g, out, n, 2 * static_cast<uint64_t>(n), [&](uint32_t* w, double* o) {
        uniform_double_kernel<<<grid(n), kThreads, 0, g->stream>>>(w, o, n);
        return hipGetLastError() == hipSuccess ? HIPRAND_STATUS_SUCCESS : HIPRAND_STATUS_LAUNCH_FAILURE;
    });
}
hiprandStatus_t hiprandGenerateNormal(hiprandGenerator_t g, float* out, size_t n, float mean,
                                      float stddev) {
    return shaped<float, Dist::normal>(g, out, n, mean, stddev);
}
hiprandStatus_t hiprandGenerateNormalDouble(hiprandGenerator_t g, double* out, size_t n,
                                            double mean, double stddev) {
    return shaped<double, Dist::normal>(g, out, n, mean, stddev);
}
hiprandStatus_t hiprandGenerateLogNormal(hiprandGenerator_t g, float* out, size_t n, float mean,
                                         float stddev) {
    return shaped<float, Dist::lognormal>(g, out, n, mean, stddev);
}
hiprandStatus_t hiprandGenerateLogNormalDouble(hiprandGenerator_t g, double* out, size_t n,
                                               double mean, double stddev) {
    return shaped<double, Dist::lognormal>(g, out, n, mean, stddev);
}
hiprandStatus_t hiprandGetVersion(int* version) {
    if (!version) return HIPRAND_STATUS_OUT_OF_RANGE;
    *version = HIPRAND_VERSION;
    return HIPRAND_STATUS_SUCCESS;
}

}  // extern "C"
