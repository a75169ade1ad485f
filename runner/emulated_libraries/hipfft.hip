// cass's reference implementations for emulated verification: hipFFT.
//
// The hipFFT 1.0.8 API (declared by AMD's own hipfft.h) as plain HIP kernels compiled for gfx1100
// with the program that calls them, so a cuFFT program's HIP port runs on the cass RDNA3
// emulator. A transform is a direct discrete Fourier transform along each dimension in turn,
// summed in double precision with exact twiddle indices (O(n * sum of n_d): accurate, not fast);
// results go through a scratch buffer, so in-place transforms work. Unnormalised, as cuFFT and hipFFT are; HIPFFT_FORWARD is e^{-2 pi i}.
//
// Covered: plans of rank 1-3 (Plan1d/2d/3d/Many, Create + MakePlan*, batches, istride/idist and
// ostride/odist with packed or equal embeddings), C2C/Z2Z, R2C/D2Z, C2R/Z2D (in place too, with
// the padded real layout), SetStream, GetSize*/Estimate* (no work area), Destroy, GetVersion.
// On an AMD GPU the real hipFFT (rocFFT) is linked instead.

#include <hip/hip_runtime.h>
#include <hipfft.h>

#include <new>

// Every function defined below must be one hipfft.h declares (a misspelt name is an error).
#pragma clang diagnostic error "-Wmissing-prototypes"

struct hipfftHandle_t {
    int rank = 0;
    int n[3] = {1, 1, 1};
    hipfftType type = HIPFFT_C2C;
    int batch = 1;
    long long istride = 1, idist = 0, ostride = 1, odist = 0;
    bool packed = true;  // no advanced layout given: distances follow from the type
    hipStream_t stream = nullptr;
    void* scratch = nullptr;
    size_t scratch_bytes = 0;
};

