/* cass's reference implementations for emulated verification: the MIOpen declarations a cuDNN
 * port needs, written for cass (not AMD's header). Type names, enumerator values and function
 * signatures are the facts of AMD's public include/miopen/miopen.h (ROCm/MIOpen, commit 3f329dff;
 * the identifiers are listed in models/rules/tables/facts/miopen.h@3f329dff.ids). Only what
 * runner/emulated_libraries/miopen.hip implements is declared, so a port that calls the rest of
 * MIOpen fails to compile at that call (an undeclared identifier) instead of linking to nothing.
 * On an AMD GPU the real MIOpen and its own header are used. */
#ifndef CASS_REFERENCE_MIOPEN_H
#define CASS_REFERENCE_MIOPEN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <hip/hip_runtime_api.h>

#define CASS_REFERENCE_MIOPEN 1

#ifdef __cplusplus
extern "C" {
#endif

typedef hipStream_t miopenAcceleratorQueue_t;

typedef struct miopenHandle* miopenHandle_t;
typedef struct miopenTensorDescriptor* miopenTensorDescriptor_t;
typedef struct miopenConvolutionDescriptor* miopenConvolutionDescriptor_t;
typedef struct miopenPoolingDescriptor* miopenPoolingDescriptor_t;
typedef struct miopenActivationDescriptor* miopenActivationDescriptor_t;

typedef enum {
  miopenStatusSuccess = 0,
  miopenStatusNotInitialized = 1,
  miopenStatusInvalidValue = 2,
  miopenStatusBadParm = 3,
  miopenStatusAllocFailed = 4,
  miopenStatusInternalError = 5,
  miopenStatusNotImplemented = 6,
  miopenStatusUnknownError = 7,
  miopenStatusUnsupportedOp = 8,
  miopenStatusGpuOperationsSkipped = 9,
  miopenStatusVersionMismatch = 10,
} miopenStatus_t;

typedef enum {
  miopenHalf = 0,
  miopenFloat = 1,
  miopenInt32 = 2,
  miopenInt8 = 3,
  miopenBFloat16 = 5,
  miopenDouble = 6,
} miopenDataType_t;

typedef enum {
  miopenTensorNCHW = 0,
  miopenTensorNHWC = 1,
  miopenTensorCHWN = 2,
  miopenTensorNCHWc4 = 3,
  miopenTensorNCHWc8 = 4,
  miopenTensorCHWNc4 = 5,
  miopenTensorCHWNc8 = 6,
  miopenTensorNCDHW = 7,
  miopenTensorNDHWC = 8,
} miopenTensorLayout_t;

typedef enum {
  miopenTensorOpAdd = 0,
  miopenTensorOpMul = 1,
  miopenTensorOpMin = 2,
  miopenTensorOpMax = 3,
} miopenTensorOp_t;

typedef enum {
  miopenConvolution = 0,
  miopenTranspose = 1,
  miopenGroupConv = 2,
  miopenDepthwise = 3,
} miopenConvolutionMode_t;

typedef enum {
  miopenPaddingDefault = 0,
  miopenPaddingSame = 1,
  miopenPaddingValid = 2,
} miopenPaddingMode_t;

typedef enum {
  miopenPoolingMax = 0,
  miopenPoolingAverage = 1,
  miopenPoolingAverageInclusive = 2,
} miopenPoolingMode_t;

typedef enum {
  miopenBNPerActivation = 0,
  miopenBNSpatial = 1,
} miopenBatchNormMode_t;

typedef enum {
  miopenActivationPASTHRU = 0,
  miopenActivationLOGISTIC = 1,
  miopenActivationTANH = 2,
  miopenActivationRELU = 3,
  miopenActivationSOFTRELU = 4,
  miopenActivationABS = 5,
  miopenActivationPOWER = 6,
  miopenActivationCLIPPEDRELU = 7,
  miopenActivationLEAKYRELU = 8,
  miopenActivationELU = 9,
} miopenActivationMode_t;

typedef enum {
  MIOPEN_SOFTMAX_FAST = 0,
  MIOPEN_SOFTMAX_ACCURATE = 1,
  MIOPEN_SOFTMAX_LOG = 2,
} miopenSoftmaxAlgorithm_t;

typedef enum {
  MIOPEN_SOFTMAX_MODE_INSTANCE = 0,
  MIOPEN_SOFTMAX_MODE_CHANNEL = 1,
} miopenSoftmaxMode_t;

typedef enum {
  MIOPEN_NOT_PROPAGATE_NAN = 0,
  MIOPEN_PROPAGATE_NAN = 1,
} miopenNanPropagation_t;

typedef enum {
  miopenConvolutionFwdAlgoGEMM = 0,
  miopenConvolutionFwdAlgoDirect = 1,
  miopenConvolutionFwdAlgoFFT = 2,
  miopenConvolutionFwdAlgoWinograd = 3,
  miopenConvolutionFwdAlgoImplicitGEMM = 5,
} miopenConvFwdAlgorithm_t;

typedef enum {
  miopenConvolutionBwdWeightsAlgoGEMM = 0,
  miopenConvolutionBwdWeightsAlgoDirect = 1,
  miopenConvolutionBwdWeightsAlgoWinograd = 3,
  miopenConvolutionBwdWeightsAlgoImplicitGEMM = 5,
} miopenConvBwdWeightsAlgorithm_t;

typedef enum {
  miopenConvolutionBwdDataAlgoGEMM = 0,
  miopenConvolutionBwdDataAlgoDirect = 1,
  miopenConvolutionBwdDataAlgoFFT = 2,
  miopenConvolutionBwdDataAlgoWinograd = 3,
  miopenTransposeBwdDataAlgoGEMM = 4,
  miopenConvolutionBwdDataAlgoImplicitGEMM = 5,
} miopenConvBwdDataAlgorithm_t;

/* a find step's result: the algorithm (one member per direction), its time and workspace */
typedef struct {
  union {
    miopenConvFwdAlgorithm_t fwd_algo;
    miopenConvBwdWeightsAlgorithm_t bwd_weights_algo;
    miopenConvBwdDataAlgorithm_t bwd_data_algo;
  };
  float time;
  size_t memory;
} miopenConvAlgoPerf_t;

/* handle */
const char* miopenGetErrorString(miopenStatus_t error);
miopenStatus_t miopenCreate(miopenHandle_t* handle);
miopenStatus_t miopenCreateWithStream(miopenHandle_t* handle, miopenAcceleratorQueue_t stream);
miopenStatus_t miopenDestroy(miopenHandle_t handle);
miopenStatus_t miopenSetStream(miopenHandle_t handle, miopenAcceleratorQueue_t streamID);
miopenStatus_t miopenGetStream(miopenHandle_t handle, miopenAcceleratorQueue_t* streamID);

/* tensors (filters are tensors in MIOpen) */
miopenStatus_t miopenCreateTensorDescriptor(miopenTensorDescriptor_t* tensorDesc);
miopenStatus_t miopenSet4dTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                           miopenDataType_t dataType, int n, int c, int h, int w);
miopenStatus_t miopenSet4dTensorDescriptorEx(miopenTensorDescriptor_t tensorDesc,
                                             miopenDataType_t dataType, int n, int c, int h,
                                             int w, int nStride, int cStride, int hStride,
                                             int wStride);
