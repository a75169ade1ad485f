// Batched ODE integration: each thread integrates one Van der Pol oscillator x'' - mu (1 - x^2) x' + x = 0
// with the classical fourth-order Runge-Kutta method, and records the energy-like norm at the end.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                          \
    do {                                                                          \
        cudaError_t err_ = (call);                                                \
        if (err_ != cudaSuccess) {                                                \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                          \
            exit(2);                                                              \
        }                                                                         \
    } while (0)

// Deterministic input generator (LCG); never rand() or the clock.
static uint32_t g_seed = 12345u;
inline uint32_t next_u32() {
    g_seed = g_seed * 1664525u + 1013904223u;
    return g_seed;
}
inline float next_uniform() {  // uniform in [-1, 1)
    return (float)(next_u32() >> 8) * (2.0f / 16777216.0f) - 1.0f;
}

struct State {
    double x, v;
};

struct Params {
    double mu;
    double forcing;  // amplitude of cos(omega t) forcing
    double omega;
};

__host__ __device__ inline State deriv(const State& s, const Params& p, double t) {
    return State{s.v, p.mu * (1.0 - s.x * s.x) * s.v - s.x + p.forcing * cos(p.omega * t)};
}

__host__ __device__ inline State axpy(const State& a, double h, const State& k) {
    return State{a.x + h * k.x, a.v + h * k.v};
}

__host__ __device__ inline State rk4_step(const State& s, const Params& p, double t, double h) {
    const State k1 = deriv(s, p, t);
    const State k2 = deriv(axpy(s, 0.5 * h, k1), p, t + 0.5 * h);
    const State k3 = deriv(axpy(s, 0.5 * h, k2), p, t + 0.5 * h);
    const State k4 = deriv(axpy(s, h, k3), p, t + h);
    return State{s.x + h / 6.0 * (k1.x + 2.0 * k2.x + 2.0 * k3.x + k4.x),
                 s.v + h / 6.0 * (k1.v + 2.0 * k2.v + 2.0 * k3.v + k4.v)};
}

__global__ void __launch_bounds__(128) integrate(const State* init, const Params* params, int n, int steps, double h,
                                                 State* final_state, double* peak_x) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    State s = init[i];
    const Params p = params[i];
    double peak = fabs(s.x);
    for (int k = 0; k < steps; ++k) {
        s = rk4_step(s, p, k * h, h);
        peak = fmax(peak, fabs(s.x));
    }
    final_state[i] = s;
    peak_x[i] = peak;
}

int main() {
    g_seed = 1906u;
    const int n = 1024, steps = 100;
    const double h = 0.02;
    std::vector<State> init(n), out(n);
    std::vector<Params> params(n);
    std::vector<double> peak(n);
    for (int i = 0; i < n; ++i) {
        init[i] = State{2.0 * next_uniform(), next_uniform()};
        params[i] = Params{0.1 + 1.9 * (0.5 + 0.5 * next_uniform()), 0.5 * (0.5 + 0.5 * next_uniform()),
                           0.5 + (0.5 + 0.5 * next_uniform())};
    }
    State *d_init, *d_out;
    Params* d_params;
    double* d_peak;
    CUDA_CHECK(cudaMalloc(&d_init, n * sizeof(State)));
    CUDA_CHECK(cudaMalloc(&d_out, n * sizeof(State)));
    CUDA_CHECK(cudaMalloc(&d_params, n * sizeof(Params)));
    CUDA_CHECK(cudaMalloc(&d_peak, n * sizeof(double)));
    CUDA_CHECK(cudaMemcpy(d_init, init.data(), n * sizeof(State), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(d_params, params.data(), n * sizeof(Params), cudaMemcpyHostToDevice));
    integrate<<<n / 128, 128>>>(d_init, d_params, n, steps, h, d_out, d_peak);
    CUDA_CHECK(cudaGetLastError());
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, n * sizeof(State), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(peak.data(), d_peak, n * sizeof(double), cudaMemcpyDeviceToHost));

    bool ok = true;
    double sx = 0.0, sv = 0.0, speak = 0.0;
    for (int i = 0; i < n; ++i) {
        State s = init[i];
        double pk = fabs(s.x);
        for (int k = 0; k < steps; ++k) {
            s = rk4_step(s, params[i], k * h, h);
            pk = fmax(pk, fabs(s.x));
        }
        if (fabs(s.x - out[i].x) > 1e-10 * (1.0 + fabs(s.x)) || fabs(s.v - out[i].v) > 1e-10 * (1.0 + fabs(s.v)) ||
            fabs(pk - peak[i]) > 1e-10 * (1.0 + pk))
            ok = false;
        sx += out[i].x;
        sv += out[i].v;
        speak += peak[i];
    }
    printf("systems %d steps %d h %.3f\n", n, steps, h);
    printf("sum_x %.10e sum_v %.10e sum_peak %.10e\n", sx, sv, speak);
    printf("sys0 x %.10e v %.10e; sys777 x %.10e v %.10e\n", out[0].x, out[0].v, out[777].x, out[777].v);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_init));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_params));
    CUDA_CHECK(cudaFree(d_peak));
    return ok ? 0 : 1;
}
