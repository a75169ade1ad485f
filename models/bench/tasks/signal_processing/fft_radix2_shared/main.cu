// Batched 1024-point complex FFT, one signal per block, computed in shared
// memory with iterative radix-2 butterflies. Input reordering uses a bit
// reversal through inline PTX (brev.b32); twiddles come from constant memory.
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

#define FFT_N 1024
#define FFT_LOG2 10
static const int kBatch = 32;
static const double kPi = 3.14159265358979323846;

__constant__ float2 cTwiddle[FFT_N / 2];

__device__ inline unsigned int bitReverse32(unsigned int x) {
    unsigned int r;
    asm("brev.b32 %0, %1;" : "=r"(r) : "r"(x));
    return r;
}

__device__ inline float2 cmul(float2 a, float2 b) {
    return make_float2(a.x * b.x - a.y * b.y, a.x * b.y + a.y * b.x);
}

__global__ void fft1024(const float2* in, float2* out) {
    __shared__ float2 buf[FFT_N];
    const float2* src = in + (size_t)blockIdx.x * FFT_N;
    for (int i = threadIdx.x; i < FFT_N; i += blockDim.x)
        buf[bitReverse32(i) >> (32 - FFT_LOG2)] = src[i];
    __syncthreads();
    for (int half = 1; half < FFT_N; half <<= 1) {
        int t = threadIdx.x;                       // blockDim.x == FFT_N / 2 butterflies
        int pos = t & (half - 1);
        int i = (t - pos) * 2 + pos;
        int j = i + half;
        float2 w = cTwiddle[pos * (FFT_N / (2 * half))];
        float2 a = buf[i];
        float2 b = cmul(buf[j], w);
        __syncthreads();
        buf[i] = make_float2(a.x + b.x, a.y + b.y);
        buf[j] = make_float2(a.x - b.x, a.y - b.y);
        __syncthreads();
    }
    float2* dst = out + (size_t)blockIdx.x * FFT_N;
    for (int i = threadIdx.x; i < FFT_N; i += blockDim.x) dst[i] = buf[i];
}

static void cpuFft(std::vector<double>& re, std::vector<double>& im) {
    int n = (int)re.size();
    for (int i = 1, j = 0; i < n; ++i) {
        int bit = n >> 1;
        for (; j & bit; bit >>= 1) j ^= bit;
        j ^= bit;
        if (i < j) { std::swap(re[i], re[j]); std::swap(im[i], im[j]); }
    }
    for (int len = 2; len <= n; len <<= 1) {
        double ang = -2.0 * kPi / len;
        for (int i = 0; i < n; i += len)
            for (int k = 0; k < len / 2; ++k) {
                double wr = cos(ang * k), wi = sin(ang * k);
                double xr = re[i + k + len / 2] * wr - im[i + k + len / 2] * wi;
                double xi = re[i + k + len / 2] * wi + im[i + k + len / 2] * wr;
                re[i + k + len / 2] = re[i + k] - xr; im[i + k + len / 2] = im[i + k] - xi;
                re[i + k] += xr; im[i + k] += xi;
            }
    }
}

int main() {
    std::vector<float2> signal((size_t)kBatch * FFT_N);
    std::vector<int> toneBin(kBatch);
    uint32_t s = 1000003u;
    for (int b = 0; b < kBatch; ++b) {
        int f1 = 5 + (b * 37) % 400, f2 = 450 + (b * 11) % 60;
        toneBin[b] = f1;
        for (int n = 0; n < FFT_N; ++n) {
            s = s * 1664525u + 1013904223u;
            float noise = ((int)(s >> 20) - 2048) / 40960.0f;
            double ph1 = 2.0 * kPi * f1 * n / FFT_N, ph2 = 2.0 * kPi * f2 * n / FFT_N;
            signal[(size_t)b * FFT_N + n] = make_float2((float)(cos(ph1) + 0.3 * cos(ph2)) + noise,
                                                        (float)(sin(ph1) + 0.3 * sin(ph2)));
        }
    }
    float2 tw[FFT_N / 2];
    for (int k = 0; k < FFT_N / 2; ++k)
        tw[k] = make_float2((float)cos(-2.0 * kPi * k / FFT_N), (float)sin(-2.0 * kPi * k / FFT_N));
    CUDA_CHECK(cudaMemcpyToSymbol(cTwiddle, tw, sizeof(tw)));
    float2 *dIn, *dOut;
    size_t bytes = signal.size() * sizeof(float2);
    CUDA_CHECK(cudaMalloc(&dIn, bytes));
    CUDA_CHECK(cudaMalloc(&dOut, bytes));
    CUDA_CHECK(cudaMemcpy(dIn, signal.data(), bytes, cudaMemcpyHostToDevice));
    fft1024<<<kBatch, FFT_N / 2>>>(dIn, dOut);
    CUDA_CHECK(cudaGetLastError());
    std::vector<float2> spec(signal.size());
    CUDA_CHECK(cudaMemcpy(spec.data(), dOut, bytes, cudaMemcpyDeviceToHost));

    double maxErr = 0.0, totalEnergy = 0.0;
    int peakMismatch = 0;
    printf("batch %d points %d\n", kBatch, FFT_N);
    for (int b = 0; b < kBatch; ++b) {
        std::vector<double> re(FFT_N), im(FFT_N);
        for (int n = 0; n < FFT_N; ++n) { re[n] = signal[(size_t)b * FFT_N + n].x; im[n] = signal[(size_t)b * FFT_N + n].y; }
        cpuFft(re, im);
        int peak = 0; double peakMag = -1.0, energy = 0.0;
        for (int k = 0; k < FFT_N; ++k) {
            float2 g = spec[(size_t)b * FFT_N + k];
            maxErr = fmax(maxErr, fmax(fabs(g.x - re[k]), fabs(g.y - im[k])));
            double mag = (double)g.x * g.x + (double)g.y * g.y;
            energy += mag;
            if (mag > peakMag) { peakMag = mag; peak = k; }
        }
        totalEnergy += energy;
        peakMismatch += (peak != toneBin[b]);
        if (b % 8 == 0) printf("signal %d peak bin %d magnitude %.6e\n", b, peak, sqrt(peakMag));
    }
    printf("total spectral energy %.6e\n", totalEnergy);
    printf("X[3][0] %.6e %.6e\n", spec[3 * FFT_N].x, spec[3 * FFT_N].y);
    bool ok = maxErr < 2e-2 && peakMismatch == 0;
    printf("max abs error below 2e-2: %s, peaks found: %d/%d\n", maxErr < 2e-2 ? "yes" : "no", kBatch - peakMismatch, kBatch);
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dIn)); CUDA_CHECK(cudaFree(dOut));
    return ok ? 0 : 1;
}