miopenStatus_t miopenGet4dTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                           miopenDataType_t* dataType, int* n, int* c, int* h,
                                           int* w, int* nStride, int* cStride, int* hStride,
                                           int* wStride);
miopenStatus_t miopenSetTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                         miopenDataType_t dataType, int nbDims, const int* dimsA,
                                         const int* stridesA);
miopenStatus_t miopenGetTensorDescriptorSize(miopenTensorDescriptor_t tensorDesc, int* size);
miopenStatus_t miopenGetTensorDescriptor(miopenTensorDescriptor_t tensorDesc,
                                         miopenDataType_t* dataType, int* dimsA, int* stridesA);
miopenStatus_t miopenGetTensorNumBytes(miopenTensorDescriptor_t tensorDesc, size_t* numBytes);
miopenStatus_t miopenDestroyTensorDescriptor(miopenTensorDescriptor_t tensorDesc);
miopenStatus_t miopenSetTensor(miopenHandle_t handle, const miopenTensorDescriptor_t yDesc,
                               void* y, const void* alpha);
miopenStatus_t miopenScaleTensor(miopenHandle_t handle, const miopenTensorDescriptor_t yDesc,
                                 void* y, const void* alpha);
miopenStatus_t miopenOpTensor(miopenHandle_t handle, miopenTensorOp_t tensorOp,
                              const void* alpha1, const miopenTensorDescriptor_t aDesc,
                              const void* A, const void* alpha2,
                              const miopenTensorDescriptor_t bDesc, const void* B,
                              const void* beta, const miopenTensorDescriptor_t cDesc, void* C);

