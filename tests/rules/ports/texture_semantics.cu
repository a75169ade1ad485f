// uchar4 texels read as normalized floats, and gathers of each component (value and pointer
// forms), checked on the host against what CUDA defines. Every texel holds (200, 100, 50, 255),
// so a gather returns four copies of one component whatever its footprint order.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(call)                                                                 \
    do {                                                                            \
        cudaError_t err_ = (call);                                                  \
        if (err_ != cudaSuccess) {                                                  \
            printf("CUDA error %s at line %d\n", cudaGetErrorString(err_), __LINE__); \
            return 1;                                                               \
        }                                                                           \
    } while (0)

__global__ void sample(cudaTextureObject_t tex, float4* out, int which) {
    float4 v;
    switch (which) {
        case 0: v = tex2D<float4>(tex, 1.5f, 2.5f); break;
        case 1: v = tex2Dgather<float4>(tex, 1.5f, 1.5f); break;
        case 2: v = tex2Dgather<float4>(tex, 1.5f, 1.5f, 1); break;
        case 3: v = tex2Dgather<float4>(tex, 1.5f, 1.5f, 2); break;
        case 4: v = tex2Dgather<float4>(tex, 1.5f, 1.5f, which - 1); break;
        default: tex2Dgather(&v, tex, 1.5f, 1.5f, 1); break;
    }
    out[which] = v;
}

int main() {
    const int w = 4, h = 4;
    uchar4 host[w * h];
    for (int i = 0; i < w * h; ++i) host[i] = make_uchar4(200, 100, 50, 255);
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<uchar4>();
    cudaArray_t array;
    CHECK(cudaMallocArray(&array, &desc, w, h));
    CHECK(cudaMemcpy2DToArray(array, 0, 0, host, w * sizeof(uchar4), w * sizeof(uchar4), h,
                              cudaMemcpyHostToDevice));
    cudaResourceDesc res = {};
    res.resType = cudaResourceTypeArray;
    res.res.array.array = array;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeNormalizedFloat;
    td.normalizedCoords = 0;
    cudaTextureObject_t tex;
    CHECK(cudaCreateTextureObject(&tex, &res, &td, nullptr));
    float4* out;
    CHECK(cudaMalloc(&out, 6 * sizeof(float4)));
    for (int which = 0; which < 6; ++which) sample<<<1, 1>>>(tex, out, which);
    CHECK(cudaGetLastError());
    float4 got[6];
    CHECK(cudaMemcpy(got, out, sizeof(got), cudaMemcpyDeviceToHost));
    const float r = 200 / 255.0f, g = 100 / 255.0f, b = 50 / 255.0f, a = 1.0f;
    const float want[6][4] = {{r, g, b, a}, {r, r, r, r}, {g, g, g, g},
                              {b, b, b, b}, {a, a, a, a}, {g, g, g, g}};
    int bad = 0;
    for (int k = 0; k < 6; ++k) {
        const float v[4] = {got[k].x, got[k].y, got[k].z, got[k].w};
        printf("case %d: %.4f %.4f %.4f %.4f\n", k, v[0], v[1], v[2], v[3]);
        for (int c = 0; c < 4; ++c) bad += fabsf(v[c] - want[k][c]) > 1e-3f;
    }
    CHECK(cudaDestroyTextureObject(tex));
    CHECK(cudaFreeArray(array));
    CHECK(cudaFree(out));
    printf(bad ? "CHECK FAIL\n" : "CHECK PASS\n");
    return bad ? 1 : 0;
}
