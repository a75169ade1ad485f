// Mass-spring cloth (32x32 particles, structural and shear springs) hanging
// from two pinned corners, integrated with position Verlet for 12 steps.
// Particle state is an array of structs in managed memory, double-buffered.
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

static const int kN = 32;
static const int kSteps = 12;
static const float kRest = 0.1f;
static const float kStiffness = 400.0f;
static const float kDt = 0.004f;
static const float kGravity = -9.81f;
static const float kDamping = 0.995f;

struct Particle { float3 pos; float3 prev; int pinned; };

__host__ __device__ inline void addSpring(const Particle* p, int i, int j, float rest, float3& f) {
    float dx = p[j].pos.x - p[i].pos.x, dy = p[j].pos.y - p[i].pos.y, dz = p[j].pos.z - p[i].pos.z;
    float len = sqrtf(dx * dx + dy * dy + dz * dz);
    float mag = kStiffness * (len - rest) / len;
    f.x += mag * dx; f.y += mag * dy; f.z += mag * dz;
}

__host__ __device__ inline Particle verletStep(const Particle* p, int x, int y) {
    int i = y * kN + x;
    Particle me = p[i];
    if (me.pinned) return me;
    float3 f = make_float3(0.0f, kGravity, 0.0f);
    const int off[8][2] = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {1, 1}, {-1, -1}, {1, -1}, {-1, 1}};
    for (int k = 0; k < 8; ++k) {
        int nx = x + off[k][0], ny = y + off[k][1];
        if (nx < 0 || ny < 0 || nx >= kN || ny >= kN) continue;
        addSpring(p, i, ny * kN + nx, k < 4 ? kRest : kRest * 1.41421356f, f);
    }
    Particle out = me;
    out.pos.x = me.pos.x + (me.pos.x - me.prev.x) * kDamping + f.x * kDt * kDt;
    out.pos.y = me.pos.y + (me.pos.y - me.prev.y) * kDamping + f.y * kDt * kDt;
    out.pos.z = me.pos.z + (me.pos.z - me.prev.z) * kDamping + f.z * kDt * kDt;
    out.prev = me.pos;
    return out;
}

__global__ void clothStep(const Particle* in, Particle* out) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < kN && y < kN) out[y * kN + x] = verletStep(in, x, y);
}

int main() {
    const int count = kN * kN;
    Particle *a, *b;
    CUDA_CHECK(cudaMallocManaged(&a, count * sizeof(Particle)));
    CUDA_CHECK(cudaMallocManaged(&b, count * sizeof(Particle)));
    uint32_t s = 6626070u;
    for (int y = 0; y < kN; ++y)
        for (int x = 0; x < kN; ++x) {
            s = s * 1664525u + 1013904223u;
            float wobble = ((int)((s >> 20) & 255) - 128) * 1e-5f;
            Particle p;
            p.pos = make_float3(x * kRest, -y * kRest * 0.98f, wobble);   // slightly compressed sheet
            p.prev = p.pos;
            p.pinned = (y == 0 && (x == 0 || x == kN - 1));
            a[y * kN + x] = p;
        }
    std::vector<Particle> ref(a, a + count), tmp(count);
    dim3 block(16, 16), grid(kN / 16, kN / 16);
    Particle *cur = a, *nxt = b;
    for (int t = 0; t < kSteps; ++t) {
        clothStep<<<grid, block>>>(cur, nxt);
        CUDA_CHECK(cudaGetLastError());
        Particle* sw = cur; cur = nxt; nxt = sw;
    }
    CUDA_CHECK(cudaDeviceSynchronize());

    for (int t = 0; t < kSteps; ++t) {
        for (int y = 0; y < kN; ++y)
            for (int x = 0; x < kN; ++x) tmp[y * kN + x] = verletStep(ref.data(), x, y);
        ref.swap(tmp);
    }
    double maxErr = 0.0, sumY = 0.0, minY = 0.0;
    for (int i = 0; i < count; ++i) {
        maxErr = fmax(maxErr, fabs(cur[i].pos.x - ref[i].pos.x) + fabs(cur[i].pos.y - ref[i].pos.y) + fabs(cur[i].pos.z - ref[i].pos.z));
        sumY += cur[i].pos.y;
        minY = fmin(minY, cur[i].pos.y);
    }
    Particle corner = cur[count - 1], middle = cur[16 * kN + 16];
    printf("cloth %dx%d steps %d dt %.4f\n", kN, kN, kSteps, kDt);
    printf("mean height %.5e lowest point %.5e\n", sumY / count, minY);
    printf("free corner %.5e %.5e middle %.5e %.5e\n", corner.pos.x, corner.pos.y, middle.pos.x, middle.pos.y);
    bool ok = maxErr < 1e-4;
    printf("max position error below 1e-4: %s\n", ok ? "yes" : "no");
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(a)); CUDA_CHECK(cudaFree(b));
    return ok ? 0 : 1;
}
