// A program that misbehaves on purpose, one way per mode (argv[1]); the tests of the emulated
// device's limits and of run containment use it.
//   oom     hipMalloc beyond the device's memory -> hipErrorOutOfMemory, like HIP
//   lazy    hipMalloc(4 GiB), touch two words: prints its own peak RSS (VmHWM)
//   config  launch configurations HIP refuses, and the error each gets
//   spin    write its pid to argv[2], then run a kernel that never ends
//   escape  start a setsid daemon that writes its pid to argv[2], then spin
//   flood   print without end
#include <hip/hip_runtime.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

__global__ void touch(unsigned* p, size_t far) {
  p[0] = 7u;
  p[far] = 9u;
}

__global__ void spin(volatile unsigned* flag) {
  while (flag[0] == 0u) {
  }
}

__global__ void nothing() {}

static long peak_rss_kib() {
  FILE* f = fopen("/proc/self/status", "r");
  char line[256];
  long kib = -1;
  while (f && fgets(line, sizeof line, f))
    if (!strncmp(line, "VmHWM:", 6)) kib = atol(line + 6);
  if (f) fclose(f);
  return kib;
}

static int oom() {
  size_t free_bytes = 0, total = 0;
  hipMemGetInfo(&free_bytes, &total);
  void *a = nullptr, *b = nullptr;
  hipError_t too_big = hipMalloc(&a, total + (1ull << 30));
  hipError_t first = hipMalloc(&a, total / 2 + (1ull << 20));
  hipError_t second = hipMalloc(&b, total / 2 + (1ull << 20));
  printf("total=%zu too_big=%s first=%s second=%s\n", total, hipGetErrorName(too_big),
         hipGetErrorName(first), hipGetErrorName(second));
  hipFree(a);
  hipError_t again = hipMalloc(&b, total / 2 + (1ull << 20));
  printf("after free=%s\n", hipGetErrorName(again));
  return 0;
}

static int lazy() {
  const size_t bytes = 4ull << 30;
  unsigned* p = nullptr;
  if (hipMalloc(&p, bytes) != hipSuccess) return 3;
  size_t far = bytes / 4 - 1;
  touch<<<1, 1>>>(p, far);
  unsigned first = 0, last = 0;
  hipMemcpy(&first, p, 4, hipMemcpyDeviceToHost);
  hipMemcpy(&last, p + far, 4, hipMemcpyDeviceToHost);
  printf("values=%u,%u peak_rss_kib=%ld\n", first, last, peak_rss_kib());
  return 0;
}

static void try_launch(const char* what, dim3 grid, dim3 block, size_t shmem) {
  hipGetLastError();
  hipLaunchKernelGGL(nothing, grid, block, shmem, 0);
  printf("%s=%s\n", what, hipGetErrorName(hipGetLastError()));
}

static int config() {
  try_launch("x_over_2^32_items", dim3(1u << 24), dim3(256), 0);
  try_launch("y_over_2^32_items", dim3(1, 1u << 23), dim3(1, 512), 0);
  try_launch("block_1025", dim3(1), dim3(1025), 0);
  try_launch("block_z_2048", dim3(1), dim3(1, 1, 2048), 0);
  try_launch("grid_zero", dim3(0), dim3(32), 0);
  try_launch("shmem_65537", dim3(1), dim3(32), 65537);
  try_launch("fine", dim3(2), dim3(32), 1024);
  return 0;
}

static int spin_forever(const char* pid_file) {
  FILE* f = fopen(pid_file, "w");
  fprintf(f, "%d\n", (int)getpid());
  fclose(f);
  unsigned* flag = nullptr;
  hipMalloc(&flag, 4);
  spin<<<1, 32>>>(flag);
  hipDeviceSynchronize();
  return 0;
}

static int escape(const char* pid_file) {
  if (fork() == 0) {
    setsid();
    if (fork() == 0) {
      FILE* f = fopen(pid_file, "w");
      fprintf(f, "%d\n", (int)getpid());
      fclose(f);
      for (;;) pause();
    }
    _exit(0);
  }
  while (access(pid_file, R_OK) != 0) usleep(1000);
  usleep(50000);
  std::string spin_file = std::string(pid_file) + ".main";
  return spin_forever(spin_file.c_str());
}

static int flood() {
  for (unsigned long i = 0;; i++) printf("line %lu of an endless stream of output\n", i);
}

int main(int argc, char** argv) {
  const char* mode = argc > 1 ? argv[1] : "";
  if (!strcmp(mode, "oom")) return oom();
  if (!strcmp(mode, "lazy")) return lazy();
  if (!strcmp(mode, "config")) return config();
  if (!strcmp(mode, "spin") && argc > 2) return spin_forever(argv[2]);
  if (!strcmp(mode, "escape") && argc > 2) return escape(argv[2]);
  if (!strcmp(mode, "flood")) return flood();
  fprintf(stderr, "usage: hostile oom|lazy|config|spin FILE|escape FILE|flood\n");
  return 2;
}
