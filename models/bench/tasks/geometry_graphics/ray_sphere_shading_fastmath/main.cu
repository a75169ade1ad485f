// A small ray caster: each pixel's primary ray finds the nearest of 16 spheres (scene in constant memory),
// casts a shadow ray to a point light, and shades with Lambert + Blinn-Phong specular and exponential fog
// using the fast-math intrinsics __powf, __expf, __fdividef and rsqrtf. Hit and shadow pixels are counted.
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

constexpr int W = 256, H = 256;
constexpr int NS = 16;

struct Sphere {
    float3 c;
    float r;
    float3 albedo;
    float shininess;
};

__constant__ Sphere c_scene[NS];
__constant__ float3 c_light;

__host__ __device__ inline float3 sub(float3 a, float3 b) { return make_float3(a.x - b.x, a.y - b.y, a.z - b.z); }
__host__ __device__ inline float dot3(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// Nearest intersection distance along unit direction d from o; returns sphere index or -1.
__host__ __device__ inline int nearest_hit(const Sphere* scene, float3 o, float3 d, float* t_out) {
    int best = -1;
    float best_t = 1e30f;
    for (int k = 0; k < NS; ++k) {
        const float3 oc = sub(o, scene[k].c);
        const float b = dot3(oc, d), c = dot3(oc, oc) - scene[k].r * scene[k].r;
        const float disc = b * b - c;
        if (disc < 0.0f) continue;
        const float t = -b - sqrtf(disc);
        if (t > 1e-3f && t < best_t) { best_t = t; best = k; }
    }
    *t_out = best_t;
    return best;
}

__global__ void render(float* image, unsigned* counters) {
    const int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= W || y >= H) return;
    float3 d = make_float3((x + 0.5f) / W * 2.0f - 1.0f, 1.0f - (y + 0.5f) / H * 2.0f, 1.5f);
    const float inv = rsqrtf(dot3(d, d));
    d = make_float3(d.x * inv, d.y * inv, d.z * inv);
    const float3 eye = make_float3(0.0f, 0.0f, -1.0f);
    float t;
    const int k = nearest_hit(c_scene, eye, d, &t);
    float lum = 0.05f;  // background
    if (k >= 0) {
        atomicAdd(&counters[0], 1u);
        const Sphere s = c_scene[k];
        const float3 p = make_float3(eye.x + t * d.x, eye.y + t * d.y, eye.z + t * d.z);
        const float3 n = make_float3(__fdividef(p.x - s.c.x, s.r), __fdividef(p.y - s.c.y, s.r), __fdividef(p.z - s.c.z, s.r));
        float3 l = sub(c_light, p);
        const float dist_l = sqrtf(dot3(l, l));
        l = make_float3(__fdividef(l.x, dist_l), __fdividef(l.y, dist_l), __fdividef(l.z, dist_l));
        float ts;
        const int blocker = nearest_hit(c_scene, p, l, &ts);
        const bool shadow = blocker >= 0 && ts < dist_l;
        if (shadow) atomicAdd(&counters[1], 1u);
        const float ndl = fmaxf(dot3(n, l), 0.0f);
        float3 h = make_float3(l.x - d.x, l.y - d.y, l.z - d.z);
        const float hinv = rsqrtf(dot3(h, h));
        const float spec = __powf(fmaxf(dot3(n, h) * hinv, 0.0f), s.shininess);
        const float albedo = 0.3f * s.albedo.x + 0.6f * s.albedo.y + 0.1f * s.albedo.z;
        lum = 0.1f * albedo + (shadow ? 0.0f : albedo * ndl + 0.5f * spec);
        lum *= __expf(-0.08f * t);  // fog
    }
    image[y * W + x] = lum;
}