/* convolution */
miopenStatus_t miopenCreateConvolutionDescriptor(miopenConvolutionDescriptor_t* convDesc);
miopenStatus_t miopenInitConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc,
                                               miopenConvolutionMode_t c_mode, int pad_h,
                                               int pad_w, int stride_h, int stride_w,
                                               int dilation_h, int dilation_w);
miopenStatus_t miopenInitConvolutionNdDescriptor(miopenConvolutionDescriptor_t convDesc,
                                                 int spatialDim, const int* padA,
                                                 const int* strideA, const int* dilationA,
                                                 miopenConvolutionMode_t c_mode);
miopenStatus_t miopenGetConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc,
                                              miopenConvolutionMode_t* c_mode, int* pad_h,
                                              int* pad_w, int* stride_h, int* stride_w,
                                              int* dilation_h, int* dilation_w);
miopenStatus_t miopenGetConvolutionGroupCount(miopenConvolutionDescriptor_t convDesc,
                                              int* groupCount);
miopenStatus_t miopenSetConvolutionGroupCount(miopenConvolutionDescriptor_t convDesc,
                                              int groupCount);
miopenStatus_t miopenGetConvolutionForwardOutputDim(miopenConvolutionDescriptor_t convDesc,
                                                    const miopenTensorDescriptor_t inputTensorDesc,
                                                    const miopenTensorDescriptor_t filterDesc,
                                                    int* n, int* c, int* h, int* w);
miopenStatus_t miopenGetConvolutionNdForwardOutputDim(
    miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t inputTensorDesc,
    const miopenTensorDescriptor_t filterDesc, int* nDim, int* outputTensorDimA);
miopenStatus_t miopenDestroyConvolutionDescriptor(miopenConvolutionDescriptor_t convDesc);
miopenStatus_t miopenConvolutionForwardGetWorkSpaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, size_t* workSpaceSize);
miopenStatus_t miopenFindConvolutionForwardAlgorithm(
    miopenHandle_t handle, const miopenTensorDescriptor_t xDesc, const void* x,
    const miopenTensorDescriptor_t wDesc, const void* w,
    const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t yDesc, void* y,
    const int requestAlgoCount, int* returnedAlgoCount, miopenConvAlgoPerf_t* perfResults,
    void* workSpace, size_t workSpaceSize, bool exhaustiveSearch);
miopenStatus_t miopenConvolutionForward(miopenHandle_t handle, const void* alpha,
                                        const miopenTensorDescriptor_t xDesc, const void* x,
                                        const miopenTensorDescriptor_t wDesc, const void* w,
                                        const miopenConvolutionDescriptor_t convDesc,
                                        miopenConvFwdAlgorithm_t algo, const void* beta,
                                        const miopenTensorDescriptor_t yDesc, void* y,
                                        void* workSpace, size_t workSpaceSize);
miopenStatus_t miopenConvolutionForwardBias(miopenHandle_t handle, const void* alpha,
                                            const miopenTensorDescriptor_t bDesc, const void* b,
                                            const void* beta,
                                            const miopenTensorDescriptor_t yDesc, void* y);
miopenStatus_t miopenConvolutionBackwardDataGetWorkSpaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t wDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dxDesc, size_t* workSpaceSize);
miopenStatus_t miopenFindConvolutionBackwardDataAlgorithm(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const void* dy,
    const miopenTensorDescriptor_t wDesc, const void* w,
    const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dxDesc,
    void* dx, const int requestAlgoCount, int* returnedAlgoCount,
    miopenConvAlgoPerf_t* perfResults, void* workSpace, size_t workSpaceSize,
    bool exhaustiveSearch);
miopenStatus_t miopenConvolutionBackwardData(miopenHandle_t handle, const void* alpha,
                                             const miopenTensorDescriptor_t dyDesc,
                                             const void* dy,
                                             const miopenTensorDescriptor_t wDesc, const void* w,
                                             const miopenConvolutionDescriptor_t convDesc,
                                             miopenConvBwdDataAlgorithm_t algo, const void* beta,
                                             const miopenTensorDescriptor_t dxDesc, void* dx,
                                             void* workSpace, size_t workSpaceSize);
