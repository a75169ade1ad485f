// Bond analytics: for each bond (coupon, maturity, frequency class, clean price) solve the yield to
// maturity with Newton's method on the price-yield function, then compute Macaulay and modified duration
// and convexity. Coupon frequencies and face values per bond class live in constant memory.
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

constexpr int N = 512;
constexpr int CLASSES = 4;

struct Bond {
    double coupon_rate;   // annual
    double maturity;      // years
    double price;         // per 100 face
    int cls;              // index into the constant tables
};

struct Analytics {
    double ytm, macaulay, modified, convexity;
};

__constant__ int c_freq[CLASSES];
__constant__ double c_face[CLASSES];

__host__ __device__ inline void price_and_derivs(const Bond& b, int freq, double face, double y, double* p, double* dp,
                                                 double* t_weighted, double* convex) {
    const int periods = (int)(b.maturity * freq + 0.5);
    const double c = face * b.coupon_rate / freq;
    const double g = 1.0 + y / freq;
    double price = 0.0, dprice = 0.0, tw = 0.0, cv = 0.0;
    double disc = 1.0 / g;
    for (int k = 1; k <= periods; ++k) {
        const double cf = c + (k == periods ? face : 0.0);
        const double pv = cf * disc;
        const double t = (double)k / freq;
        price += pv;
        dprice -= t * pv / g;
        tw += t * pv;
        cv += pv * k * (k + 1) / ((double)freq * freq * g * g);
        disc /= g;
    }
    *p = price * 100.0 / face;
    *dp = dprice * 100.0 / face;
    *t_weighted = tw;
    *convex = cv / price;
}

__host__ __device__ inline Analytics analyse(const Bond& b, int freq, double face) {
    double y = b.coupon_rate > 0.0 ? b.coupon_rate : 0.03, p, dp, tw, cv;
    for (int it = 0; it < 50; ++it) {
        price_and_derivs(b, freq, face, y, &p, &dp, &tw, &cv);
        const double step = (p - b.price) / dp;
        y -= step;
        if (fabs(step) < 1e-14) break;
    }
    price_and_derivs(b, freq, face, y, &p, &dp, &tw, &cv);
    const double mac = tw / (p * face / 100.0);
    return Analytics{y, mac, mac / (1.0 + y / freq), cv};
}

__global__ void bond_analytics(const Bond* bonds, Analytics* out) {
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= N) return;
    const Bond b = bonds[i];
    out[i] = analyse(b, c_freq[b.cls], c_face[b.cls]);
}

int main() {
    g_seed = 1694u;
    const int freq[CLASSES] = {1, 2, 4, 12};
    const double face[CLASSES] = {100.0, 1000.0, 100.0, 25.0};
    std::vector<Bond> bonds(N);
    for (auto& b : bonds) {
        b.cls = (int)(next_u32() >> 30);
        b.coupon_rate = 0.01 * (int)(next_u32() % 9u);        // 0% .. 8%
        b.maturity = 1.0 + (double)(next_u32() % 20u);         // 1 .. 20 years
        b.price = 70.0 + 50.0 * (0.5 + 0.5 * next_uniform()); // 70 .. 120
        if (b.coupon_rate == 0.0 && b.price > 99.0) b.price = 60.0 + 0.3 * b.price;  // zeros trade below par
    }
    Bond* d_b;
    Analytics* d_out;
    CUDA_CHECK(cudaMalloc(&d_b, N * sizeof(Bond)));
    CUDA_CHECK(cudaMalloc(&d_out, N * sizeof(Analytics)));
    CUDA_CHECK(cudaMemcpy(d_b, bonds.data(), N * sizeof(Bond), cudaMemcpyHostToDevice));
    CUDA_CHECK(cudaMemcpyToSymbol(c_freq, freq, sizeof(freq)));
    CUDA_CHECK(cudaMemcpyToSymbol(c_face, face, sizeof(face)));
    bond_analytics<<<N / 128, 128>>>(d_b, d_out);
    CUDA_CHECK(cudaGetLastError());
    std::vector<Analytics> out(N);
    CUDA_CHECK(cudaMemcpy(out.data(), d_out, N * sizeof(Analytics), cudaMemcpyDeviceToHost));

    bool ok = true;
    double sy = 0.0, sd = 0.0, sm = 0.0, sc = 0.0;
    for (int i = 0; i < N; ++i) {
        const Analytics r = analyse(bonds[i], freq[bonds[i].cls], face[bonds[i].cls]);
        const Analytics& g = out[i];
        if (fabs(r.ytm - g.ytm) > 1e-12 || fabs(r.macaulay - g.macaulay) > 1e-9 * r.macaulay ||
            fabs(r.modified - g.modified) > 1e-9 * r.modified || fabs(r.convexity - g.convexity) > 1e-9 * r.convexity)
            ok = false;
        if (g.ytm > 0.0 && !(g.modified < g.macaulay)) ok = false;  // positive yields shorten duration
        sy += g.ytm; sd += g.macaulay; sm += g.modified; sc += g.convexity;
    }
    printf("bonds %d\n", N);
    printf("mean ytm %.10e macaulay %.10e modified %.10e convexity %.10e\n", sy / N, sd / N, sm / N, sc / N);
    printf("bond0 ytm %.10e duration %.10e; bond%d ytm %.10e\n", out[0].ytm, out[0].macaulay, N - 1, out[N - 1].ytm);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(d_b));
    CUDA_CHECK(cudaFree(d_out));
    return ok ? 0 : 1;
}
