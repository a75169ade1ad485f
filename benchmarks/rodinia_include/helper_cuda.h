// The two CUDA Samples error macros Rodinia's cfd uses (its helper_cuda.h is not in the corpus):
// report the failing call with its file and line, then exit. cass's own, for compiling cfd.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>

#define checkCudaErrors(call)                                                        \
  do {                                                                               \
    cudaError_t cass_err_ = (call);                                                  \
    if (cass_err_ != cudaSuccess) {                                                  \
      fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call,                  \
              cudaGetErrorString(cass_err_));                                        \
      exit(EXIT_FAILURE);                                                            \
    }                                                                                \
  } while (0)

#define getLastCudaError(message) checkCudaErrors(cudaGetLastError())
