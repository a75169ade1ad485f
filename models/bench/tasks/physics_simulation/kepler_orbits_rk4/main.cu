// Test particles around a central mass integrated with classical RK4 in
// double precision (GM = 1), one thread per particle, 100 steps each. The
// host checks the trajectories and the conservation of energy and angular
// momentum; sqrt comes from the math library.
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <cmath>
#include <vector>
#include <cuda_runtime.h>

#define CUDA_CHECK(call)                                                        \
    do {                                                                        \
        cudaError_t err_ = (call);                                              \
        if (err_ != cudaSuccess) {                                              \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                        \
            exit(2);                                                            \
        }                                                                       \
    } while (0)

#define THREADS 128
static const int kParticles = 512;
static const int kSteps = 100;
static const double kDt = 0.02;

struct State { double x, y, vx, vy; };

__host__ __device__ inline State derivative(const State& s) {
    double r2 = s.x * s.x + s.y * s.y;
    double inv3 = 1.0 / (r2 * sqrt(r2));
    return State{s.vx, s.vy, -s.x * inv3, -s.y * inv3};
}

__host__ __device__ inline State axpy(const State& s, const State& d, double h) {
    return State{s.x + h * d.x, s.y + h * d.y, s.vx + h * d.vx, s.vy + h * d.vy};
}

__host__ __device__ inline State rk4Step(const State& s, double h) {
    State k1 = derivative(s);
    State k2 = derivative(axpy(s, k1, 0.5 * h));
    State k3 = derivative(axpy(s, k2, 0.5 * h));
    State k4 = derivative(axpy(s, k3, h));
    return State{s.x + h / 6.0 * (k1.x + 2 * k2.x + 2 * k3.x + k4.x), s.y + h / 6.0 * (k1.y + 2 * k2.y + 2 * k3.y + k4.y),
                 s.vx + h / 6.0 * (k1.vx + 2 * k2.vx + 2 * k3.vx + k4.vx), s.vy + h / 6.0 * (k1.vy + 2 * k2.vy + 2 * k3.vy + k4.vy)};
}

__host__ __device__ inline double energy(const State& s) { return 0.5 * (s.vx * s.vx + s.vy * s.vy) - 1.0 / sqrt(s.x * s.x + s.y * s.y); }
__host__ __device__ inline double angularMomentum(const State& s) { return s.x * s.vy - s.y * s.vx; }

__global__ void __launch_bounds__(THREADS) integrate(State* states, int steps, double h) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= kParticles) return;
    State s = states[i];
    for (int k = 0; k < steps; ++k) s = rk4Step(s, h);
    states[i] = s;
}

int main() {
    std::vector<State> init(kParticles);
    uint64_t s = 0xA5A5A5A5DEADBEEFull;
    auto uni = [&s]() { s ^= s >> 12; s ^= s << 25; s ^= s >> 27; return (double)((s * 2685821657736338717ull) >> 11) / 9007199254740992.0; };
    for (int i = 0; i < kParticles; ++i) {
        double r = 1.0 + 2.0 * uni(), phi = 6.283185307179586 * uni();
        double e = 0.3 * uni();                                   // speed factor around circular
        double v = sqrt(1.0 / r) * (1.0 - e * 0.5);
        init[i] = State{r * cos(phi), r * sin(phi), -v * sin(phi), v * cos(phi)};
    }
    State* dStates;
    CUDA_CHECK(cudaMalloc(&dStates, kParticles * sizeof(State)));
    CUDA_CHECK(cudaMemcpy(dStates, init.data(), kParticles * sizeof(State), cudaMemcpyHostToDevice));
    integrate<<<kParticles / THREADS, THREADS>>>(dStates, kSteps, kDt);
    CUDA_CHECK(cudaGetLastError());
    std::vector<State> out(kParticles);
    CUDA_CHECK(cudaMemcpy(out.data(), dStates, kParticles * sizeof(State), cudaMemcpyDeviceToHost));

    double maxDiff = 0.0, maxEnergyDrift = 0.0, maxLDrift = 0.0, meanRadius = 0.0;
    for (int i = 0; i < kParticles; ++i) {
        State r = init[i];
        for (int k = 0; k < kSteps; ++k) r = rk4Step(r, kDt);
        maxDiff = fmax(maxDiff, fabs(r.x - out[i].x) + fabs(r.y - out[i].y) + fabs(r.vx - out[i].vx) + fabs(r.vy - out[i].vy));
        maxEnergyDrift = fmax(maxEnergyDrift, fabs(energy(out[i]) - energy(init[i])) / fabs(energy(init[i])));
        maxLDrift = fmax(maxLDrift, fabs(angularMomentum(out[i]) - angularMomentum(init[i])) / fabs(angularMomentum(init[i])));
        meanRadius += sqrt(out[i].x * out[i].x + out[i].y * out[i].y);
    }
    printf("particles %d steps %d dt %.3f\n", kParticles, kSteps, kDt);
    printf("mean final radius %.10e\n", meanRadius / kParticles);
    printf("particle 0 final state %.10e %.10e %.10e %.10e\n", out[0].x, out[0].y, out[0].vx, out[0].vy);
    printf("relative drift below 1e-6: energy %s angular momentum %s\n", maxEnergyDrift < 1e-6 ? "yes" : "no",
           maxLDrift < 1e-6 ? "yes" : "no");
    bool ok = maxDiff < 1e-9 && maxEnergyDrift < 1e-6 && maxLDrift < 1e-6;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dStates));
    return ok ? 0 : 1;
}
