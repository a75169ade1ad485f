// Gauss-Legendre nodes by Newton's method around an inner recurrence loop: LLVM 16's exec-mask
// fold (SIOptimizeExecMaskingPreRA) made gfx1100 code skip the inner loop from the Newton loop's
// second trip on (numerical_methods/gauss_legendre_newton), which the lifter's llc must avoid as
// the emulator's HIP builds do.
__host__ __device__ inline void legendre(int n, double x, double& p, double& dp) {
    double p0 = 1.0, p1 = x;
    for (int k = 2; k <= n; ++k) {
        const double p2 = ((2.0 * k - 1.0) * x * p1 - (k - 1.0) * p0) / k;
        p0 = p1;
        p1 = p2;
    }
    p = p1;
    dp = n * (x * p1 - p0) / (x * x - 1.0);
}
__host__ __device__ inline void gl_node(int n, int i, double& x, double& w, int& its) {
    x = cos(3.14159265358979323846 * (i + 0.75) / (n + 0.5));
    double p, dp;
    its = 0;
    for (int it = 0; it < 100; ++it) {
        legendre(n, x, p, dp);
        const double dx = p / dp;
        x -= dx;
        its++;
        if (fabs(dx) < 1e-15) break;
    }
    legendre(n, x, p, dp);
    w = 2.0 / ((1.0 - x * x) * dp * dp);
}
extern "C" __global__ void gauss_nodes(const int* in, int* out) {
  int t = blockIdx.y * blockDim.x + threadIdx.x;
  int n = 2 + blockIdx.y, i = threadIdx.x;
  double x, w; int its;
  gl_node(n, i, x, w, its);
  ((double*)out)[t * 4 + 0] = n;
  ((double*)out)[t * 4 + 1] = x;
  ((double*)out)[t * 4 + 2] = w;
  ((double*)out)[t * 4 + 3] = its;
}