namespace {

constexpr int kThreads = 128;

struct Layout {
    int rank;
    int n[3];          // logical sizes, the last one fastest
    int last_in;       // elements along the input's last dimension (n, n/2+1 or the padded 2(n/2+1))
    int last_out;      // the same for the output
    long long istride, idist, ostride, odist;
    int out_count;     // output elements per transform
    int sign;          // -1 forward, +1 backward
};

__device__ void unravel(long long index, const int* dims, int rank, int* out) {
    for (int d = rank - 1; d >= 0; --d) {
        out[d] = static_cast<int>(index % dims[d]);
        index /= dims[d];
    }
}

__device__ long long ravel(const int* idx, const int* dims, int rank) {
    long long at = 0;
    for (int d = 0; d < rank; ++d) at = at * dims[d] + idx[d];
    return at;
}

enum class Kind { c2c, r2c, c2r };

// Work arrays hold every transform in full (all n_0 x ... x n_{r-1} points) as complex doubles.
struct Work {
    double* a;         // 2 * total doubles each
    double* b;
    double* twiddles;  // per dimension d, n_d complex values e^{sign 2 pi i j / n_d}
    long long total;   // points per transform
    int batch;
};

__global__ void twiddle_kernel(Layout L, double* tw) {
    int d = blockIdx.y, j = blockIdx.x * blockDim.x + threadIdx.x;
    if (d >= L.rank || j >= L.n[d]) return;
    int offset = 0;
    for (int e = 0; e < d; ++e) offset += L.n[e];
    double s, c;
    sincospi(2.0 * L.sign * j / L.n[d], &s, &c);
    tw[2 * (offset + j)] = c;
    tw[2 * (offset + j) + 1] = s;
}

// Input -> the full complex work array (a c2r input's upper half from Hermitian symmetry).
template <typename R, Kind kind>
__global__ void load_kernel(Layout L, const R* in, Work w) {
    long long t = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
    const long long b = blockIdx.y;
    if (t >= w.total) return;
    int in_store[3] = {L.n[0], L.n[1], L.n[2]};
    in_store[L.rank - 1] = L.last_in;
    int m[3], full[3];
    unravel(t, L.n, L.rank, m);
    double xr, xi;
    if (kind == Kind::c2r) {
        bool upper = m[L.rank - 1] > L.n[L.rank - 1] / 2;
        for (int d = 0; d < L.rank; ++d) full[d] = upper ? (L.n[d] - m[d]) % L.n[d] : m[d];
        long long at = b * L.idist + L.istride * ravel(full, in_store, L.rank);
        xr = in[2 * at];
        xi = upper ? -static_cast<double>(in[2 * at + 1]) : static_cast<double>(in[2 * at + 1]);
    } else {
        long long at = b * L.idist + L.istride * ravel(m, in_store, L.rank);
        xr = kind == Kind::r2c ? in[at] : in[2 * at];
        xi = kind == Kind::r2c ? 0.0 : static_cast<double>(in[2 * at + 1]);
    }
    w.a[2 * (b * w.total + t)] = xr;
    w.a[2 * (b * w.total + t) + 1] = xi;
}

// One 1-D DFT pass along dimension d: from -> to, each point summing its n_d line.
__global__ void pass_kernel(Layout L, int d, const double* from, double* to, const double* tw,
                            long long total) {
    long long t = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
    const long long b = blockIdx.y;
    if (t >= total) return;
    long long step = 1;
    for (int e = L.rank - 1; e > d; --e) step *= L.n[e];
    const int nd = L.n[d];
    const int k = static_cast<int>((t / step) % nd);
    const long long base = b * total + t - static_cast<long long>(k) * step;
    int offset = 0;
    for (int e = 0; e < d; ++e) offset += L.n[e];
    double re = 0, im = 0;
    int j = 0;  // (k * m) mod nd, advanced by k each step
    for (int m = 0; m < nd; ++m) {
        const double xr = from[2 * (base + m * step)], xi = from[2 * (base + m * step) + 1];
        const double c = tw[2 * (offset + j)], s = tw[2 * (offset + j) + 1];
        re += xr * c - xi * s;
        im += xr * s + xi * c;
        j += k;
        if (j >= nd) j -= nd;
    }
    to[2 * (b * total + t)] = re;
    to[2 * (b * total + t) + 1] = im;
}

// The full transform -> the output layout (r2c keeps the non-redundant half, c2r the real part).
template <typename R, Kind kind>
__global__ void store_kernel(Layout L, const double* full, R* out, long long total) {
    long long o = blockIdx.x * static_cast<long long>(blockDim.x) + threadIdx.x;
    const long long b = blockIdx.y;
    if (o >= L.out_count) return;
    int out_dims[3] = {L.n[0], L.n[1], L.n[2]};
    out_dims[L.rank - 1] = kind == Kind::r2c ? L.n[L.rank - 1] / 2 + 1 : L.n[L.rank - 1];
    int out_store[3] = {out_dims[0], out_dims[1], out_dims[2]};
    out_store[L.rank - 1] = L.last_out;
    int k[3];
    unravel(o, out_dims, L.rank, k);
    const long long src = b * total + ravel(k, L.n, L.rank);
    const long long at = b * L.odist + L.ostride * ravel(k, out_store, L.rank);
    if (kind == Kind::c2r) {
        out[at] = static_cast<R>(full[2 * src]);
    } else {
        out[2 * at] = static_cast<R>(full[2 * src]);
        out[2 * at + 1] = static_cast<R>(full[2 * src + 1]);
    }
}

bool real_input(hipfftType t) { return t == HIPFFT_R2C || t == HIPFFT_D2Z; }
bool real_output(hipfftType t) { return t == HIPFFT_C2R || t == HIPFFT_Z2D; }
bool valid_type(hipfftType t) {
    return t == HIPFFT_C2C || t == HIPFFT_Z2Z || real_input(t) || real_output(t);
}

hipfftResult make(hipfftHandle p, int rank, const int* n, const int* inembed, int istride,
                  int idist, const int* onembed, int ostride, int odist, hipfftType type,
                  int batch) {
    if (!p) return HIPFFT_INVALID_PLAN;
    if (rank < 1 || rank > 3 || batch < 1 || !n || istride < 1 || ostride < 1)
        return HIPFFT_INVALID_VALUE;
    if (!valid_type(type)) return HIPFFT_INVALID_TYPE;
    for (int d = 0; d < rank; ++d)
        if (n[d] < 1) return HIPFFT_INVALID_SIZE;
    for (const int* embed : {inembed, onembed})
        if (embed)  // advanced layouts: only the packed embedding (equal sizes) is implemented
            for (int d = 1; d < rank; ++d)
                if (embed[d] != n[d] && !(d == rank - 1 && (real_input(type) || real_output(type))))
                    return HIPFFT_NOT_IMPLEMENTED;
    p->rank = rank;
    for (int d = 0; d < 3; ++d) p->n[d] = d < rank ? n[d] : 1;
    p->type = type;
    p->batch = batch;
    p->packed = !inembed && !onembed;
    p->istride = istride;
    p->ostride = ostride;
    p->idist = idist;
    p->odist = odist;
    return HIPFFT_SUCCESS;
}

hipfftResult make_simple(hipfftHandle p, int rank, int nx, int ny, int nz, hipfftType type,
                         int batch, size_t* work) {
    int n[3] = {nx, ny, nz};
    if (work) *work = 0;
    return make(p, rank, n, nullptr, 1, 0, nullptr, 1, 0, type, batch);
}

hipfftResult create_and_make(hipfftHandle* plan, int rank, int nx, int ny, int nz,
                             hipfftType type, int batch) {
    if (!plan) return HIPFFT_INVALID_VALUE;
    *plan = new (std::nothrow) hipfftHandle_t();
    if (!*plan) return HIPFFT_ALLOC_FAILED;
    hipfftResult r = make_simple(*plan, rank, nx, ny, nz, type, batch, nullptr);
    if (r != HIPFFT_SUCCESS) {
        delete *plan;
        *plan = nullptr;
    }
    return r;
}

Layout layout(hipfftHandle p, bool in_place, int sign) {
    Layout L{};
    L.rank = p->rank;
    for (int d = 0; d < 3; ++d) L.n[d] = p->n[d];
    const int last = p->n[p->rank - 1], half = last / 2 + 1;
    const int padded = in_place ? 2 * half : last;  // an in-place real array is padded per row
    L.last_in = real_input(p->type) ? padded : real_output(p->type) ? half : last;
    L.last_out = real_output(p->type) ? padded : real_input(p->type) ? half : last;
    long long rows = 1;
    for (int d = 0; d < p->rank - 1; ++d) rows *= p->n[d];
    L.istride = p->istride;
    L.ostride = p->ostride;
    L.idist = p->packed || !p->idist ? rows * L.last_in * p->istride : p->idist;
    L.odist = p->packed || !p->odist ? rows * L.last_out * p->ostride : p->odist;
    L.out_count = static_cast<int>(rows * (real_input(p->type) ? half : last));
    L.sign = sign;
    return L;
}

// Scratch: the output-sized staging area (so in-place transforms work), then the work arrays.
bool reserve(hipfftHandle p, size_t bytes) {
    if (bytes <= p->scratch_bytes) return true;
    if (p->scratch) hipFree(p->scratch);
    p->scratch = nullptr;
    p->scratch_bytes = 0;
    if (hipMalloc(&p->scratch, bytes) != hipSuccess) return false;
    p->scratch_bytes = bytes;
    return true;
}

template <typename R, Kind kind>
hipfftResult exec(hipfftHandle p, const void* in, void* out, int sign) {
    if (!p || !p->rank) return HIPFFT_INVALID_PLAN;
    if (!in || !out) return HIPFFT_INVALID_VALUE;
    if (sign != HIPFFT_FORWARD && sign != HIPFFT_BACKWARD) return HIPFFT_INVALID_VALUE;
    const Layout L = layout(p, in == out, sign);
    long long total = 1, lines = 0;
    for (int d = 0; d < L.rank; ++d) total *= L.n[d], lines += L.n[d];
    const size_t out_bytes = static_cast<size_t>(L.odist) * p->batch * (kind == Kind::c2r ? 1 : 2) * sizeof(R);
    const size_t staged = (out_bytes + 15) / 16 * 16;
    const size_t work_bytes = (2 * static_cast<size_t>(total) * p->batch * 2 + 2 * lines) * sizeof(double);
    if (!reserve(p, staged + work_bytes)) return HIPFFT_ALLOC_FAILED;
    char* base = static_cast<char*>(p->scratch);
    double* work = reinterpret_cast<double*>(base + staged);
    Work w{work, work + 2 * total * p->batch, work + 4 * total * p->batch, total, p->batch};
    // staging starts as a copy of the output: elements the layout skips keep their values
    if (hipMemcpyAsync(base, out, out_bytes, hipMemcpyDeviceToDevice, p->stream) != hipSuccess)
        return HIPFFT_EXEC_FAILED;
    int widest = 1;
    for (int d = 0; d < L.rank; ++d) widest = L.n[d] > widest ? L.n[d] : widest;
    twiddle_kernel<<<dim3((widest + kThreads - 1) / kThreads, L.rank), kThreads, 0, p->stream>>>(
        L, w.twiddles);
    const dim3 points((total + kThreads - 1) / kThreads, p->batch);
    load_kernel<R, kind><<<points, kThreads, 0, p->stream>>>(L, static_cast<const R*>(in), w);
    for (int d = 0; d < L.rank; ++d) {
        pass_kernel<<<points, kThreads, 0, p->stream>>>(L, d, w.a, w.b, w.twiddles, total);
        double* t = w.a;
        w.a = w.b;
        w.b = t;
    }
    const dim3 outs((L.out_count + kThreads - 1) / kThreads, p->batch);
    store_kernel<R, kind><<<outs, kThreads, 0, p->stream>>>(L, w.a, reinterpret_cast<R*>(base), total);
    if (hipGetLastError() != hipSuccess) return HIPFFT_EXEC_FAILED;
    if (hipMemcpyAsync(out, base, out_bytes, hipMemcpyDeviceToDevice, p->stream) != hipSuccess)
        return HIPFFT_EXEC_FAILED;
    return HIPFFT_SUCCESS;
}

hipfftResult no_work(size_t* work) {
    if (work) *work = 0;
    return HIPFFT_SUCCESS;
}

}  // namespace