miopenStatus_t miopenConvolutionBackwardWeightsGetWorkSpaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc, size_t* workSpaceSize);
miopenStatus_t miopenFindConvolutionBackwardWeightsAlgorithm(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const void* dy,
    const miopenTensorDescriptor_t xDesc, const void* x,
    const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dwDesc,
    void* dw, const int requestAlgoCount, int* returnedAlgoCount,
    miopenConvAlgoPerf_t* perfResults, void* workSpace, size_t workSpaceSize,
    bool exhaustiveSearch);
miopenStatus_t miopenConvolutionBackwardWeights(miopenHandle_t handle, const void* alpha,
                                                const miopenTensorDescriptor_t dyDesc,
                                                const void* dy,
                                                const miopenTensorDescriptor_t xDesc,
                                                const void* x,
                                                const miopenConvolutionDescriptor_t convDesc,
                                                miopenConvBwdWeightsAlgorithm_t algo,
                                                const void* beta,
                                                const miopenTensorDescriptor_t dwDesc, void* dw,
                                                void* workSpace, size_t workSpaceSize);
miopenStatus_t miopenConvolutionBackwardBias(miopenHandle_t handle, const void* alpha,
                                             const miopenTensorDescriptor_t dyDesc,
                                             const void* dy, const void* beta,
                                             const miopenTensorDescriptor_t dbDesc, void* db);

/* pooling */
miopenStatus_t miopenCreatePoolingDescriptor(miopenPoolingDescriptor_t* poolDesc);
miopenStatus_t miopenSet2dPoolingDescriptor(miopenPoolingDescriptor_t poolDesc,
                                            miopenPoolingMode_t mode, int windowHeight,
                                            int windowWidth, int pad_h, int pad_w, int stride_h,
                                            int stride_w);
miopenStatus_t miopenGet2dPoolingDescriptor(const miopenPoolingDescriptor_t poolDesc,
                                            miopenPoolingMode_t* mode, int* windowHeight,
                                            int* windowWidth, int* pad_h, int* pad_w,
                                            int* stride_h, int* stride_w);
miopenStatus_t miopenSetNdPoolingDescriptor(miopenPoolingDescriptor_t poolDesc,
                                            const miopenPoolingMode_t mode, int nbDims,
                                            const int* windowDimA, const int* padA,
                                            const int* stridesA);
miopenStatus_t miopenGetPoolingForwardOutputDim(const miopenPoolingDescriptor_t poolDesc,
                                                const miopenTensorDescriptor_t tensorDesc, int* n,
                                                int* c, int* h, int* w);
miopenStatus_t miopenGetPoolingNdForwardOutputDim(const miopenPoolingDescriptor_t poolDesc,
                                                  const miopenTensorDescriptor_t tensorDesc,
                                                  int dims, int* tensorDimArr);
miopenStatus_t miopenPoolingGetWorkSpaceSize(const miopenTensorDescriptor_t yDesc,
                                             size_t* workSpaceSize);
miopenStatus_t miopenPoolingGetWorkSpaceSizeV2(const miopenPoolingDescriptor_t poolDesc,
                                               const miopenTensorDescriptor_t yDesc,
                                               size_t* workSpaceSize);
miopenStatus_t miopenPoolingForward(miopenHandle_t handle,
                                    const miopenPoolingDescriptor_t poolDesc, const void* alpha,
                                    const miopenTensorDescriptor_t xDesc, const void* x,
                                    const void* beta, const miopenTensorDescriptor_t yDesc,
                                    void* y, bool do_backward, void* workSpace,
                                    size_t workSpaceSize);
miopenStatus_t miopenDestroyPoolingDescriptor(miopenPoolingDescriptor_t poolDesc);

/* activation */
miopenStatus_t miopenCreateActivationDescriptor(miopenActivationDescriptor_t* activDesc);
miopenStatus_t miopenSetActivationDescriptor(const miopenActivationDescriptor_t activDesc,
                                             miopenActivationMode_t mode, double activAlpha,
                                             double activBeta, double activGamma);
