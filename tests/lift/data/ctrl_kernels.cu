// Control flow the lifter must recover: calls through a table of device-function pointers
// (CALL.REL.NOINC Rx) and non-tail recursion on the per-thread local-memory stack.
typedef int (*Fn)(int);
__device__ __noinline__ int triple_plus_one(int x) { return x * 3 + 1; }
__device__ __noinline__ int flip_bits(int x) { return x ^ 0x55; }
__device__ __noinline__ int minus_77(int x) { return x - 77; }
__device__ Fn table[3] = {triple_plus_one, flip_bits, minus_77};

__device__ __noinline__ int tree(int n, int salt) {  // two recursive calls: a real stack
  if (n < 2) return n + salt;
  return tree(n - 1, salt) + 2 * tree(n - 2, salt + 1) % 1000;
}

extern "C" __global__ void fnptr(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = table[in[i] % 3](in[i]);
}

extern "C" __global__ void recurse(const int* in, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tree(in[i] % 11, i & 7);
}
