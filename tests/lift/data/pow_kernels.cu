// Double pow() for the SASS lifter: ptxas calls the math library's logarithm as a subroutine
// (CALL.REL.NOINC ... RET.REL.NODEC) that reads its polynomial's coefficients from the kernel's
// literal pool c[0x2]; two call sites. main() prints every result's bits.
#include <cstdio>
#include <cmath>

#define N 64

__global__ void powers(const double* x, const double* y, double* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    out[2 * i] = pow(x[i], y[i]);
    out[2 * i + 1] = pow(y[i] + 4.0, x[i] * 0.5);
  }
}

int main() {
  double hx[N], hy[N], ho[2 * N];
  for (int i = 0; i < N; ++i) {
    hx[i] = 0.03125 + i * 0.37;
    hy[i] = -3.0 + i * 0.11;
  }
  double *dx, *dy, *dout;
  cudaMalloc(&dx, sizeof hx);
  cudaMalloc(&dy, sizeof hy);
  cudaMalloc(&dout, sizeof ho);
  cudaMemcpy(dx, hx, sizeof hx, cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hy, sizeof hy, cudaMemcpyHostToDevice);
  powers<<<2, 32>>>(dx, dy, dout, N);
  cudaMemcpy(ho, dout, sizeof ho, cudaMemcpyDeviceToHost);
  for (int i = 0; i < N; ++i) printf("%d %a %a\n", i, ho[2 * i], ho[2 * i + 1]);
  cudaFree(dx);
  cudaFree(dy);
  cudaFree(dout);
  return 0;
}
