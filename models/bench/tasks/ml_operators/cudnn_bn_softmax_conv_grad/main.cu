// cuDNN calls of an inference head and of a training step, NCHW float:
//   x (4x6x5x5) -> batch-norm inference, spatial (per-channel scale, bias, running mean and
//   variance) -> ELU (alpha 0.3) -> softmax over the channels at every pixel (accurate) and
//   log-softmax over each whole image (instance mode); tanh and sigmoid of the normalised x;
//   the input gradient of a 3x3 convolution (padding 1, stride 2, 4 -> 5 channels):
//   cudnnConvolutionBackwardData with the algorithm cudnnFindConvolutionBackwardDataAlgorithmEx
//   ranks first. Every result is recomputed on the host in double precision; the program prints
//   sums and a few values, and CHECK PASS when every stage agrees within 1e-4.
#include <cstdio>
#include <cstdlib>
#include <cmath>
#include <vector>
#include <algorithm>
#include <cuda_runtime.h>
#include <cudnn.h>

#define CUDA_CHECK(call)                                                          \
    do {                                                                          \
        cudaError_t err_ = (call);                                                \
        if (err_ != cudaSuccess) {                                                \
            fprintf(stderr, "CUDA error %s at %s:%d\n", cudaGetErrorString(err_), \
                    __FILE__, __LINE__);                                          \
            exit(2);                                                              \
        }                                                                         \
    } while (0)
#define CUDNN_CHECK(call)                                                         \
    do {                                                                          \
        cudnnStatus_t s_ = (call);                                                \
        if (s_ != CUDNN_STATUS_SUCCESS) {                                         \
            fprintf(stderr, "cuDNN error %s at %s:%d\n", cudnnGetErrorString(s_), \
                    __FILE__, __LINE__);                                          \
            exit(2);                                                              \
        }                                                                         \
    } while (0)

static const int N = 4, C = 6, H = 5, W = 5, HW = H * W, SIZE = N * C * HW;
static int failures = 0;

static std::vector<float> pattern(int n, int seed) {
    std::vector<float> v(n);
    for (int i = 0; i < n; ++i) v[i] = (float)(((i * 31 + seed * 7) % 29) - 14) / 8.0f;
    return v;
}

