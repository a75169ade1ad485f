// Canny edge detection in integer arithmetic: Sobel gradients, direction
// quantised to four sectors by integer tangent comparisons, non-maximum
// suppression with double thresholds, and hysteresis in one persistent block
// whose edge map lives in shared memory (rounds until __syncthreads_or says
// nothing changed).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
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

#define SIZE 128
#define PIXELS (SIZE * SIZE)
#define HYST_THREADS 1024
static const int kLow = 60, kHigh = 150;
enum { kNone = 0, kWeak = 1, kStrong = 2 };

__host__ __device__ inline int px(const unsigned char* img, int x, int y) {
    x = x < 0 ? 0 : (x >= SIZE ? SIZE - 1 : x);
    y = y < 0 ? 0 : (y >= SIZE ? SIZE - 1 : y);
    return img[y * SIZE + x];
}

// magnitude |gx|+|gy| and sector 0: horizontal gradient, 1: 45 deg, 2: vertical, 3: 135 deg
__host__ __device__ inline void gradient(const unsigned char* img, int x, int y, int* mag, int* sector) {
    int gx = px(img, x + 1, y - 1) + 2 * px(img, x + 1, y) + px(img, x + 1, y + 1) - px(img, x - 1, y - 1) - 2 * px(img, x - 1, y) - px(img, x - 1, y + 1);
    int gy = px(img, x - 1, y + 1) + 2 * px(img, x, y + 1) + px(img, x + 1, y + 1) - px(img, x - 1, y - 1) - 2 * px(img, x, y - 1) - px(img, x + 1, y - 1);
    int ax = abs(gx), ay = abs(gy);
    *mag = ax + ay;
    if (ay * 1000 <= ax * 414) *sector = 0;              // within 22.5 deg of the x axis
    else if (ax * 1000 <= ay * 414) *sector = 2;         // within 22.5 deg of the y axis
    else *sector = ((gx > 0) == (gy > 0)) ? 1 : 3;
}

__host__ __device__ inline int classify(const int* mag, const int* sector, int x, int y) {
    const int dx[4] = {1, 1, 0, -1}, dy[4] = {0, 1, 1, 1};
    int i = y * SIZE + x, s = sector[i], m = mag[i];
    int x1 = x + dx[s], y1 = y + dy[s], x2 = x - dx[s], y2 = y - dy[s];
    int m1 = (x1 >= 0 && y1 >= 0 && x1 < SIZE && y1 < SIZE) ? mag[y1 * SIZE + x1] : 0;
    int m2 = (x2 >= 0 && y2 >= 0 && x2 < SIZE && y2 < SIZE) ? mag[y2 * SIZE + x2] : 0;
    if (m < m1 || m <= m2) return kNone;                  // not a ridge maximum (ties go to the first)
    return m >= kHigh ? kStrong : (m >= kLow ? kWeak : kNone);
}

__global__ void sobelKernel(const unsigned char* img, int* mag, int* sector) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < SIZE && y < SIZE) gradient(img, x, y, &mag[y * SIZE + x], &sector[y * SIZE + x]);
}

__global__ void suppressKernel(const int* mag, const int* sector, unsigned char* cls) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < SIZE && y < SIZE) cls[y * SIZE + x] = (unsigned char)classify(mag, sector, x, y);
}

__global__ void __launch_bounds__(HYST_THREADS) hysteresis(const unsigned char* cls, unsigned char* edges, int* rounds) {
    __shared__ unsigned char state[PIXELS];
    for (int i = threadIdx.x; i < PIXELS; i += HYST_THREADS) state[i] = cls[i];
    __syncthreads();
    int r = 0, changed = 1;
    while (__syncthreads_or(changed)) {
        changed = 0;
        unsigned int promote = 0;                          // bit k: pixel threadIdx.x + k*HYST_THREADS
        for (int k = 0; k < PIXELS / HYST_THREADS; ++k) {
            int i = threadIdx.x + k * HYST_THREADS, x = i % SIZE, y = i / SIZE;
            if (state[i] != kWeak) continue;
            for (int dy = -1; dy <= 1; ++dy)
                for (int dx = -1; dx <= 1; ++dx) {
                    int xx = x + dx, yy = y + dy;
                    if (xx >= 0 && yy >= 0 && xx < SIZE && yy < SIZE && state[yy * SIZE + xx] == kStrong) promote |= 1u << k;
                }
        }
        __syncthreads();
        for (int k = 0; k < PIXELS / HYST_THREADS; ++k)
            if (promote & (1u << k)) { state[threadIdx.x + k * HYST_THREADS] = kStrong; changed = 1; }
        ++r;
    }
    for (int i = threadIdx.x; i < PIXELS; i += HYST_THREADS) edges[i] = state[i] == kStrong ? 255 : 0;
    if (threadIdx.x == 0) *rounds = r;
}

