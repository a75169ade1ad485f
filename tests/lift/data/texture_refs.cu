// Bound texture references (texture<T, dim, mode>, removed in CUDA 12): nvcc 11.x compiles them;
// tests/lift/test_texture_refs.py lifts this program's SASS. Linear memory read with tex1Dfetch
// (float, uint4, float4), a char cudaArray read with tex2D at texel centres, one kernel reading
// two references, and a reference no kernel reads (its bind must still succeed).
#include <cstdio>

texture<float, 1, cudaReadModeElementType> t_line;
texture<uint4, 1, cudaReadModeElementType> t_quads;
texture<float4, 1, cudaReadModeElementType> t_vecs;
texture<char, 2, cudaReadModeElementType> t_chars;
texture<float, 1, cudaReadModeElementType> t_unread;  // no kernel reads it; the host binds it

__global__ void scale_line(float* out, int n, float k) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex1Dfetch(t_line, n - 1 - i) * k;
}

__global__ void mix_quads(unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    uint4 q = tex1Dfetch(t_quads, i);
    float4 v = tex1Dfetch(t_vecs, i);
    out[i] = q.x + 2u * q.y + 3u * q.z + 4u * q.w + (unsigned)(v.x + v.y * v.z + v.w);
  }
}

__global__ void read_chars(int* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D(t_chars, x + 0.5f, y + 0.5f) * 3 + x;
}

int main() {
  const int n = 96, w = 20, h = 6;
  float line[n];
  uint4 quads[n];
  float4 vecs[n];
  char chars[w * h];
  for (int i = 0; i < n; ++i) {
    line[i] = (i * 7 % 31) - 9.5f;
    quads[i] = make_uint4(i, i * 3 + 1, 1000 - i, i % 5);
    vecs[i] = make_float4(i * 0.5f, 2.0f, i % 7, 1.0f);
  }
  for (int i = 0; i < w * h; ++i) chars[i] = (char)(i * 13 % 100 - 40);
  float *d_line, *d_out;
  uint4* d_quads;
  float4* d_vecs;
  unsigned* d_mixed;
  int* d_read;
  cudaMalloc(&d_line, sizeof(line));
  cudaMalloc(&d_quads, sizeof(quads));
  cudaMalloc(&d_vecs, sizeof(vecs));
  cudaMalloc(&d_out, n * sizeof(float));
  cudaMalloc(&d_mixed, n * sizeof(unsigned));
  cudaMalloc(&d_read, w * h * sizeof(int));
  cudaMemcpy(d_line, line, sizeof(line), cudaMemcpyHostToDevice);
  cudaMemcpy(d_quads, quads, sizeof(quads), cudaMemcpyHostToDevice);
  cudaMemcpy(d_vecs, vecs, sizeof(vecs), cudaMemcpyHostToDevice);
  cudaBindTexture(0, t_line, d_line, sizeof(line));
  cudaBindTexture(0, t_quads, d_quads, sizeof(quads));
  cudaBindTexture(0, t_vecs, d_vecs, sizeof(vecs));
  printf("bind_unread %d\n", (int)cudaBindTexture(0, t_unread, d_line, sizeof(line)));
  cudaChannelFormatDesc cd = cudaCreateChannelDesc<char>();
  cudaArray* arr;
  cudaMallocArray(&arr, &cd, w, h);
  cudaMemcpy2DToArray(arr, 0, 0, chars, w, w, h, cudaMemcpyHostToDevice);
  t_chars.filterMode = cudaFilterModePoint;
  t_chars.normalized = false;
  cudaBindTextureToArray(t_chars, arr, cd);
  scale_line<<<(n + 31) / 32, 32>>>(d_out, n, 1.5f);
  mix_quads<<<(n + 63) / 64, 64>>>(d_mixed, n);
  read_chars<<<dim3(1, h), 32>>>(d_read, w, h);
  float out[n];
  unsigned mixed[n];
  int read[w * h];
  cudaMemcpy(out, d_out, sizeof(out), cudaMemcpyDeviceToHost);
  cudaMemcpy(mixed, d_mixed, sizeof(mixed), cudaMemcpyDeviceToHost);
  cudaMemcpy(read, d_read, sizeof(read), cudaMemcpyDeviceToHost);
  printf("scale_line");
  for (int i = 0; i < n; ++i) printf(" %g", out[i]);
  printf("\nmix_quads");
  for (int i = 0; i < n; ++i) printf(" %u", mixed[i]);
  printf("\nread_chars");
  for (int i = 0; i < w * h; ++i) printf(" %d", read[i]);
  printf("\n");
  cudaUnbindTexture(t_line);
  cudaUnbindTexture(t_quads);
  cudaUnbindTexture(t_vecs);
  cudaUnbindTexture(t_chars);
  cudaUnbindTexture(t_unread);
  return 0;
}