static float* upload(const std::vector<float>& h) {
    float* d;
    CUDA_CHECK(cudaMalloc(&d, h.size() * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
    return d;
}

static std::vector<float> download(const float* d, int n) {
    std::vector<float> h(n);
    CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
    return h;
}

static void report(const char* name, const std::vector<float>& got, const std::vector<double>& want) {
    double err = 0, sum = 0;
    for (size_t i = 0; i < want.size(); ++i) {
        err = std::max(err, std::fabs(got[i] - want[i]));
        sum += got[i];
    }
    printf("%-22s sum %12.5f  first %.5f %.5f %.5f  within 1e-4: %s\n", name, sum, got[0], got[1],
           got[2], err < 1e-4 ? "yes" : "no");
    if (!(err < 1e-4)) ++failures;
}

static cudnnTensorDescriptor_t tensor(int n, int c, int h, int w) {
    cudnnTensorDescriptor_t t;
    CUDNN_CHECK(cudnnCreateTensorDescriptor(&t));
    CUDNN_CHECK(cudnnSetTensor4dDescriptor(t, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, n, c, h, w));
    return t;
}

static std::vector<float> activation(cudnnHandle_t handle, cudnnActivationDescriptor_t act,
                                     cudnnTensorDescriptor_t d, const float* x, float* y) {
    float alpha = 1.0f, beta = 0.0f;
    CUDNN_CHECK(cudnnActivationForward(handle, act, &alpha, d, x, &beta, d, y));
    return download(y, SIZE);
}

static void conv_backward_data(cudnnHandle_t handle) {
    const int K = 5, R = 3, OH = 4, OW = 4;  // x 2x4x7x7, stride 2, padding 1 -> dy 2x5x4x4
    std::vector<float> hw = pattern(K * 4 * R * R, 3), hdy = pattern(2 * K * OH * OW, 4);
    float *w = upload(hw), *dy = upload(hdy), *dx;
    CUDA_CHECK(cudaMalloc(&dx, 2 * 4 * 7 * 7 * sizeof(float)));
    cudnnFilterDescriptor_t wd;
    CUDNN_CHECK(cudnnCreateFilterDescriptor(&wd));
    CUDNN_CHECK(cudnnSetFilter4dDescriptor(wd, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, K, 4, R, R));
    cudnnConvolutionDescriptor_t cd;
    CUDNN_CHECK(cudnnCreateConvolutionDescriptor(&cd));
    CUDNN_CHECK(cudnnSetConvolution2dDescriptor(cd, 1, 1, 2, 2, 1, 1, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    cudnnTensorDescriptor_t dxd = tensor(2, 4, 7, 7), dyd = tensor(2, K, OH, OW);
    size_t ws_size = 0;
    CUDNN_CHECK(cudnnGetConvolutionBackwardDataWorkspaceSize(handle, wd, dyd, cd, dxd, CUDNN_CONVOLUTION_BWD_DATA_ALGO_1, &ws_size));
    ws_size = std::max(ws_size, (size_t)(1 << 20));
    void* ws;
    CUDA_CHECK(cudaMalloc(&ws, ws_size));
    cudnnConvolutionBwdDataAlgoPerf_t perf[4];
    int returned = 0;
    CUDNN_CHECK(cudnnFindConvolutionBackwardDataAlgorithmEx(handle, wd, w, dyd, dy, cd, dxd, dx, 4, &returned, perf, ws, ws_size));
    if (returned < 1) {
        fprintf(stderr, "no backward-data algorithm found\n");
        exit(2);
    }
    float alpha = 1.0f, beta = 0.0f;
    CUDNN_CHECK(cudnnConvolutionBackwardData(handle, &alpha, wd, w, dyd, dy, cd, perf[0].algo, ws, ws_size, &beta, dxd, dx));
    std::vector<float> got = download(dx, 2 * 4 * 7 * 7);
    std::vector<double> want(got.size(), 0.0);
    for (int n = 0; n < 2; ++n)
        for (int k = 0; k < K; ++k)
            for (int c = 0; c < 4; ++c)
                for (int i = 0; i < OH; ++i)
                    for (int j = 0; j < OW; ++j)
                        for (int a = 0; a < R; ++a)
                            for (int b = 0; b < R; ++b) {
                                int ih = i * 2 - 1 + a, iw = j * 2 - 1 + b;
                                if (ih < 0 || ih >= 7 || iw < 0 || iw >= 7) continue;
                                want[((n * 4 + c) * 7 + ih) * 7 + iw] +=
                                    (double)hdy[((n * K + k) * OH + i) * OW + j] * hw[((k * 4 + c) * R + a) * R + b];
                            }
    report("conv backward data", got, want);
    CUDA_CHECK(cudaFree(ws));
    for (float* p : {w, dy, dx}) CUDA_CHECK(cudaFree(p));
    CUDNN_CHECK(cudnnDestroyTensorDescriptor(dxd));
    CUDNN_CHECK(cudnnDestroyTensorDescriptor(dyd));
    CUDNN_CHECK(cudnnDestroyFilterDescriptor(wd));
    CUDNN_CHECK(cudnnDestroyConvolutionDescriptor(cd));
}

int main() {
    cudnnHandle_t handle;
    CUDNN_CHECK(cudnnCreate(&handle));
    std::vector<float> hx = pattern(SIZE, 1), hscale(C), hbias(C), hmean(C), hvar(C);
    for (int c = 0; c < C; ++c) {
        hscale[c] = 0.5f + 0.25f * c;
        hbias[c] = 0.125f * (c - 2);
        hmean[c] = 0.25f * (c % 3) - 0.25f;
        hvar[c] = 0.5f + 0.5f * c;
    }
    const double eps = 1e-4;
    float *x = upload(hx), *scale = upload(hscale), *bias = upload(hbias);
    float *mean = upload(hmean), *var = upload(hvar), *y, *z;
    CUDA_CHECK(cudaMalloc(&y, SIZE * sizeof(float)));
    CUDA_CHECK(cudaMalloc(&z, SIZE * sizeof(float)));
    cudnnTensorDescriptor_t d = tensor(N, C, H, W), bnd;
    CUDNN_CHECK(cudnnCreateTensorDescriptor(&bnd));
    CUDNN_CHECK(cudnnDeriveBNTensorDescriptor(bnd, d, CUDNN_BATCHNORM_SPATIAL));
    float alpha = 1.0f, beta = 0.0f;
    CUDNN_CHECK(cudnnBatchNormalizationForwardInference(handle, CUDNN_BATCHNORM_SPATIAL, &alpha, &beta, d, x, d, y, bnd, scale, bias, mean, var, eps));
    std::vector<float> normalised = download(y, SIZE);
    std::vector<double> rbn(SIZE), relu_(SIZE);
    for (int i = 0; i < SIZE; ++i) {
        int c = (i / HW) % C;
        rbn[i] = hscale[c] * (hx[i] - hmean[c]) / std::sqrt((double)hvar[c] + eps) + hbias[c];
    }
    report("batch-norm inference", normalised, rbn);

    cudnnActivationDescriptor_t elu, th, sig;
    CUDNN_CHECK(cudnnCreateActivationDescriptor(&elu));
    CUDNN_CHECK(cudnnCreateActivationDescriptor(&th));
    CUDNN_CHECK(cudnnCreateActivationDescriptor(&sig));
    CUDNN_CHECK(cudnnSetActivationDescriptor(elu, CUDNN_ACTIVATION_ELU, CUDNN_NOT_PROPAGATE_NAN, 0.3));
    CUDNN_CHECK(cudnnSetActivationDescriptor(th, CUDNN_ACTIVATION_TANH, CUDNN_NOT_PROPAGATE_NAN, 0.0));
    CUDNN_CHECK(cudnnSetActivationDescriptor(sig, CUDNN_ACTIVATION_SIGMOID, CUDNN_NOT_PROPAGATE_NAN, 0.0));
    std::vector<double> rtanh(SIZE), rsig(SIZE), relu(SIZE);
    for (int i = 0; i < SIZE; ++i) {
        rtanh[i] = std::tanh(rbn[i]);
        rsig[i] = 1.0 / (1.0 + std::exp(-rbn[i]));
        relu[i] = rbn[i] > 0 ? rbn[i] : 0.3 * std::expm1(rbn[i]);
    }
    report("tanh", activation(handle, th, d, y, z), rtanh);
    report("sigmoid", activation(handle, sig, d, y, z), rsig);
    report("elu", activation(handle, elu, d, y, z), relu);  // z holds ELU(bn(x)) from here on

    CUDNN_CHECK(cudnnSoftmaxForward(handle, CUDNN_SOFTMAX_ACCURATE, CUDNN_SOFTMAX_MODE_CHANNEL, &alpha, d, z, &beta, d, y));
    std::vector<double> rsoft(SIZE), rlog(SIZE);
    for (int n = 0; n < N; ++n) {
        for (int p = 0; p < HW; ++p) {
            double top = -1e300, total = 0;
            for (int c = 0; c < C; ++c) top = std::max(top, relu[(n * C + c) * HW + p]);
            for (int c = 0; c < C; ++c) total += std::exp(relu[(n * C + c) * HW + p] - top);
            for (int c = 0; c < C; ++c)
                rsoft[(n * C + c) * HW + p] = std::exp(relu[(n * C + c) * HW + p] - top) / total;
        }
        double top = -1e300, total = 0;
        for (int i = n * C * HW; i < (n + 1) * C * HW; ++i) top = std::max(top, relu[i]);
        for (int i = n * C * HW; i < (n + 1) * C * HW; ++i) total += std::exp(relu[i] - top);
        for (int i = n * C * HW; i < (n + 1) * C * HW; ++i) rlog[i] = relu[i] - top - std::log(total);
    }
    report("softmax (channel)", download(y, SIZE), rsoft);
    CUDNN_CHECK(cudnnSoftmaxForward(handle, CUDNN_SOFTMAX_LOG, CUDNN_SOFTMAX_MODE_INSTANCE, &alpha, d, z, &beta, d, y));
    report("log-softmax (instance)", download(y, SIZE), rlog);

    conv_backward_data(handle);

    printf("%s\n", failures == 0 ? "CHECK PASS" : "CHECK FAIL");
    for (cudnnActivationDescriptor_t a : {elu, th, sig}) CUDNN_CHECK(cudnnDestroyActivationDescriptor(a));
    CUDNN_CHECK(cudnnDestroyTensorDescriptor(d));
    CUDNN_CHECK(cudnnDestroyTensorDescriptor(bnd));
    for (float* p : {x, scale, bias, mean, var, y, z}) CUDA_CHECK(cudaFree(p));
    CUDNN_CHECK(cudnnDestroy(handle));
    return failures == 0 ? 0 : 1;
}