int main() {
    std::vector<unsigned char> img(PIXELS);
    uint32_t s = 112358u;
    for (int y = 0; y < SIZE; ++y)
        for (int x = 0; x < SIZE; ++x) {
            s = s * 1664525u + 1013904223u;
            int v = 40;
            if ((x - 60) * (x - 60) + (y - 64) * (y - 64) < 35 * 35) v = 150;          // bright disc
            if (x + y > 170) v = 90;                                                    // diagonal field
            if (x > 20 && x < 40 && y > 10 && y < 100) v = 110 + (y / 8) * 6;           // graded bar
            v += (int)((s >> 27) & 15) - 8;                                             // noise
            img[y * SIZE + x] = (unsigned char)v;
        }
    unsigned char *dImg, *dCls, *dEdges; int *dMag, *dSector, *dRounds;
    CUDA_CHECK(cudaMalloc(&dImg, PIXELS)); CUDA_CHECK(cudaMalloc(&dCls, PIXELS)); CUDA_CHECK(cudaMalloc(&dEdges, PIXELS));
    CUDA_CHECK(cudaMalloc(&dMag, PIXELS * sizeof(int))); CUDA_CHECK(cudaMalloc(&dSector, PIXELS * sizeof(int)));
    CUDA_CHECK(cudaMalloc(&dRounds, sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dImg, img.data(), PIXELS, cudaMemcpyHostToDevice));
    dim3 block(16, 16), grid(SIZE / 16, SIZE / 16);
    sobelKernel<<<grid, block>>>(dImg, dMag, dSector);
    CUDA_CHECK(cudaGetLastError());
    suppressKernel<<<grid, block>>>(dMag, dSector, dCls);
    CUDA_CHECK(cudaGetLastError());
    hysteresis<<<1, HYST_THREADS>>>(dCls, dEdges, dRounds);
    CUDA_CHECK(cudaGetLastError());
    std::vector<unsigned char> edges(PIXELS);
    int rounds = 0;
    CUDA_CHECK(cudaMemcpy(edges.data(), dEdges, PIXELS, cudaMemcpyDeviceToHost));
    CUDA_CHECK(cudaMemcpy(&rounds, dRounds, sizeof(int), cudaMemcpyDeviceToHost));

    std::vector<int> mag(PIXELS), sector(PIXELS);
    for (int y = 0; y < SIZE; ++y) for (int x = 0; x < SIZE; ++x) gradient(img.data(), x, y, &mag[y * SIZE + x], &sector[y * SIZE + x]);
    std::vector<unsigned char> cls(PIXELS), ref(PIXELS, 0);
    std::vector<int> stack;
    int strong = 0, weak = 0;
    for (int y = 0; y < SIZE; ++y)
        for (int x = 0; x < SIZE; ++x) {
            cls[y * SIZE + x] = (unsigned char)classify(mag.data(), sector.data(), x, y);
            if (cls[y * SIZE + x] == kStrong) { ref[y * SIZE + x] = 255; stack.push_back(y * SIZE + x); ++strong; }
            if (cls[y * SIZE + x] == kWeak) ++weak;
        }
    while (!stack.empty()) {                               // hysteresis by flood fill over weak pixels
        int i = stack.back(); stack.pop_back();
        int x = i % SIZE, y = i / SIZE;
        for (int dy = -1; dy <= 1; ++dy)
            for (int dx = -1; dx <= 1; ++dx) {
                int xx = x + dx, yy = y + dy;
                if (xx < 0 || yy < 0 || xx >= SIZE || yy >= SIZE) continue;
                int j = yy * SIZE + xx;
                if (cls[j] == kWeak && !ref[j]) { ref[j] = 255; stack.push_back(j); }
            }
    }
    int mismatches = 0, edgeCount = 0;
    unsigned long long checksum = 0;
    for (int i = 0; i < PIXELS; ++i) {
        mismatches += (edges[i] != ref[i]);
        if (edges[i]) { ++edgeCount; checksum += (unsigned long long)(i + 1) * (i % 13 + 1); }
    }
    printf("image %dx%d thresholds %d/%d\n", SIZE, SIZE, kLow, kHigh);
    printf("strong %d weak %d final edge pixels %d hysteresis rounds %d\n", strong, weak, edgeCount, rounds);
    printf("edge checksum %llu\nmismatches %d\n", checksum, mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dImg)); CUDA_CHECK(cudaFree(dCls)); CUDA_CHECK(cudaFree(dEdges));
    CUDA_CHECK(cudaFree(dMag)); CUDA_CHECK(cudaFree(dSector)); CUDA_CHECK(cudaFree(dRounds));
    return ok ? 0 : 1;
}
