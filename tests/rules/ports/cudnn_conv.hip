// cuDNN convolution forward: descriptors, workspace query, find step, run (each call adapted to MIOpen).
#include <hip/hip_runtime.h>
#include <miopen/miopen.h>
#include <cstdio>

int main() {
  miopenHandle_t handle;
  miopenCreate(&handle);
  miopenTensorDescriptor_t xDesc, yDesc;
  miopenTensorDescriptor_t wDesc;
  miopenConvolutionDescriptor_t conv;
  miopenCreateTensorDescriptor(&xDesc);
  miopenCreateTensorDescriptor(&yDesc);
  miopenCreateTensorDescriptor(&wDesc);
  miopenCreateConvolutionDescriptor(&conv);
  miopenSet4dTensorDescriptor(xDesc, miopenFloat, 1, 3, 32, 32);
  miopenSet4dTensorDescriptor(wDesc, miopenFloat, 8, 3, 3, 3);
  miopenInitConvolutionDescriptor(conv, miopenConvolution, 1, 1, 1, 1, 1, 1);
  int n, c, h, w;
  miopenGetConvolutionForwardOutputDim(conv, xDesc, wDesc, &n, &c, &h, &w);
  miopenSet4dTensorDescriptor(yDesc, miopenFloat, n, c, h, w);
  size_t ws = 0;
  miopenConvolutionForwardGetWorkSpaceSize(handle, wDesc, xDesc, conv, yDesc, &ws);
  float *x, *wt, *y; void *work;
  hipMalloc(&x, 3 * 32 * 32 * 4); hipMalloc(&wt, 8 * 27 * 4); hipMalloc(&y, 8 * 32 * 32 * 4); hipMalloc(&work, ws);
  miopenConvAlgoPerf_t perf; int found = 0;
  miopenFindConvolutionForwardAlgorithm(handle, xDesc, x, wDesc, wt, conv, yDesc, y, 1, &found, &perf, work, ws, false);
  float alpha = 1.0f, beta = 0.0f;
  miopenStatus_t st = miopenConvolutionForward(handle, &alpha, xDesc, x, wDesc, wt, conv, perf.fwd_algo, &beta, yDesc, y, work, ws);
  if (st != miopenStatusSuccess) printf("%s\n", miopenGetErrorString(st));
  miopenDestroy(handle);
  return 0;
}
