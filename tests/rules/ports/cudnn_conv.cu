// cuDNN convolution forward: descriptors, workspace query, find step, run (each call adapted to MIOpen).
#include <cudnn.h>
#include <cstdio>

int main() {
  cudnnHandle_t handle;
  cudnnCreate(&handle);
  cudnnTensorDescriptor_t xDesc, yDesc;
  cudnnFilterDescriptor_t wDesc;
  cudnnConvolutionDescriptor_t conv;
  cudnnCreateTensorDescriptor(&xDesc);
  cudnnCreateTensorDescriptor(&yDesc);
  cudnnCreateFilterDescriptor(&wDesc);
  cudnnCreateConvolutionDescriptor(&conv);
  cudnnSetTensor4dDescriptor(xDesc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, 1, 3, 32, 32);
  cudnnSetFilter4dDescriptor(wDesc, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, 8, 3, 3, 3);
  cudnnSetConvolution2dDescriptor(conv, 1, 1, 1, 1, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT);
  int n, c, h, w;
  cudnnGetConvolution2dForwardOutputDim(conv, xDesc, wDesc, &n, &c, &h, &w);
  cudnnSetTensor4dDescriptor(yDesc, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, w);
  size_t ws = 0;
  cudnnGetConvolutionForwardWorkspaceSize(handle, xDesc, wDesc, conv, yDesc, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, &ws);
  float *x, *wt, *y; void *work;
  cudaMalloc(&x, 3 * 32 * 32 * 4); cudaMalloc(&wt, 8 * 27 * 4); cudaMalloc(&y, 8 * 32 * 32 * 4); cudaMalloc(&work, ws);
  cudnnConvolutionFwdAlgoPerf_t perf; int found = 0;
  cudnnFindConvolutionForwardAlgorithmEx(handle, xDesc, x, wDesc, wt, conv, yDesc, y, 1, &found, &perf, work, ws);
  float alpha = 1.0f, beta = 0.0f;
  cudnnStatus_t st = cudnnConvolutionForward(handle, &alpha, xDesc, x, wDesc, wt, conv, perf.algo, work, ws, &beta, yDesc, y);
  if (st != CUDNN_STATUS_SUCCESS) printf("%s\n", cudnnGetErrorString(st));
  cudnnDestroy(handle);
  return 0;
}
