// Mesh processing: a height-field grid mesh is transformed by a 4x4 model matrix held in constant memory
// (float4 vertices), face normals are accumulated into vertex normals with float atomicAdd (area
// weighted), then normalised and packed into __half for a compact vertex buffer.
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

#include <cuda_fp16.h>

constexpr int GX = 96, GY = 96;           // vertices per side
constexpr int NV = GX * GY;
constexpr int NT = 2 * (GX - 1) * (GY - 1);

__constant__ float c_model[16];  // row-major

__global__ void transform(const float4* in, float4* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= NV) return;
    const float4 v = in[i];
    float r[4];
    for (int row = 0; row < 4; ++row)
        r[row] = c_model[row * 4 + 0] * v.x + c_model[row * 4 + 1] * v.y + c_model[row * 4 + 2] * v.z + c_model[row * 4 + 3] * v.w;
    out[i] = make_float4(r[0], r[1], r[2], r[3]);
}

__device__ __host__ inline int3 triangle(int t) {
    const int q = t / 2, qx = q % (GX - 1), qy = q / (GX - 1);
    const int a = qy * GX + qx, b = a + 1, c = a + GX, d = c + 1;
    return (t & 1) ? make_int3(b, d, c) : make_int3(a, b, c);
}

__global__ void accumulate_normals(const float4* v, float* nacc) {
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    if (t >= NT) return;
    const int3 tri = triangle(t);
    const float4 a = v[tri.x], b = v[tri.y], c = v[tri.z];
    const float ux = b.x - a.x, uy = b.y - a.y, uz = b.z - a.z;
    const float wx = c.x - a.x, wy = c.y - a.y, wz = c.z - a.z;
    const float nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;  // |n| = 2 * area
    const int ids[3] = {tri.x, tri.y, tri.z};
    for (int k = 0; k < 3; ++k) {
        atomicAdd(&nacc[3 * ids[k] + 0], nx);
        atomicAdd(&nacc[3 * ids[k] + 1], ny);
        atomicAdd(&nacc[3 * ids[k] + 2], nz);
    }
}

__global__ void pack_normals(const float* nacc, __half* packed) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= NV) return;
    const float x = nacc[3 * i], y = nacc[3 * i + 1], z = nacc[3 * i + 2];
    const float inv = rsqrtf(x * x + y * y + z * z);
    packed[4 * i + 0] = __float2half(x * inv);
    packed[4 * i + 1] = __float2half(y * inv);
    packed[4 * i + 2] = __float2half(z * inv);
    packed[4 * i + 3] = __float2half(0.0f);
}

int main() {
    g_seed = 3141u;
    std::vector<float4> verts(NV);
    for (int y = 0; y < GY; ++y)
        for (int x = 0; x < GX; ++x) {
            const float h = 0.15f * sinf(0.2f * x) * cosf(0.15f * y) + 0.01f * next_uniform();
            verts[y * GX + x] = make_float4(x / (float)(GX - 1), y / (float)(GY - 1), h, 1.0f);
        }
    // Model matrix: rotation about z by 30 degrees, non-uniform scale, translation.
    const float c = 0.8660254f, s = 0.5f;
    const float model[16] = {2.0f * c, -3.0f * s, 0.0f, 1.0f,
                             2.0f * s, 3.0f * c,  0.0f, -2.0f,
                             0.0f,     0.0f,      1.5f, 0.5f,
                             0.0f,     0.0f,      0.0f, 1.0f};
    CUDA_CHECK(cudaMemcpyToSymbol(c_model, model, sizeof(model)));
    float4 *d_in, *d_out;
    float* d_nacc;
    __half* d_packed;
    CUDA_CHECK(cudaMalloc(&d_in, NV * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&d_out, NV * sizeof(float4)));
    CUDA_CHECK(cudaMalloc(&d_nacc, 3 * NV * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_packed, 4 * NV * sizeof(__half)));
    CUDA_CHECK(cudaMemcpy(d_in, verts.data(), NV * sizeof(float4), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemset(d_nacc, 0, 3 * NV * sizeof(float)));
    transform<<<(NV + 255) / 256, 256>>>(d_in, d_out);
    CUDA_CHECK(cudaGetLastError());
    accumulate_normals<<<(NT + 255) / 256, 256>>>(d_out, d_nacc);
    CUDA_CHECK(cudaGetLastError());
    pack_normals<<<(NV + 255) / 256, 256>>>(d_nacc, d_packed);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float4> tv(NV);
    std::vector<__half> packed(4 * NV);
    CUDA_CHECK(cudaMemcpy(tv.data(), d_out, NV * sizeof(float4), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(packed.data(), d_packed, 4 * NV * sizeof(__half), cudaMemcpyDeviceToHost));

    bool ok = true;
    std::vector<double> rv(4 * NV), rn(3 * NV, 0.0);
    for (int i = 0; i < NV; ++i) {
        const double v[4] = {verts[i].x, verts[i].y, verts[i].z, verts[i].w};
        for (int row = 0; row < 4; ++row) {
            rv[4 * i + row] = model[row * 4] * v[0] + model[row * 4 + 1] * v[1] + model[row * 4 + 2] * v[2] + model[row * 4 + 3] * v[3];
        }
        if (fabs(rv[4 * i] - tv[i].x) > 1e-5 || fabs(rv[4 * i + 1] - tv[i].y) > 1e-5 || fabs(rv[4 * i + 2] - tv[i].z) > 1e-5)
            ok = false;
    }
    for (int t = 0; t < NT; ++t) {
        const int3 tri = triangle(t);
        const double* a = &rv[4 * tri.x]; const double* b = &rv[4 * tri.y]; const double* cc = &rv[4 * tri.z];
        const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, w[3] = {cc[0] - a[0], cc[1] - a[1], cc[2] - a[2]};
        const double n[3] = {u[1] * w[2] - u[2] * w[1], u[2] * w[0] - u[0] * w[2], u[0] * w[1] - u[1] * w[0]};
        for (int id : {tri.x, tri.y, tri.z}) for (int k = 0; k < 3; ++k) rn[3 * id + k] += n[k];
    }
    double nz_sum = 0.0, nx_sum = 0.0, max_dev = 0.0;
    for (int i = 0; i < NV; ++i) {
        const double len = sqrt(rn[3 * i] * rn[3 * i] + rn[3 * i + 1] * rn[3 * i + 1] + rn[3 * i + 2] * rn[3 * i + 2]);
        for (int k = 0; k < 3; ++k) max_dev = fmax(max_dev, fabs(rn[3 * i + k] / len - (double)__half2float(packed[4 * i + k])));
        nx_sum += __half2float(packed[4 * i]);
        nz_sum += __half2float(packed[4 * i + 2]);
    }
    if (max_dev > 2e-3) ok = false;
    double cx = 0.0, cy = 0.0;
    for (int i = 0; i < NV; ++i) { cx += tv[i].x; cy += tv[i].y; }
    printf("vertices %d triangles %d\n", NV, NT);
    printf("transformed centroid (%.5e, %.5e) v0 (%.5e, %.5e, %.5e)\n", cx / NV, cy / NV, tv[0].x, tv[0].y, tv[0].z);
    printf("mean normal x %.4e z %.4e\n", nx_sum / NV, nz_sum / NV);
    printf("normals_within_half_precision %d\n", max_dev <= 2e-3 ? 1 : 0);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_in));
    CUDA_CHECK(cudaFree(d_out));
    CUDA_CHECK(cudaFree(d_nacc));
    CUDA_CHECK(cudaFree(d_packed));
    return ok ? 0 : 1;
}
