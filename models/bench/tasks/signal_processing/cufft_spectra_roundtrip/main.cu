// cuFFT: batched 1D complex FFTs of pure tones, a real-to-complex spectrum and its inverse, and a
// 2D complex FFT; peaks land on the tones' bins and each inverse restores its input (scaled by n).
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

double magnitude(cufftComplex c) { return sqrt((double)c.x * c.x + (double)c.y * c.y); }

int main() {
    // 1) four batched 256-point complex FFTs, signal b a tone at bin 3 + 5 b
    const int n = 256, batch = 4;
    std::vector<cufftComplex> sig(n * batch), spec(n * batch), back(n * batch);
    for (int b = 0; b < batch; ++b)
        for (int i = 0; i < n; ++i) {
            double phase = 2 * kPi * (3 + 5 * b) * i / n;
            sig[b * n + i].x = (float)cos(phase);
            sig[b * n + i].y = (float)sin(phase);
        }
    cufftComplex *d_sig, *d_spec;
    CUDA_CHECK(cudaMalloc(&d_sig, sizeof(cufftComplex) * n * batch));
    CUDA_CHECK(cudaMalloc(&d_spec, sizeof(cufftComplex) * n * batch));
    CUDA_CHECK(cudaMemcpy(d_sig, sig.data(), sizeof(cufftComplex) * n * batch, cudaMemcpyHostToDevice));
    cufftHandle plan;
    CUFFT_CHECK(cufftPlan1d(&plan, n, CUFFT_C2C, batch));
    CUFFT_CHECK(cufftExecC2C(plan, d_sig, d_spec, CUFFT_FORWARD));
    CUFFT_CHECK(cufftExecC2C(plan, d_spec, d_sig, CUFFT_INVERSE));
    CUDA_CHECK(cudaMemcpy(spec.data(), d_spec, sizeof(cufftComplex) * n * batch, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(back.data(), d_sig, sizeof(cufftComplex) * n * batch, cudaMemcpyDeviceToHost));
    double worst = 0;
    for (int b = 0; b < batch; ++b) {
        int peak = 0;
        for (int k = 1; k < n; ++k)
            if (magnitude(spec[b * n + k]) > magnitude(spec[b * n + peak])) peak = k;
        printf("c2c batch %d peak bin %d magnitude %.3f\n", b, peak, magnitude(spec[b * n + peak]));
        if (peak != 3 + 5 * b) ++failures;
        for (int i = 0; i < n; ++i)
            worst = fmax(worst, fabs(back[b * n + i].x / n - sig[b * n + i].x) +
                                    fabs(back[b * n + i].y / n - sig[b * n + i].y));
    }
    printf("c2c roundtrip within 1e-5: %s\n", worst < 1e-5 ? "yes" : "no");
    if (worst >= 1e-5) ++failures;
    CUFFT_CHECK(cufftDestroy(plan));

    // 2) real-to-complex: two cosines (bins 10 and 40, amplitudes 1 and 0.5), then back
    const int nr = 512;
    std::vector<float> real(nr), real_back(nr);
    for (int i = 0; i < nr; ++i)
        real[i] = (float)(cos(2 * kPi * 10 * i / nr) + 0.5 * cos(2 * kPi * 40 * i / nr));
    float* d_real;
    cufftComplex* d_half;
    CUDA_CHECK(cudaMalloc(&d_real, sizeof(float) * nr));
    CUDA_CHECK(cudaMalloc(&d_half, sizeof(cufftComplex) * (nr / 2 + 1)));
    CUDA_CHECK(cudaMemcpy(d_real, real.data(), sizeof(float) * nr, cudaMemcpyHostToDevice));
    cufftHandle r2c, c2r;
    CUFFT_CHECK(cufftPlan1d(&r2c, nr, CUFFT_R2C, 1));
    CUFFT_CHECK(cufftPlan1d(&c2r, nr, CUFFT_C2R, 1));
    CUFFT_CHECK(cufftExecR2C(r2c, d_real, d_half));
    std::vector<cufftComplex> half(nr / 2 + 1);
    CUDA_CHECK(cudaMemcpy(half.data(), d_half, sizeof(cufftComplex) * (nr / 2 + 1), cudaMemcpyDeviceToHost));
    printf("r2c bin 10 magnitude %.3f bin 40 magnitude %.3f\n", magnitude(half[10]), magnitude(half[40]));
    if (fabs(magnitude(half[10]) - nr / 2) > 1e-2 || fabs(magnitude(half[40]) - nr / 4) > 1e-2) ++failures;
    CUFFT_CHECK(cufftExecC2R(c2r, d_half, d_real));  // c2r may overwrite d_half: not reused
    CUDA_CHECK(cudaMemcpy(real_back.data(), d_real, sizeof(float) * nr, cudaMemcpyDeviceToHost));
    worst = 0;
    for (int i = 0; i < nr; ++i) worst = fmax(worst, fabs(real_back[i] / nr - real[i]));
    printf("r2c/c2r roundtrip within 1e-5: %s\n", worst < 1e-5 ? "yes" : "no");
    if (worst >= 1e-5) ++failures;
    CUFFT_CHECK(cufftDestroy(r2c));
    CUFFT_CHECK(cufftDestroy(c2r));

    // 3) 2D complex FFT of a plane wave on a 32 x 16 grid (kx 2, ky 5)
    const int nx = 32, ny = 16;
    std::vector<cufftComplex> grid(nx * ny), grid_spec(nx * ny);
    for (int x = 0; x < nx; ++x)
        for (int y = 0; y < ny; ++y) {
            double phase = 2 * kPi * (2.0 * x / nx + 5.0 * y / ny);
            grid[x * ny + y].x = (float)cos(phase);
            grid[x * ny + y].y = (float)sin(phase);
        }
    cufftComplex* d_grid;
    CUDA_CHECK(cudaMalloc(&d_grid, sizeof(cufftComplex) * nx * ny));
    CUDA_CHECK(cudaMemcpy(d_grid, grid.data(), sizeof(cufftComplex) * nx * ny, cudaMemcpyHostToDevice));
    cufftHandle plan2d;
    CUFFT_CHECK(cufftPlan2d(&plan2d, nx, ny, CUFFT_C2C));
    CUFFT_CHECK(cufftExecC2C(plan2d, d_grid, d_grid, CUFFT_FORWARD));
    CUDA_CHECK(cudaMemcpy(grid_spec.data(), d_grid, sizeof(cufftComplex) * nx * ny, cudaMemcpyDeviceToHost));
    int peak = 0;
    for (int k = 1; k < nx * ny; ++k)
        if (magnitude(grid_spec[k]) > magnitude(grid_spec[peak])) peak = k;
    printf("2d peak at (%d, %d) magnitude %.3f\n", peak / ny, peak % ny, magnitude(grid_spec[peak]));
    if (peak != 2 * ny + 5) ++failures;
    CUFFT_CHECK(cufftDestroy(plan2d));

    for (void* p : {(void*)d_sig, (void*)d_spec, (void*)d_real, (void*)d_half, (void*)d_grid})
        CUDA_CHECK(cudaFree(p));
    printf(failures ? "CHECK FAIL\n" : "CHECK PASS\n");
    return failures ? 1 : 0;
}
