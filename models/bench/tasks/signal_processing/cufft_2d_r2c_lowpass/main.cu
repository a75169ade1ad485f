// cuFFT in two dimensions, real data: a 48 x 64 image of a constant plus two plane waves,
//   f(x, y) = 1 + cos(2 pi (3x/48 + 5y/64)) + 0.5 cos(2 pi (10x/48 + 20y/64)),
// goes through cufftExecR2C; its half spectrum (48 x 33) peaks at bins (0, 0), (3, 5) and (10, 20).
// A kernel zeroes every bin with |kx| > 6 or ky > 10 and cufftExecC2R brings back
// 1 + cos(2 pi (3x/48 + 5y/64)) (scaled by 48 * 64). The same in double with D2Z/Z2D.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>
#include <cufft.h>

#define CUDA_CHECK(call)                                                          \
    do {                                                                          \
        cudaError_t err_ = (call);                                                \
        if (err_ != cudaSuccess) {                                                \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                          \
            exit(2);                                                              \
        }                                                                         \
    } while (0)
#define CUFFT_CHECK(call)                                                         \
    do {                                                                          \
        cufftResult r_ = (call);                                                  \
        if (r_ != CUFFT_SUCCESS) {                                                \
            fprintf(stderr, "cuFFT error %d at %s:%d\n", (int)r_, __FILE__,       \
                    __LINE__);                                                    \
            exit(2);                                                              \
        }                                                                         \
    } while (0)

static int failures = 0;
static const double kPi = 3.14159265358979323846;
static const int kNx = 48, kNy = 64, kHalf = kNy / 2 + 1;

// Zero the bins outside |kx| <= 6, ky <= 10 of an nx x (ny/2 + 1) half spectrum.
template <typename Complex>
__global__ void low_pass(Complex* spectrum, int nx, int half) {
    const int ky = blockIdx.x * blockDim.x + threadIdx.x, x = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= nx || ky >= half) return;
    const int kx = x <= nx / 2 ? x : nx - x;
    if (kx > 6 || ky > 10) {
        spectrum[x * half + ky].x = 0;
        spectrum[x * half + ky].y = 0;
    }
}

double image(int x, int y, bool filtered) {
    const double low = cos(2 * kPi * (3.0 * x / kNx + 5.0 * y / kNy));
    return 1 + low + (filtered ? 0 : 0.5 * cos(2 * kPi * (10.0 * x / kNx + 20.0 * y / kNy)));
}

template <typename Complex>
void report_peaks(const char* label, const std::vector<Complex>& spec) {
    // the three largest magnitudes of the half spectrum, in decreasing order
    int best[3] = {-1, -1, -1};
    for (int i = 0; i < kNx * kHalf; ++i) {
        const double m = hypot((double)spec[i].x, (double)spec[i].y);
        for (int r = 0; r < 3; ++r) {
            const int b = best[r];
            if (b < 0 || m > hypot((double)spec[b].x, (double)spec[b].y)) {
                for (int s = 2; s > r; --s) best[s] = best[s - 1];
                best[r] = i;
                break;
            }
        }
    }
    printf("%s peaks:", label);
    for (int r = 0; r < 3; ++r)
        printf(" (%d, %d) %.2f", best[r] / kHalf, best[r] % kHalf,
               hypot((double)spec[best[r]].x, (double)spec[best[r]].y));
    printf("\n");
    failures += best[0] != 0 || best[1] != 3 * kHalf + 5 || best[2] != 10 * kHalf + 20;
}

template <typename Real, typename Complex>
void run(const char* label, cufftType forward, cufftType inverse, double tolerance) {
    std::vector<Real> f(kNx * kNy), g(kNx * kNy);
    for (int x = 0; x < kNx; ++x)
        for (int y = 0; y < kNy; ++y) f[x * kNy + y] = (Real)image(x, y, false);
    Real* d_f;
    Complex* d_spec;
    CUDA_CHECK(cudaMalloc(&d_f, sizeof(Real) * kNx * kNy));
    CUDA_CHECK(cudaMalloc(&d_spec, sizeof(Complex) * kNx * kHalf));
    CUDA_CHECK(cudaMemcpy(d_f, f.data(), sizeof(Real) * kNx * kNy, cudaMemcpyHostToDevice));
    cufftHandle fwd, inv;
    CUFFT_CHECK(cufftPlan2d(&fwd, kNx, kNy, forward));
    CUFFT_CHECK(cufftPlan2d(&inv, kNx, kNy, inverse));
    if (forward == CUFFT_R2C) CUFFT_CHECK(cufftExecR2C(fwd, (cufftReal*)d_f, (cufftComplex*)d_spec));
    else CUFFT_CHECK(cufftExecD2Z(fwd, (cufftDoubleReal*)d_f, (cufftDoubleComplex*)d_spec));
    std::vector<Complex> spec(kNx * kHalf);
    CUDA_CHECK(cudaMemcpy(spec.data(), d_spec, sizeof(Complex) * kNx * kHalf, cudaMemcpyDeviceToHost));
    report_peaks(label, spec);
    dim3 block(16, 8), grid((kHalf + 15) / 16, (kNx + 7) / 8);
    low_pass<<<grid, block>>>(d_spec, kNx, kHalf);
    CUDA_CHECK(cudaGetLastError());
    if (inverse == CUFFT_C2R) CUFFT_CHECK(cufftExecC2R(inv, (cufftComplex*)d_spec, (cufftReal*)d_f));
    else CUFFT_CHECK(cufftExecZ2D(inv, (cufftDoubleComplex*)d_spec, (cufftDoubleReal*)d_f));
    CUDA_CHECK(cudaMemcpy(g.data(), d_f, sizeof(Real) * kNx * kNy, cudaMemcpyDeviceToHost));
    double worst = 0;
    for (int x = 0; x < kNx; ++x)
        for (int y = 0; y < kNy; ++y)
            worst = fmax(worst, fabs(g[x * kNy + y] / (kNx * kNy) - image(x, y, true)));
    printf("%s low-passed image f(0, 0) %.4f f(7, 11) %.4f matches within %g: %s\n", label,
           g[0] / (kNx * kNy), g[7 * kNy + 11] / (kNx * kNy), tolerance, worst < tolerance ? "yes" : "no");
    failures += worst >= tolerance;
    CUFFT_CHECK(cufftDestroy(fwd));
    CUFFT_CHECK(cufftDestroy(inv));
    CUDA_CHECK(cudaFree(d_f));
    CUDA_CHECK(cudaFree(d_spec));
}

int main() {
    run<float, cufftComplex>("r2c float", CUFFT_R2C, CUFFT_C2R, 1e-4);
    run<double, cufftDoubleComplex>("d2z double", CUFFT_D2Z, CUFFT_Z2D, 1e-10);
    printf(failures ? "CHECK FAIL\n" : "CHECK PASS\n");
    return failures ? 1 : 0;
}
