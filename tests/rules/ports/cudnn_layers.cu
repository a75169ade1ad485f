// cuDNN pooling, activation, softmax and batch norm; the last four calls have no mechanical MIOpen form.
#include <cudnn.h>

void layers(cudnnHandle_t h, cudnnTensorDescriptor_t x, cudnnTensorDescriptor_t y, float* dx, float* dy,
            cudnnTensorDescriptor_t bn, float* scale, float* bias, float* mean, float* var) {
  float one = 1.0f, zero = 0.0f;
  cudnnPoolingDescriptor_t pool;
  cudnnCreatePoolingDescriptor(&pool);
  cudnnSetPooling2dDescriptor(pool, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, 2, 2, 0, 0, 2, 2);
  cudnnPoolingForward(h, pool, &one, x, dx, &zero, y, dy);
  cudnnActivationDescriptor_t act;
  cudnnCreateActivationDescriptor(&act);
  cudnnSetActivationDescriptor(act, CUDNN_ACTIVATION_CLIPPED_RELU, CUDNN_PROPAGATE_NAN, 6.0);
  cudnnActivationForward(h, act, &one, x, dx, &zero, y, dy);
  cudnnSoftmaxForward(h, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &one, x, dx, &zero, y, dy);
  cudnnDeriveBNTensorDescriptor(bn, x, CUDNN_BATCHNORM_SPATIAL);
  cudnnBatchNormalizationForwardInference(h, CUDNN_BATCHNORM_SPATIAL, &one, &zero, x, dx, y, dy, bn, scale, bias, mean, var, 1e-5);
  cudnnBatchNormalizationForwardInference(h, CUDNN_BATCHNORM_SPATIAL_PERSISTENT, &one, &zero, x, dx, y, dy, bn, scale, bias, mean, var, 1e-5);
  cudnnPoolingBackward(h, pool, &one, y, dy, y, dy, x, dx, &zero, x, dx);
  cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NHWC, CUDNN_DATA_HALF, 1, 2, 3, 4);
  cudnnAddTensor(h, &one, x, dx, &one, y, dy);
}
