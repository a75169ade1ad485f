// Shared helpers for the emulator's whole-program tests.
#pragma once
#include <hip/hip_runtime.h>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#define CHECK(call)                                                                     \
  do {                                                                                  \
    hipError_t err_ = (call);                                                           \
    if (err_ != hipSuccess) {                                                           \
      fprintf(stderr, "%s:%d: %s failed: %s\n", __FILE__, __LINE__, #call,              \
              hipGetErrorString(err_));                                                 \
      exit(2);                                                                          \
    }                                                                                   \
  } while (0)

static int report(const char* name, int bad) {
  if (bad) printf("%s: FAIL (%d mismatches)\n", name, bad);
  else printf("%s: PASS\n", name);
  return bad != 0;
}
