// Exercises cass's reference hipFFT on the emulator; tests/emulator/test_emulated_hipfft.py
// computes the same with numpy.fft. Each result prints as `name re0 im0 re1 im1 ...` (%.9g).
#include <hip/hip_runtime.h>
#include <hipfft/hipfft.h>

#include <cmath>
#include <cstdio>
#include <vector>

#define CHECK(x)                                                  \
    do {                                                          \
        hipfftResult r_ = (x);                                    \
        if (r_ != HIPFFT_SUCCESS) {                               \
            printf("FAIL %s -> %d\n", #x, (int)r_);               \
            return 1;                                             \
        }                                                         \
    } while (0)

double value(int i, int seed) { return std::sin(0.7 * i + seed) + 0.25 * std::cos(1.3 * i * seed); }

template <typename T>
T* upload(const std::vector<T>& h) {
    T* d = nullptr;
    hipMalloc(&d, h.size() * sizeof(T));
    hipMemcpy(d, h.data(), h.size() * sizeof(T), hipMemcpyHostToDevice);
    return d;
}

template <typename T>
void show(const char* name, const T* d, size_t scalars) {
    std::vector<T> h(scalars);
    hipMemcpy(h.data(), d, scalars * sizeof(T), hipMemcpyDeviceToHost);
    printf("%s", name);
    for (T v : h) printf(" %.17g", (double)v);
    printf("\n");
}

int main() {
    // 1D C2C forward, batch 3, n 12 (not a power of two)
    const int n = 12, batch = 3;
    std::vector<float> c(2 * n * batch);
    for (int i = 0; i < 2 * n * batch; ++i) c[i] = (float)value(i, 1);
    hipfftComplex* dc = upload(std::vector<hipfftComplex>(reinterpret_cast<hipfftComplex*>(c.data()),
                                                          reinterpret_cast<hipfftComplex*>(c.data()) + n * batch));
    hipfftComplex* dco;
    hipMalloc(&dco, sizeof(hipfftComplex) * n * batch);
    hipfftHandle p;
    CHECK(hipfftPlan1d(&p, n, HIPFFT_C2C, batch));
    CHECK(hipfftExecC2C(p, dc, dco, HIPFFT_FORWARD));
    show("c2c_forward", reinterpret_cast<float*>(dco), 2 * n * batch);
    CHECK(hipfftExecC2C(p, dco, dco, HIPFFT_BACKWARD));  // in place
    show("c2c_backward_inplace", reinterpret_cast<float*>(dco), 2 * n * batch);
    CHECK(hipfftDestroy(p));

    // 2D Z2Z forward 6 x 10 (double)
    const int nx = 6, ny = 10;
    std::vector<double> z(2 * nx * ny);
    for (int i = 0; i < 2 * nx * ny; ++i) z[i] = value(i, 2);
    double* dz = upload(z);
    CHECK(hipfftPlan2d(&p, nx, ny, HIPFFT_Z2Z));
    CHECK(hipfftExecZ2Z(p, reinterpret_cast<hipfftDoubleComplex*>(dz), reinterpret_cast<hipfftDoubleComplex*>(dz), HIPFFT_FORWARD));
    show("z2z_2d", dz, 2 * nx * ny);
    CHECK(hipfftDestroy(p));

    // 3D C2C 4 x 3 x 5 backward
    std::vector<float> v(2 * 60);
    for (int i = 0; i < 120; ++i) v[i] = (float)value(i, 3);
    float* dv = upload(v);
    CHECK(hipfftPlan3d(&p, 4, 3, 5, HIPFFT_C2C));
    CHECK(hipfftExecC2C(p, reinterpret_cast<hipfftComplex*>(dv), reinterpret_cast<hipfftComplex*>(dv), HIPFFT_BACKWARD));
    show("c2c_3d_backward", dv, 120);
    CHECK(hipfftDestroy(p));

    // R2C then C2R, 1D n 15 batch 2 (PlanMany, packed), then D2Z 2D 4 x 6
    const int nr = 15;
    std::vector<float> r(nr * 2);
    for (int i = 0; i < nr * 2; ++i) r[i] = (float)value(i, 4);
    float* dr = upload(r);
    hipfftComplex* dh;
    hipMalloc(&dh, sizeof(hipfftComplex) * (nr / 2 + 1) * 2);
    int dims[1] = {nr};
    CHECK(hipfftPlanMany(&p, 1, dims, nullptr, 1, 0, nullptr, 1, 0, HIPFFT_R2C, 2));
    CHECK(hipfftExecR2C(p, dr, dh));
    show("r2c", reinterpret_cast<float*>(dh), 2 * (nr / 2 + 1) * 2);
    CHECK(hipfftDestroy(p));
    hipfftHandle q;
    CHECK(hipfftCreate(&q));
    size_t work = 1;
    CHECK(hipfftMakePlanMany(q, 1, dims, nullptr, 1, 0, nullptr, 1, 0, HIPFFT_C2R, 2, &work));
    CHECK(hipfftExecC2R(q, dh, dr));
    show("c2r", dr, nr * 2);
    printf("work %zu\n", work);
    CHECK(hipfftDestroy(q));
    std::vector<double> d2(24);
    for (int i = 0; i < 24; ++i) d2[i] = value(i, 5);
    double* dd = upload(d2);
    double* dzz;
    hipMalloc(&dzz, sizeof(double) * 2 * 4 * 4);
    CHECK(hipfftPlan2d(&p, 4, 6, HIPFFT_D2Z));
    CHECK(hipfftExecD2Z(p, dd, reinterpret_cast<hipfftDoubleComplex*>(dzz)));
    show("d2z_2d", dzz, 2 * 4 * 4);
    printf("wrong_type %d\n", (int)hipfftExecC2C(p, dc, dc, HIPFFT_FORWARD));
    CHECK(hipfftDestroy(p));
    return 0;
}
