// cuDNN pooling, activation, softmax and batch norm; the last four calls have no mechanical MIOpen form.
#include <hip/hip_runtime.h>
#include <miopen/miopen.h>

void layers(miopenHandle_t h, miopenTensorDescriptor_t x, miopenTensorDescriptor_t y, float* dx, float* dy,
            miopenTensorDescriptor_t bn, float* scale, float* bias, float* mean, float* var) {
  float one = 1.0f, zero = 0.0f;
  miopenPoolingDescriptor_t pool;
  miopenCreatePoolingDescriptor(&pool);
  miopenSet2dPoolingDescriptor(pool, miopenPoolingMax, 2, 2, 0, 0, 2, 2);
  miopenPoolingForward(h, pool, &one, x, dx, &zero, y, dy, false, nullptr, 0);
  miopenActivationDescriptor_t act;
  miopenCreateActivationDescriptor(&act);
  miopenSetActivationDescriptor(act, miopenActivationCLIPPEDRELU, 6.0, 1.0, 1.0);
  miopenActivationForward(h, act, &one, x, dx, &zero, y, dy);
  miopenSoftmaxForward_V2(h, &one, x, dx, &zero, y, dy, MIOPEN_SOFTMAX_ACCURATE, MIOPEN_SOFTMAX_MODE_CHANNEL);
  miopenDeriveBNTensorDescriptor(bn, x, miopenBNSpatial);
  miopenBatchNormalizationForwardInference(h, miopenBNSpatial, &one, &zero, x, dx, y, dy, bn, scale, bias, mean, var, 1e-5);
  miopenBatchNormalizationForwardInference(h, CUDNN_BATCHNORM_SPATIAL_PERSISTENT, &one, &zero, x, dx, y, dy, bn, scale, bias, mean, var, 1e-5);
  cudnnPoolingBackward(h, pool, &one, y, dy, y, dy, x, dx, &zero, x, dx);
  cudnnSetTensor4dDescriptor(x, CUDNN_TENSOR_NHWC, miopenHalf, 1, 2, 3, 4);
  cudnnAddTensor(h, &one, x, dx, &one, y, dy);
}
