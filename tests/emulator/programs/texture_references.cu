// Legacy CUDA texture references (removed from CUDA 12, still in HIP 5.x): a 1D reference bound to
// linear memory (float, and uchar4 read as normalized floats), a 2D reference bound to an array
// (point sampling, clamped, unnormalized) and a 2D reference bound to pitched memory with its
// fields set before binding (normalized coordinates, wrap). Every result is checked against a host
// computation; the program prints CHECK PASS or the first mismatch.
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

texture<float, 1, cudaReadModeElementType> lin;
texture<uchar4, 1, cudaReadModeNormalizedFloat> bytes;
texture<float, 2, cudaReadModeElementType> img;
texture<float, cudaTextureType2D> wrapped;

__global__ void fetch1d(float* out, float4* unorm, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        out[i] = tex1Dfetch(lin, i) * 2.0f + 1.0f;
        unorm[i] = tex1Dfetch(bytes, i);
    }
}

__global__ void sample2d(float* out, float* wrap, int w, int h) {
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < w && y < h) {
        out[y * w + x] = tex2D(img, x + 0.5f, y + 0.5f) + tex2D(img, -3.0f, y + 0.5f);
        wrap[y * w + x] = tex2D(wrapped, (x + 0.5f) / w + 1.0f, (y + 0.5f) / h + 2.0f);
    }
}

static int failures = 0;
static void expect(const char* what, int i, float got, float want) {
    if (got != want && failures++ == 0) printf("MISMATCH %s[%d]: %g, expected %g\n", what, i, got, want);
}

int main() {
    const int n = 1000, w = 37, h = 21;
    float* values = (float*)malloc(n * sizeof(float));
    uchar4* packed = (uchar4*)malloc(n * sizeof(uchar4));
    for (int i = 0; i < n; ++i) {
        values[i] = 0.25f * i - 3.0f;
        packed[i] = make_uchar4(i % 256, 255 - i % 256, (i * 7) % 256, 200);
    }
    float *d_values, *d_out;
    uchar4* d_packed;
    float4* d_unorm;
    cudaMalloc(&d_values, n * sizeof(float));
    cudaMalloc(&d_packed, n * sizeof(uchar4));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaMalloc(&d_unorm, n * sizeof(float4));
    cudaMemcpy(d_values, values, n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(d_packed, packed, n * sizeof(uchar4), cudaMemcpyHostToDevice);
    size_t offset = 1;
    cudaBindTexture(&offset, lin, d_values, n * sizeof(float));
    cudaChannelFormatDesc byte_desc = cudaCreateChannelDesc<uchar4>();
    cudaBindTexture(0, &bytes, d_packed, &byte_desc, n * sizeof(uchar4));
    fetch1d<<<(n + 127) / 128, 128>>>(d_out, d_unorm, n);
    float* out = (float*)malloc(n * sizeof(float));
    float4* unorm = (float4*)malloc(n * sizeof(float4));
    cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(unorm, d_unorm, n * sizeof(float4), cudaMemcpyDeviceToHost);
    cudaUnbindTexture(lin);
    cudaUnbindTexture(bytes);
    for (int i = 0; i < n; ++i) {
        expect("tex1Dfetch(lin)", i, out[i], values[i] * 2.0f + 1.0f);
        expect("tex1Dfetch(bytes).x", i, unorm[i].x, packed[i].x / 255.0f);
        expect("tex1Dfetch(bytes).w", i, unorm[i].w, packed[i].w / 255.0f);
    }

    float* pixels = (float*)malloc(w * h * sizeof(float));
    for (int i = 0; i < w * h; ++i) pixels[i] = (float)((i * 7) % 23) - 4.0f;
    cudaChannelFormatDesc desc = cudaCreateChannelDesc<float>();
    cudaArray* array;
    cudaMallocArray(&array, &desc, w, h);
    cudaMemcpy2DToArray(array, 0, 0, pixels, w * sizeof(float), w * sizeof(float), h,
                        cudaMemcpyHostToDevice);
    img.addressMode[0] = cudaAddressModeClamp;
    img.addressMode[1] = cudaAddressModeClamp;
    img.filterMode = cudaFilterModePoint;
    cudaBindTextureToArray(img, array, desc);

    float* pitched;
    size_t pitch;
    cudaMallocPitch((void**)&pitched, &pitch, w * sizeof(float), h);
    cudaMemcpy2D(pitched, pitch, pixels, w * sizeof(float), w * sizeof(float), h,
                 cudaMemcpyHostToDevice);
    wrapped.normalized = true;
    wrapped.addressMode[0] = cudaAddressModeWrap;
    wrapped.addressMode[1] = cudaAddressModeWrap;
    cudaBindTexture2D(0, wrapped, pitched, desc, w, h, pitch);

    float *d_img, *d_wrap;
    cudaMalloc(&d_img, w * h * sizeof(float));
    cudaMalloc(&d_wrap, w * h * sizeof(float));
    dim3 block(16, 8), grid((w + 15) / 16, (h + 7) / 8);
    sample2d<<<grid, block>>>(d_img, d_wrap, w, h);
    float* got = (float*)malloc(w * h * sizeof(float));
    float* wrap = (float*)malloc(w * h * sizeof(float));
    cudaMemcpy(got, d_img, w * h * sizeof(float), cudaMemcpyDeviceToHost);
    cudaMemcpy(wrap, d_wrap, w * h * sizeof(float), cudaMemcpyDeviceToHost);
    const textureReference* ref = 0;
    cudaGetTextureReference(&ref, &img);
    if (ref != &img && failures++ == 0) printf("MISMATCH cudaGetTextureReference\n");
    cudaUnbindTexture(img);
    cudaUnbindTexture(wrapped);
    for (int y = 0; y < h; ++y)
        for (int x = 0; x < w; ++x) {
            expect("tex2D(img)", y * w + x, got[y * w + x], pixels[y * w + x] + pixels[y * w]);
            expect("tex2D(wrapped)", y * w + x, wrap[y * w + x], pixels[y * w + x]);
        }
    printf("offset %zu, %s\n", offset, failures ? "CHECK FAIL" : "CHECK PASS");
    return failures != 0;
}