miopenStatus_t miopenGetActivationDescriptor(const miopenActivationDescriptor_t activDesc,
                                             miopenActivationMode_t* mode, double* activAlpha,
                                             double* activBeta, double* activGamma);
miopenStatus_t miopenActivationForward(miopenHandle_t handle,
                                       const miopenActivationDescriptor_t activDesc,
                                       const void* alpha, const miopenTensorDescriptor_t xDesc,
                                       const void* x, const void* beta,
                                       const miopenTensorDescriptor_t yDesc, void* y);
miopenStatus_t miopenActivationBackward(miopenHandle_t handle,
                                        const miopenActivationDescriptor_t activDesc,
                                        const void* alpha, const miopenTensorDescriptor_t yDesc,
                                        const void* y, const miopenTensorDescriptor_t dyDesc,
                                        const void* dy, const miopenTensorDescriptor_t xDesc,
                                        const void* x, const void* beta,
                                        const miopenTensorDescriptor_t dxDesc, void* dx);
miopenStatus_t miopenDestroyActivationDescriptor(miopenActivationDescriptor_t activDesc);

/* softmax */
miopenStatus_t miopenSoftmaxForward(miopenHandle_t handle, const void* alpha,
                                    const miopenTensorDescriptor_t xDesc, const void* x,
                                    const void* beta, const miopenTensorDescriptor_t yDesc,
                                    void* y);
miopenStatus_t miopenSoftmaxForward_V2(miopenHandle_t handle, const void* alpha,
                                       const miopenTensorDescriptor_t xDesc, const void* x,
                                       const void* beta, const miopenTensorDescriptor_t yDesc,
                                       void* y, miopenSoftmaxAlgorithm_t algorithm,
                                       miopenSoftmaxMode_t mode);
miopenStatus_t miopenSoftmaxBackward(miopenHandle_t handle, const void* alpha,
                                     const miopenTensorDescriptor_t yDesc, const void* y,
                                     const miopenTensorDescriptor_t dyDesc, const void* dy,
                                     const void* beta, const miopenTensorDescriptor_t dxDesc,
                                     void* dx);
miopenStatus_t miopenSoftmaxBackward_V2(miopenHandle_t handle, const void* alpha,
                                        const miopenTensorDescriptor_t yDesc, const void* y,
                                        const miopenTensorDescriptor_t dyDesc, const void* dy,
                                        const void* beta, const miopenTensorDescriptor_t dxDesc,
                                        void* dx, miopenSoftmaxAlgorithm_t algorithm,
                                        miopenSoftmaxMode_t mode);

/* batch normalization */
miopenStatus_t miopenDeriveBNTensorDescriptor(miopenTensorDescriptor_t derivedBnDesc,
                                              const miopenTensorDescriptor_t xDesc,
                                              miopenBatchNormMode_t bn_mode);
miopenStatus_t miopenBatchNormalizationForwardInference(
    miopenHandle_t handle, miopenBatchNormMode_t bn_mode, void* alpha, void* beta,
    const miopenTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t yDesc,
    void* y, const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc, void* bnScale, void* bnBias,
    void* estimatedMean, void* estimatedVariance, double epsilon);

miopenStatus_t miopenBatchNormalizationForwardTraining(
    miopenHandle_t handle, miopenBatchNormMode_t bn_mode, void* alpha, void* beta,
    const miopenTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t yDesc,
    void* y, const miopenTensorDescriptor_t bnScaleBiasMeanVarDesc, void* bnScale, void* bnBias,
    double expAvgFactor, void* resultRunningMean, void* resultRunningVariance, double epsilon,
    void* resultSaveMean, void* resultSaveInvVariance);
miopenStatus_t miopenBatchNormalizationBackward(
    miopenHandle_t handle, miopenBatchNormMode_t bn_mode, const void* alphaDataDiff,
    const void* betaDataDiff, const void* alphaParamDiff, const void* betaParamDiff,
    const miopenTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t dyDesc,
    const void* dy, const miopenTensorDescriptor_t dxDesc, void* dx,
    const miopenTensorDescriptor_t bnScaleBiasDiffDesc, const void* bnScale,
    void* resultBnScaleDiff, void* resultBnBiasDiff, double epsilon, const void* savedMean,
    const void* savedInvVariance);

#ifdef __cplusplus
}
#endif

#endif /* CASS_REFERENCE_MIOPEN_H */