extern "C" {

hipfftResult hipfftCreate(hipfftHandle* plan) {
    if (!plan) return HIPFFT_INVALID_VALUE;
    *plan = new (std::nothrow) hipfftHandle_t();
    return *plan ? HIPFFT_SUCCESS : HIPFFT_ALLOC_FAILED;
}

hipfftResult hipfftPlan1d(hipfftHandle* plan, int nx, hipfftType type, int batch) {
    return create_and_make(plan, 1, nx, 1, 1, type, batch);
}
hipfftResult hipfftPlan2d(hipfftHandle* plan, int nx, int ny, hipfftType type) {
    return create_and_make(plan, 2, nx, ny, 1, type, 1);
}
hipfftResult hipfftPlan3d(hipfftHandle* plan, int nx, int ny, int nz, hipfftType type) {
    return create_and_make(plan, 3, nx, ny, nz, type, 1);
}
hipfftResult hipfftPlanMany(hipfftHandle* plan, int rank, int* n, int* inembed, int istride,
                            int idist, int* onembed, int ostride, int odist, hipfftType type,
                            int batch) {
    hipfftResult r = hipfftCreate(plan);
    if (r != HIPFFT_SUCCESS) return r;
    r = make(*plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch);
    if (r != HIPFFT_SUCCESS) {
        delete *plan;
        *plan = nullptr;
    }
    return r;
}

hipfftResult hipfftMakePlan1d(hipfftHandle plan, int nx, hipfftType type, int batch,
                              size_t* workSize) {
    return make_simple(plan, 1, nx, 1, 1, type, batch, workSize);
}
hipfftResult hipfftMakePlan2d(hipfftHandle plan, int nx, int ny, hipfftType type,
                              size_t* workSize) {
    return make_simple(plan, 2, nx, ny, 1, type, 1, workSize);
}
hipfftResult hipfftMakePlan3d(hipfftHandle plan, int nx, int ny, int nz, hipfftType type,
                              size_t* workSize) {
    return make_simple(plan, 3, nx, ny, nz, type, 1, workSize);
}
hipfftResult hipfftMakePlanMany(hipfftHandle plan, int rank, int* n, int* inembed, int istride,
                                int idist, int* onembed, int ostride, int odist, hipfftType type,
                                int batch, size_t* workSize) {
    if (workSize) *workSize = 0;
    return make(plan, rank, n, inembed, istride, idist, onembed, ostride, odist, type, batch);
}

hipfftResult hipfftEstimate1d(int, hipfftType, int, size_t* workSize) { return no_work(workSize); }
hipfftResult hipfftEstimate2d(int, int, hipfftType, size_t* workSize) { return no_work(workSize); }
hipfftResult hipfftEstimate3d(int, int, int, hipfftType, size_t* workSize) {
    return no_work(workSize);
}
hipfftResult hipfftGetSize1d(hipfftHandle, int, hipfftType, int, size_t* workSize) {
    return no_work(workSize);
}
hipfftResult hipfftGetSize2d(hipfftHandle, int, int, hipfftType, size_t* workSize) {
    return no_work(workSize);
}
hipfftResult hipfftGetSize3d(hipfftHandle, int, int, int, hipfftType, size_t* workSize) {
    return no_work(workSize);
}
hipfftResult hipfftGetSize(hipfftHandle plan, size_t* workSize) {
    return plan ? no_work(workSize) : HIPFFT_INVALID_PLAN;
}
hipfftResult hipfftSetAutoAllocation(hipfftHandle plan, int) {
    return plan ? HIPFFT_SUCCESS : HIPFFT_INVALID_PLAN;
}
hipfftResult hipfftSetWorkArea(hipfftHandle plan, void*) {
    return plan ? HIPFFT_SUCCESS : HIPFFT_INVALID_PLAN;
}

hipfftResult hipfftSetStream(hipfftHandle plan, hipStream_t stream) {
    if (!plan) return HIPFFT_INVALID_PLAN;
    plan->stream = stream;
    return HIPFFT_SUCCESS;
}

hipfftResult hipfftDestroy(hipfftHandle plan) {
    if (!plan) return HIPFFT_INVALID_PLAN;
    if (plan->scratch) hipFree(plan->scratch);
    delete plan;
    return HIPFFT_SUCCESS;
}

hipfftResult hipfftGetVersion(int* version) {
    if (!version) return HIPFFT_INVALID_VALUE;
    *version = hipfftVersionMajor * 10000 + hipfftVersionMinor * 100 + hipfftVersionPatch;
    return HIPFFT_SUCCESS;
}

hipfftResult hipfftExecC2C(hipfftHandle p, hipfftComplex* in, hipfftComplex* out, int dir) {
    return p && p->type != HIPFFT_C2C ? HIPFFT_INVALID_TYPE : exec<float, Kind::c2c>(p, in, out, dir);
}
hipfftResult hipfftExecZ2Z(hipfftHandle p, hipfftDoubleComplex* in, hipfftDoubleComplex* out,
                           int dir) {
    return p && p->type != HIPFFT_Z2Z ? HIPFFT_INVALID_TYPE : exec<double, Kind::c2c>(p, in, out, dir);
}
hipfftResult hipfftExecR2C(hipfftHandle p, hipfftReal* in, hipfftComplex* out) {
    return p && p->type != HIPFFT_R2C ? HIPFFT_INVALID_TYPE
                                      : exec<float, Kind::r2c>(p, in, out, HIPFFT_FORWARD);
}
hipfftResult hipfftExecD2Z(hipfftHandle p, hipfftDoubleReal* in, hipfftDoubleComplex* out) {
    return p && p->type != HIPFFT_D2Z ? HIPFFT_INVALID_TYPE
                                      : exec<double, Kind::r2c>(p, in, out, HIPFFT_FORWARD);
}
hipfftResult hipfftExecC2R(hipfftHandle p, hipfftComplex* in, hipfftReal* out) {
    return p && p->type != HIPFFT_C2R ? HIPFFT_INVALID_TYPE
                                      : exec<float, Kind::c2r>(p, in, out, HIPFFT_BACKWARD);
}
hipfftResult hipfftExecZ2D(hipfftHandle p, hipfftDoubleComplex* in, hipfftDoubleReal* out) {
    return p && p->type != HIPFFT_Z2D ? HIPFFT_INVALID_TYPE
                                      : exec<double, Kind::c2r>(p, in, out, HIPFFT_BACKWARD);
}

}  // extern "C"
