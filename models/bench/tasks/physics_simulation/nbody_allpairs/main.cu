// All-pairs gravitational N-body step (softened), tiled through shared memory
// like the classic GPU Gems kernel. Uses rsqrtf and float4 bodies, then a
// leapfrog kick-drift update.
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

#define TILE 256
static const int kBodies = 512;
static const float kSoftening2 = 0.01f;
static const float kDt = 0.005f;

__device__ inline float3 bodyInteraction(float4 bi, float4 bj, float3 acc) {
    float3 r = make_float3(bj.x - bi.x, bj.y - bi.y, bj.z - bi.z);
    float dist2 = r.x * r.x + r.y * r.y + r.z * r.z + kSoftening2;
    float inv = rsqrtf(dist2);
    float s = bj.w * inv * inv * inv;
    acc.x += r.x * s; acc.y += r.y * s; acc.z += r.z * s;
    return acc;
}

__global__ void __launch_bounds__(TILE)
computeAccelerations(const float4* bodies, float3* accel, int n) {
    __shared__ float4 tile[TILE];
    int i = blockIdx.x * TILE + threadIdx.x;
    float4 me = i < n ? bodies[i] : make_float4(0, 0, 0, 0);
    float3 acc = make_float3(0, 0, 0);
    for (int base = 0; base < n; base += TILE) {
        int j = base + threadIdx.x;
        tile[threadIdx.x] = j < n ? bodies[j] : make_float4(0, 0, 0, 0);
        __syncthreads();
#pragma unroll 8
        for (int k = 0; k < TILE; ++k) acc = bodyInteraction(me, tile[k], acc);
        __syncthreads();
    }
    if (i < n) accel[i] = acc;
}

__global__ void leapfrog(float4* bodies, float3* vel, const float3* accel, int n, float dt) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    float3 v = vel[i], a = accel[i];
    v.x += a.x * dt; v.y += a.y * dt; v.z += a.z * dt;
    vel[i] = v;
    float4 b = bodies[i];
    b.x += v.x * dt; b.y += v.y * dt; b.z += v.z * dt;
    bodies[i] = b;
}

int main() {
    std::vector<float4> bodies(kBodies);
    std::vector<float3> vel(kBodies);
    uint32_t s = 6022140u;
    auto uni = [&s]() { s ^= s << 13; s ^= s >> 17; s ^= s << 5; return (s >> 8) / 16777216.0f; };
    for (int i = 0; i < kBodies; ++i) {
        float x = uni() * 2 - 1, y = uni() * 2 - 1, z = (uni() * 2 - 1) * 0.2f;
        bodies[i] = make_float4(x, y, z, 0.5f + uni() / kBodies);
        vel[i] = make_float3(-y * 0.3f, x * 0.3f, 0.0f);   // rotating disc
    }
    float4* dBodies; float3 *dVel, *dAcc;
    CUDA_CHECK(cudaMalloc(&dBodies, kBodies * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&dVel, kBodies * sizeof(float3)));
    CUDA_CHECK(cudaMalloc(&dAcc, kBodies * sizeof(float3)));
    CUDA_CHECK(cudaMemcpy(dBodies, bodies.data(), kBodies * sizeof(float4), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpy(dVel, vel.data(), kBodies * sizeof(float3), cudaMemcpyHostToDevice));
    computeAccelerations<<<kBodies / TILE, TILE>>>(dBodies, dAcc, kBodies);
    CUDA_CHECK(cudaGetLastError());
    leapfrog<<<kBodies / 128, 128>>>(dBodies, dVel, dAcc, kBodies, kDt);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float3> acc(kBodies), newVel(kBodies);
    std::vector<float4> newBodies(kBodies);
    CUDA_CHECK(cudaMemcpy(acc.data(), dAcc, kBodies * sizeof(float3), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(newVel.data(), dVel, kBodies * sizeof(float3), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(newBodies.data(), dBodies, kBodies * sizeof(float4), cudaMemcpyDeviceToHost));

    double maxRel = 0.0, kinetic = 0.0, accMag = 0.0;
    for (int i = 0; i < kBodies; ++i) {
        double ax = 0, ay = 0, az = 0;
        for (int j = 0; j < kBodies; ++j) {
            double rx = bodies[j].x - bodies[i].x, ry = bodies[j].y - bodies[i].y, rz = bodies[j].z - bodies[i].z;
            double d2 = rx * rx + ry * ry + rz * rz + kSoftening2;
            double sc = bodies[j].w / (d2 * sqrt(d2));
            ax += rx * sc; ay += ry * sc; az += rz * sc;
        }
        double norm = sqrt(ax * ax + ay * ay + az * az);
        double err = sqrt((acc[i].x - ax) * (acc[i].x - ax) + (acc[i].y - ay) * (acc[i].y - ay) + (acc[i].z - az) * (acc[i].z - az));
        maxRel = fmax(maxRel, err / (norm + 1e-3));
        accMag += norm;
        float3 v = newVel[i];
        kinetic += 0.5 * bodies[i].w * ((double)v.x * v.x + (double)v.y * v.y + (double)v.z * v.z);
    }
    printf("bodies %d softening^2 %.3f dt %.4f\n", kBodies, kSoftening2, kDt);
    printf("mean |a| %.5e kinetic energy after kick %.5e\n", accMag / kBodies, kinetic);
    printf("a[0] %.5e %.5e %.5e\n", acc[0].x, acc[0].y, acc[0].z);
    printf("x[511] %.5e %.5e %.5e\n", newBodies[511].x, newBodies[511].y, newBodies[511].z);
    bool ok = maxRel < 1e-3;
    printf("max relative force error below 1e-3: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dBodies)); CUDA_CHECK(cudaFree(dVel)); CUDA_CHECK(cudaFree(dAcc));
    return ok ? 0 : 1;
}
