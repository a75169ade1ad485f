// Surface reads and writes move raw bits in CUDA: an int surface filled from the host reads back
// its integers, values a kernel writes land in the array as integers, and a layered surface
// addresses its layers. Checked on the host against those definitions.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void plain(cudaSurfaceObject_t s, int* out) {
    const int x = threadIdx.x;
    int v;
    surf2Dread(&v, s, x * 4, 0);
    out[x] = v + surf2Dread<int>(s, x * 4, 0);  // pointer and value forms
    surf2Dwrite(v * 10 + 1, s, x * 4, 1);
}

__global__ void layered(cudaSurfaceObject_t s) {
    const int x = threadIdx.x;
    for (int layer = 0; layer < 2; ++layer) {
        uchar4 c;
        surf2DLayeredread(&c, s, x * 4, 0, layer);
        c.w = static_cast<unsigned char>(c.x + layer);
        surf2DLayeredwrite(c, s, x * 4, 0, layer);
    }
}

int main() {
    int host[8] = {5, -7, 123456, 2, 0, 0, 0, 0};
    cudaChannelFormatDesc d = cudaCreateChannelDesc<int>();
    cudaArray_t a;
    cudaMallocArray(&a, &d, 4, 2, cudaArraySurfaceLoadStore);
    cudaMemcpy2DToArray(a, 0, 0, host, 16, 16, 2, cudaMemcpyHostToDevice);
    cudaResourceDesc r = {};
    r.resType = cudaResourceTypeArray;
    r.res.array.array = a;
    cudaSurfaceObject_t s;
    cudaCreateSurfaceObject(&s, &r);
    int* out;
    cudaMalloc(&out, 4 * sizeof(int));
    plain<<<1, 4>>>(s, out);
    int got[4], back[8];
    cudaMemcpy(got, out, sizeof(got), cudaMemcpyDeviceToHost);
    cudaMemcpy2DFromArray(back, 16, a, 0, 0, 16, 2, cudaMemcpyDeviceToHost);

    uchar4 pixels[2][4];
    for (int l = 0; l < 2; ++l)
        for (int x = 0; x < 4; ++x) pixels[l][x] = make_uchar4(200 + x, 10 * l, 7, 0);
    cudaChannelFormatDesc d4 = cudaCreateChannelDesc<uchar4>();
    cudaArray_t la;
    cudaMalloc3DArray(&la, &d4, make_cudaExtent(4, 1, 2), cudaArrayLayered | cudaArraySurfaceLoadStore);
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(pixels, 4 * sizeof(uchar4), 4, 1);
    p.dstArray = la;
    p.extent = make_cudaExtent(4, 1, 2);
    p.kind = cudaMemcpyHostToDevice;
    cudaMemcpy3D(&p);
    r.res.array.array = la;
    cudaSurfaceObject_t ls;
    cudaCreateSurfaceObject(&ls, &r);
    layered<<<1, 4>>>(ls);
    p.srcPtr = make_cudaPitchedPtr(nullptr, 0, 0, 0);
    p.srcArray = la;
    p.dstArray = nullptr;
    p.dstPtr = make_cudaPitchedPtr(pixels, 4 * sizeof(uchar4), 4, 1);
    p.kind = cudaMemcpyDeviceToHost;
    cudaMemcpy3D(&p);
    if (cudaDeviceSynchronize() != cudaSuccess) return 2;

    int bad = 0;
    for (int x = 0; x < 4; ++x) {
        bad += got[x] != 2 * host[x];
        bad += back[4 + x] != host[x] * 10 + 1;
        for (int l = 0; l < 2; ++l) bad += pixels[l][x].w != (unsigned char)(200 + x + l);
    }
    printf("read %d %d %d %d\nwritten %d %d %d %d\nlayered %d %d\n", got[0], got[1], got[2], got[3],
           back[4], back[5], back[6], back[7], pixels[0][3].w, pixels[1][3].w);
    printf(bad ? "CHECK FAIL\n" : "CHECK PASS\n");
    return bad ? 1 : 0;
}
