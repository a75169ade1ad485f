// Free rigid-body rotation of 4096 bodies with quaternion orientation and a
// diagonal inertia tensor: Euler's equations for the body-frame angular
// velocity, q' = 0.5 q (0, w), renormalised with rsqrtf every step (float4
// quaternions). 64 steps per body in one kernel; kinetic energy and angular
// momentum magnitude are reported and checked against the host run.
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

static const int kBodies = 4096;
static const int kSteps = 64;
static const float kDt = 0.002f;

struct Body { float4 q; float3 w; float3 inertia; };

__host__ __device__ inline float invSqrt(float x) {
#ifdef __CUDA_ARCH__
    return rsqrtf(x);
#else
    return 1.0f / sqrtf(x);
#endif
}

__host__ __device__ inline float4 quatMul(float4 a, float4 b) {   // (w, x, y, z) stored as (x, y, z, w)
    return make_float4(a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
                       a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
                       a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w,
                       a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z);
}

__host__ __device__ inline Body step(Body b, float dt) {
    float3 I = b.inertia, w = b.w;
    float3 dw = make_float3((I.y - I.z) / I.x * w.y * w.z, (I.z - I.x) / I.y * w.z * w.x, (I.x - I.y) / I.z * w.x * w.y);
    w = make_float3(w.x + dt * dw.x, w.y + dt * dw.y, w.z + dt * dw.z);
    float4 dq = quatMul(b.q, make_float4(w.x, w.y, w.z, 0.0f));
    float4 q = make_float4(b.q.x + 0.5f * dt * dq.x, b.q.y + 0.5f * dt * dq.y, b.q.z + 0.5f * dt * dq.z, b.q.w + 0.5f * dt * dq.w);
    float n = invSqrt(q.x * q.x + q.y * q.y + q.z * q.z + q.w * q.w);
    b.q = make_float4(q.x * n, q.y * n, q.z * n, q.w * n);
    b.w = w;
    return b;
}

__host__ __device__ inline float kinetic(const Body& b) {
    return 0.5f * (b.inertia.x * b.w.x * b.w.x + b.inertia.y * b.w.y * b.w.y + b.inertia.z * b.w.z * b.w.z);
}

__global__ void integrate(Body* bodies, int n, int steps, float dt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Body b = bodies[i];
    for (int s = 0; s < steps; ++s) b = step(b, dt);
    bodies[i] = b;
}

int main() {
    std::vector<Body> bodies(kBodies);
    uint32_t s = 777001u;
    auto uni = [&s]() { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return (s >> 8) / 16777216.0f; };
    for (int i = 0; i < kBodies; ++i) {
        Body b;
        b.q = make_float4(0.0f, 0.0f, 0.0f, 1.0f);
        // one draw per statement: the order in which call arguments are evaluated is unspecified
        const float ix = 1.0f + uni(), iy = 2.0f + uni(), iz = 3.5f + uni();  // distinct principal moments
        const float wx = 2.0f * uni() - 1.0f, wy = 4.0f * uni() - 2.0f, wz = 2.0f * uni() - 1.0f;
        b.inertia = make_float3(ix, iy, iz);
        b.w = make_float3(wx, wy, wz);
        bodies[i] = b;
    }
    Body* dBodies;
    CUDA_CHECK(cudaMalloc(&dBodies, kBodies * sizeof(Body)));
    CUDA_CHECK(cudaMemcpy(dBodies, bodies.data(), kBodies * sizeof(Body), cudaMemcpyHostToDevice));
    integrate<<<kBodies / 128, 128>>>(dBodies, kBodies, kSteps, kDt);
    CUDA_CHECK(cudaGetLastError());
    std::vector<Body> out(kBodies);
    CUDA_CHECK(cudaMemcpy(out.data(), dBodies, kBodies * sizeof(Body), cudaMemcpyDeviceToHost));

    double maxDiff = 0.0, maxNormErr = 0.0, energy0 = 0.0, energy1 = 0.0;
    for (int i = 0; i < kBodies; ++i) {
        Body r = bodies[i];
        for (int k = 0; k < kSteps; ++k) r = step(r, kDt);
        const Body& g = out[i];
        maxDiff = fmax(maxDiff, fabs(g.q.x - r.q.x) + fabs(g.q.y - r.q.y) + fabs(g.q.z - r.q.z) + fabs(g.q.w - r.q.w) +
                               fabs(g.w.x - r.w.x) + fabs(g.w.y - r.w.y) + fabs(g.w.z - r.w.z));
        maxNormErr = fmax(maxNormErr, fabs(sqrt((double)g.q.x * g.q.x + g.q.y * g.q.y + g.q.z * g.q.z + g.q.w * g.q.w) - 1.0));
        energy0 += kinetic(bodies[i]);
        energy1 += kinetic(g);
    }
    printf("bodies %d steps %d dt %.3f\n", kBodies, kSteps, kDt);
    printf("kinetic energy before %.5e after %.5e\n", energy0, energy1);
    printf("q[0] %.5e %.5e %.5e %.5e\n", out[0].q.x, out[0].q.y, out[0].q.z, out[0].q.w);
    bool ok = maxDiff < 1e-4 && maxNormErr < 1e-5;
    printf("matches host integration and unit quaternions: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dBodies));
    return ok ? 0 : 1;
}