static float host_lum(const Sphere* scene, float3 light, int x, int y, int* hit, int* shadowed) {
    float3 d = make_float3((x + 0.5f) / W * 2.0f - 1.0f, 1.0f - (y + 0.5f) / H * 2.0f, 1.5f);
    const float inv = 1.0f / sqrtf(dot3(d, d));
    d = make_float3(d.x * inv, d.y * inv, d.z * inv);
    const float3 eye = make_float3(0.0f, 0.0f, -1.0f);
    float t;
    const int k = nearest_hit(scene, eye, d, &t);
    *hit = k >= 0;
    *shadowed = 0;
    if (k < 0) return 0.05f;
    const Sphere& s = scene[k];
    const float3 p = make_float3(eye.x + t * d.x, eye.y + t * d.y, eye.z + t * d.z);
    const float3 n = make_float3((p.x - s.c.x) / s.r, (p.y - s.c.y) / s.r, (p.z - s.c.z) / s.r);
    float3 l = sub(light, p);
    const float dl = sqrtf(dot3(l, l));
    l = make_float3(l.x / dl, l.y / dl, l.z / dl);
    float ts;
    const int blocker = nearest_hit(scene, p, l, &ts);
    *shadowed = blocker >= 0 && ts < dl;
    const float ndl = fmaxf(dot3(n, l), 0.0f);
    const float3 h = make_float3(l.x - d.x, l.y - d.y, l.z - d.z);
    const float spec = powf(fmaxf(dot3(n, h) / sqrtf(dot3(h, h)), 0.0f), s.shininess);
    const float albedo = 0.3f * s.albedo.x + 0.6f * s.albedo.y + 0.1f * s.albedo.z;
    return (0.1f * albedo + (*shadowed ? 0.0f : albedo * ndl + 0.5f * spec)) * expf(-0.08f * t);
}

int main() {
    g_seed = 1980u;
    Sphere scene[NS];
    for (int k = 0; k < NS; ++k) {
        const float cx = 2.5f * next_uniform(), cy = 2.0f * next_uniform(), cz = 4.0f + 2.5f * next_uniform();
        const float r = 0.3f + 0.3f * (0.5f + 0.5f * next_uniform());
        const float ar = 0.5f + 0.5f * next_uniform(), ag = 0.5f + 0.5f * next_uniform(), ab = 0.5f + 0.5f * next_uniform();
        scene[k] = Sphere{make_float3(cx, cy, cz), r, make_float3(ar, ag, ab), (float)(8 << (next_u32() % 4u))};
    }
    scene[0] = Sphere{make_float3(0.0f, -101.5f, 5.0f), 100.0f, make_float3(0.8f, 0.8f, 0.8f), 4.0f};  // floor
    const float3 light = make_float3(3.0f, 5.0f, 0.0f);
    CUDA_CHECK(cudaMemcpyToSymbol(c_scene, scene, sizeof(scene)));
    CUDA_CHECK(cudaMemcpyToSymbol(c_light, &light, sizeof(light)));
    float* d_img;
    unsigned* d_cnt;
    CUDA_CHECK(cudaMalloc(&d_img, W * H * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&d_cnt, 2 * sizeof(unsigned)));
    CUDA_CHECK(cudaMemset(d_cnt, 0, 2 * sizeof(unsigned)));
    render<<<dim3(W / 16, H / 16), dim3(16, 16)>>>(d_img, d_cnt);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float> img(W * H);
    unsigned cnt[2];
    CUDA_CHECK(cudaMemcpy(img.data(), d_img, W * H * sizeof(float), cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(cnt, d_cnt, sizeof(cnt), cudaMemcpyDeviceToHost));

    int rhit = 0, rshadow = 0, mismatched = 0;
    double sum = 0.0, rsum = 0.0;
    for (int y = 0; y < H; ++y)
        for (int x = 0; x < W; ++x) {
            int h, s;
            const float ref = host_lum(scene, light, x, y, &h, &s);
            rhit += h;
            rshadow += s;
            if (fabsf(ref - img[y * W + x]) > 2e-3f * (1.0f + ref)) ++mismatched;
            sum += img[y * W + x];
            rsum += ref;
        }
    // Fast-math and FMA contraction may flip a handful of silhouette or shadow-edge pixels.
    const bool ok = mismatched <= 16 && abs((int)cnt[0] - rhit) <= 8 && abs((int)cnt[1] - rshadow) <= 8 &&
                    fabs(sum - rsum) < 1e-3 * rsum;
    printf("image %dx%d spheres %d\n", W, H, NS);
    printf("hit_pixels %u shadow_pixels %u\n", cnt[0], cnt[1]);
    printf("mean_luminance %.5e center %.5e corner %.5e\n", sum / (W * H), img[(H / 2) * W + W / 2], img[W - 1]);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_img));
    CUDA_CHECK(cudaFree(d_cnt));
    return ok ? 0 : 1;
}
