// Connected-component labelling of a binary image (4-connectivity) with a
// lock-free union-find: each pixel unites with its left and upper neighbours
// through atomicMin on the parent of the larger root, then a second kernel
// flattens every pixel to its root. The root is always the smallest pixel
// index of the component, so labels do not depend on thread order.
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

static const int kW = 256, kH = 256;
static const int kBackground = -1;

__device__ int findRoot(const int* parent, int x) {
    int p = parent[x];
    while (p != x) { x = p; p = parent[x]; }
    return x;
}

__device__ void unite(int* parent, int a, int b) {
    for (;;) {
        a = findRoot(parent, a);
        b = findRoot(parent, b);
        if (a == b) return;
        if (a < b) { int t = a; a = b; b = t; }          // hook the larger root under the smaller
        int old = atomicMin(&parent[a], b);
        if (old == a) return;                            // a was still a root: done
        a = old;                                         // someone re-hooked a meanwhile: retry
    }
}

__global__ void initLabels(const unsigned char* img, int* parent, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) parent[i] = img[i] ? i : kBackground;
}

__global__ void mergeNeighbours(const unsigned char* img, int* parent, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x >= w || y >= h) return;
    int i = y * w + x;
    if (!img[i]) return;
    if (x > 0 && img[i - 1]) unite(parent, i, i - 1);
    if (y > 0 && img[i - w]) unite(parent, i, i - w);
}

__global__ void flatten(int* parent, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n && parent[i] != kBackground) parent[i] = findRoot(parent, i);
}

int main() {
    const int n = kW * kH;
    std::vector<unsigned char> img(n);
    uint32_t s = 8642u;
    for (int y = 0; y < kH; ++y)
        for (int x = 0; x < kW; ++x) {
            s = s * 1103515245u + 12345u;
            int blob = ((x / 8 + y / 8) % 3 != 0) && (((x * 7 + y * 3) / 11) % 4 != 0);
            img[y * kW + x] = (unsigned char)(((s >> 16) % 100) < 12 ? !blob : blob);   // noisy texture
        }
    unsigned char* dImg; int* dParent;
    CUDA_CHECK(cudaMalloc(&dImg, n));
    CUDA_CHECK(cudaMalloc(&dParent, n * sizeof(int)));
    CUDA_CHECK(cudaMemcpy(dImg, img.data(), n, cudaMemcpyHostToDevice));
    initLabels<<<n / 256, 256>>>(dImg, dParent, n);
    CUDA_CHECK(cudaGetLastError());
    mergeNeighbours<<<dim3(kW / 16, kH / 16), dim3(16, 16)>>>(dImg, dParent, kW, kH);
    CUDA_CHECK(cudaGetLastError());
    flatten<<<n / 256, 256>>>(dParent, n);
    CUDA_CHECK(cudaGetLastError());
    std::vector<int> label(n);
    CUDA_CHECK(cudaMemcpy(label.data(), dParent, n * sizeof(int), cudaMemcpyDeviceToHost));

    // host: flood fill in raster order; the first pixel reached is the smallest index
    std::vector<int> ref(n, kBackground), stack;
    for (int i = 0; i < n; ++i) {
        if (!img[i] || ref[i] != kBackground) continue;
        ref[i] = i; stack.push_back(i);
        while (!stack.empty()) {
            int p = stack.back(); stack.pop_back();
            int x = p % kW, y = p / kW;
            int nb[4] = {x > 0 ? p - 1 : -1, x < kW - 1 ? p + 1 : -1, y > 0 ? p - kW : -1, y < kH - 1 ? p + kW : -1};
            for (int q : nb) if (q >= 0 && img[q] && ref[q] == kBackground) { ref[q] = i; stack.push_back(q); }
        }
    }
    int mismatches = 0, components = 0, largest = 0, foreground = 0;
    std::vector<int> size(n, 0);
    for (int i = 0; i < n; ++i) {
        mismatches += (label[i] != ref[i]);
        if (label[i] >= 0 && label[i] < n) { size[label[i]]++; foreground++; }
    }
    long long rootSum = 0;
    for (int i = 0; i < n; ++i) if (size[i]) { ++components; largest = size[i] > largest ? size[i] : largest; rootSum += i; }
    printf("image %dx%d foreground %d\n", kW, kH, foreground);
    printf("components %d largest %d root checksum %lld\n", components, largest, rootSum);
    printf("label[12345]=%d label[65000]=%d\n", label[12345], label[65000]);
    printf("mismatches %d\n", mismatches);
    bool ok = mismatches == 0;
    printf(ok ? "CHECK PASS\n" : "CHECK FAIL\n");
    CUDA_CHECK(cudaFree(dImg)); CUDA_CHECK(cudaFree(dParent));
    return ok ? 0 : 1;
}
