// VOP3 clamp on integer adds and subtracts saturates to the destination's range instead of
// wrapping (clang folds repeated `x > k ? x - k : 0` into one `v_subrev_nc_u32 ... clamp`).
// Checked on the host.
#include <hip/hip_runtime.h>
#include <climits>
#include <cstdio>
__global__ void k(const int* a, const int* b, int* out) {
  int x = a[threadIdx.x], y = b[threadIdx.x], r0, r1, r2, r3, r4;
  asm volatile("v_sub_nc_u32 %0, %1, %2 clamp" : "=v"(r0) : "v"(x), "v"(y));
  asm volatile("v_subrev_nc_u32 %0, %1, %2 clamp" : "=v"(r1) : "v"(y), "v"(x));
  asm volatile("v_add_nc_u32 %0, %1, %2 clamp" : "=v"(r2) : "v"(x), "v"(y));
  asm volatile("v_add_nc_i32 %0, %1, %2 clamp" : "=v"(r3) : "v"(x), "v"(y));
  asm volatile("v_sub_nc_i32 %0, %1, %2 clamp" : "=v"(r4) : "v"(x), "v"(y));
  int* o = out + 5 * threadIdx.x;
  o[0] = r0; o[1] = r1; o[2] = r2; o[3] = r3; o[4] = r4;
}
static long long clampll(long long v, long long lo, long long hi) { return v < lo ? lo : v > hi ? hi : v; }
int main() {
  const int n = 8;
  int a[n] = {65, 10, -1, INT_MAX, INT_MIN, 7, -100, 0x40000000};
  int b[n] = {85, 3, 2, 1, 1, -7, 50, 0x40000000};
  int *da, *db, *dout, out[5 * n];
  hipMalloc(&da, sizeof(a)); hipMalloc(&db, sizeof(b)); hipMalloc(&dout, sizeof(out));
  hipMemcpy(da, a, sizeof(a), hipMemcpyHostToDevice);
  hipMemcpy(db, b, sizeof(b), hipMemcpyHostToDevice);
  k<<<1, n>>>(da, db, dout);
  hipMemcpy(out, dout, sizeof(out), hipMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; ++i) {
    long long ua = (unsigned)a[i], ub = (unsigned)b[i];
    long long want[5] = {clampll(ua - ub, 0, UINT_MAX), clampll(ua - ub, 0, UINT_MAX),
                         clampll(ua + ub, 0, UINT_MAX), clampll((long long)a[i] + b[i], INT_MIN, INT_MAX),
                         clampll((long long)a[i] - b[i], INT_MIN, INT_MAX)};
    for (int j = 0; j < 5; ++j)
      if ((unsigned)out[5 * i + j] != (unsigned)want[j]) {
        printf("lane %d op %d: got %u want %u\n", i, j, (unsigned)out[5 * i + j], (unsigned)want[j]);
        ++bad;
      }
  }
  printf("%u %d %s\n", (unsigned)out[0], out[5 * 3 + 3], bad ? "CHECK FAIL" : "CHECK PASS");
  return bad;
}
