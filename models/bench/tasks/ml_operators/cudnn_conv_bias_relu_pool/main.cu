// Two small CNN layers through cuDNN, NCHW float:
//   layer 1: x (2x3x16x16) -> 3x3 convolution, padding 1 (8 filters) -> + bias (a kernel of our
//            own) -> ReLU -> 2x2 max pooling, stride 2            => 2x8x8x8
//   layer 2: -> grouped (2 groups) 3x3 convolution with dilation 2, padding 2 (8 filters)
//            -> clipped ReLU (ceiling 1.5) -> 3x3 average pooling, padding 1, stride 2,
//            padding excluded from the count                       => 2x8x4x4
// Each convolution picks its algorithm with cudnnFindConvolutionForwardAlgorithmEx over a
// workspace sized by cudnnGetConvolutionForwardWorkspaceSize. Inputs are multiples of 1/16, and
// every stage is recomputed on the host in double precision; the program prints per-channel sums
// of the result, a few values, and CHECK PASS when all stages agree within 1e-4.
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

struct Shape {
    int n, c, h, w;
    int size() const { return n * c * h * w; }
};

__global__ void add_bias(float* y, const float* bias, int channels, int plane, int total) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < total) y[i] += bias[(i / plane) % channels];
}

static std::vector<float> pattern(int n, int seed) {
    std::vector<float> v(n);
    for (int i = 0; i < n; ++i) v[i] = (float)(((i * 29 + seed * 13) % 23) - 11) / 16.0f;
    return v;
}

// Host reference: cross-correlation with padding, stride 1, dilation and groups.
static std::vector<double> conv_ref(const std::vector<double>& x, Shape xs,
                                    const std::vector<float>& w, int k, int r, int pad, int dil,
                                    int groups, Shape* ys) {
    int cpg = xs.c / groups, kpg = k / groups;
    int oh = xs.h + 2 * pad - dil * (r - 1), ow = xs.w + 2 * pad - dil * (r - 1);
    *ys = Shape{xs.n, k, oh, ow};
    std::vector<double> y(ys->size(), 0.0);
    for (int n = 0; n < xs.n; ++n)
        for (int o = 0; o < k; ++o)
            for (int i = 0; i < oh; ++i)
                for (int j = 0; j < ow; ++j) {
                    double acc = 0;
                    int g = o / kpg;
                    for (int c = 0; c < cpg; ++c)
                        for (int a = 0; a < r; ++a)
                            for (int b = 0; b < r; ++b) {
                                int ih = i - pad + a * dil, iw = j - pad + b * dil;
                                if (ih < 0 || ih >= xs.h || iw < 0 || iw >= xs.w) continue;
                                acc += x[((n * xs.c + g * cpg + c) * xs.h + ih) * xs.w + iw] *
                                       w[((o * cpg + c) * r + a) * r + b];
                            }
                    y[((n * k + o) * oh + i) * ow + j] = acc;
                }
    return y;
}

static std::vector<double> pool_ref(const std::vector<double>& x, Shape xs, int win, int pad,
                                    int stride, bool max_mode, Shape* ys) {
    int oh = (xs.h + 2 * pad - win) / stride + 1, ow = (xs.w + 2 * pad - win) / stride + 1;
    *ys = Shape{xs.n, xs.c, oh, ow};
    std::vector<double> y(ys->size());
    for (int p = 0; p < xs.n * xs.c; ++p)
        for (int i = 0; i < oh; ++i)
            for (int j = 0; j < ow; ++j) {
                double best = -1e300, sum = 0;
                int count = 0;
                for (int a = i * stride - pad; a < i * stride - pad + win; ++a)
                    for (int b = j * stride - pad; b < j * stride - pad + win; ++b) {
                        if (a < 0 || a >= xs.h || b < 0 || b >= xs.w) continue;
                        double v = x[(p * xs.h + a) * xs.w + b];
                        best = std::max(best, v);
                        sum += v;
                        ++count;
                    }
                y[(p * oh + i) * ow + j] = max_mode ? best : sum / count;
            }
    return y;
}

static double max_error(const std::vector<float>& got, const std::vector<double>& want) {
    double e = 0;
    for (size_t i = 0; i < want.size(); ++i) e = std::max(e, std::fabs(got[i] - want[i]));
    return e;
}

static std::vector<float> download(const float* d, int n) {
    std::vector<float> h(n);
    CUDA_CHECK(cudaMemcpy(h.data(), d, n * sizeof(float), cudaMemcpyDeviceToHost));
    return h;
}

static float* upload(const std::vector<float>& h) {
    float* d;
    CUDA_CHECK(cudaMalloc(&d, h.size() * sizeof(float)));
    CUDA_CHECK(cudaMemcpy(d, h.data(), h.size() * sizeof(float), cudaMemcpyHostToDevice));
    return d;
}

static cudnnTensorDescriptor_t tensor(Shape s) {
    cudnnTensorDescriptor_t t;
    CUDNN_CHECK(cudnnCreateTensorDescriptor(&t));
    CUDNN_CHECK(cudnnSetTensor4dDescriptor(t, CUDNN_TENSOR_NCHW, CUDNN_DATA_FLOAT, s.n, s.c, s.h, s.w));
    return t;
}

// y = conv(x, w) with the algorithm cuDNN's find step ranks first; returns y's shape.
static Shape convolve(cudnnHandle_t handle, cudnnTensorDescriptor_t xd, const float* x,
                      Shape xs, const float* w, int k, int r, int pad, int dil, int groups,
                      float** y_out, cudnnTensorDescriptor_t* yd_out) {
    cudnnFilterDescriptor_t wd;
    CUDNN_CHECK(cudnnCreateFilterDescriptor(&wd));
    CUDNN_CHECK(cudnnSetFilter4dDescriptor(wd, CUDNN_DATA_FLOAT, CUDNN_TENSOR_NCHW, k, xs.c / groups, r, r));
    cudnnConvolutionDescriptor_t cd;
    CUDNN_CHECK(cudnnCreateConvolutionDescriptor(&cd));
    CUDNN_CHECK(cudnnSetConvolution2dDescriptor(cd, pad, pad, 1, 1, dil, dil, CUDNN_CROSS_CORRELATION, CUDNN_DATA_FLOAT));
    CUDNN_CHECK(cudnnSetConvolutionGroupCount(cd, groups));
    Shape ys;
    CUDNN_CHECK(cudnnGetConvolution2dForwardOutputDim(cd, xd, wd, &ys.n, &ys.c, &ys.h, &ys.w));
    cudnnTensorDescriptor_t yd = tensor(ys);
    float* y;
    CUDA_CHECK(cudaMalloc(&y, ys.size() * sizeof(float)));
    size_t ws_size = 0;
    CUDNN_CHECK(cudnnGetConvolutionForwardWorkspaceSize(handle, xd, wd, cd, yd, CUDNN_CONVOLUTION_FWD_ALGO_IMPLICIT_GEMM, &ws_size));
    ws_size = std::max(ws_size, (size_t)(1 << 20));
    void* ws;
    CUDA_CHECK(cudaMalloc(&ws, ws_size));
    cudnnConvolutionFwdAlgoPerf_t perf[4];
    int returned = 0;
    CUDNN_CHECK(cudnnFindConvolutionForwardAlgorithmEx(handle, xd, x, wd, w, cd, yd, y, 4, &returned, perf, ws, ws_size));
    if (returned < 1) {
        fprintf(stderr, "no convolution algorithm found\n");
        exit(2);
    }
    float alpha = 1.0f, beta = 0.0f;
    CUDNN_CHECK(cudnnConvolutionForward(handle, &alpha, xd, x, wd, w, cd, perf[0].algo, ws, ws_size, &beta, yd, y));
    CUDA_CHECK(cudaFree(ws));
    CUDNN_CHECK(cudnnDestroyConvolutionDescriptor(cd));
    CUDNN_CHECK(cudnnDestroyFilterDescriptor(wd));
    *y_out = y;
    *yd_out = yd;
    return ys;
}

static Shape activate_and_pool(cudnnHandle_t handle, cudnnTensorDescriptor_t yd, float* y,
                               Shape ys, cudnnActivationMode_t mode, double coef,
                               cudnnPoolingMode_t pmode, int win, int pad, int stride, float** out,
                               cudnnTensorDescriptor_t* od_out) {
    float alpha = 1.0f, beta = 0.0f;
    cudnnActivationDescriptor_t act;
    CUDNN_CHECK(cudnnCreateActivationDescriptor(&act));
    if (mode == CUDNN_ACTIVATION_RELU)
        CUDNN_CHECK(cudnnSetActivationDescriptor(act, CUDNN_ACTIVATION_RELU, CUDNN_PROPAGATE_NAN, coef));
    else
        CUDNN_CHECK(cudnnSetActivationDescriptor(act, CUDNN_ACTIVATION_CLIPPED_RELU, CUDNN_PROPAGATE_NAN, coef));
    CUDNN_CHECK(cudnnActivationForward(handle, act, &alpha, yd, y, &beta, yd, y));
    cudnnPoolingDescriptor_t pool;
    CUDNN_CHECK(cudnnCreatePoolingDescriptor(&pool));
    if (pmode == CUDNN_POOLING_MAX)
        CUDNN_CHECK(cudnnSetPooling2dDescriptor(pool, CUDNN_POOLING_MAX, CUDNN_NOT_PROPAGATE_NAN, win, win, pad, pad, stride, stride));
    else
        CUDNN_CHECK(cudnnSetPooling2dDescriptor(pool, CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING, CUDNN_NOT_PROPAGATE_NAN, win, win, pad, pad, stride, stride));
    Shape os;
    CUDNN_CHECK(cudnnGetPooling2dForwardOutputDim(pool, yd, &os.n, &os.c, &os.h, &os.w));
    cudnnTensorDescriptor_t od = tensor(os);
    CUDA_CHECK(cudaMalloc(out, os.size() * sizeof(float)));
    CUDNN_CHECK(cudnnPoolingForward(handle, pool, &alpha, yd, y, &beta, od, *out));
    CUDNN_CHECK(cudnnDestroyPoolingDescriptor(pool));
    CUDNN_CHECK(cudnnDestroyActivationDescriptor(act));
    *od_out = od;
    return os;
}

int main() {
    cudnnHandle_t handle;
    cudaStream_t stream;
    CUDA_CHECK(cudaStreamCreate(&stream));
    CUDNN_CHECK(cudnnCreate(&handle));
    CUDNN_CHECK(cudnnSetStream(handle, stream));

    Shape xs{2, 3, 16, 16};
    std::vector<float> hx = pattern(xs.size(), 1), hw1 = pattern(8 * 3 * 9, 2);
    std::vector<float> hb = pattern(8, 3), hw2 = pattern(8 * 4 * 9, 4);
    float *x = upload(hx), *w1 = upload(hw1), *b = upload(hb), *w2 = upload(hw2);
    cudnnTensorDescriptor_t xd = tensor(xs);

    // layer 1
    float *c1, *p1;
    cudnnTensorDescriptor_t c1d, p1d;
    Shape c1s = convolve(handle, xd, x, xs, w1, 8, 3, 1, 1, 1, &c1, &c1d);
    int plane = c1s.h * c1s.w;
    add_bias<<<(c1s.size() + 255) / 256, 256, 0, stream>>>(c1, b, c1s.c, plane, c1s.size());
    CUDA_CHECK(cudaGetLastError());
    Shape p1s = activate_and_pool(handle, c1d, c1, c1s, CUDNN_ACTIVATION_RELU, 0.0, CUDNN_POOLING_MAX, 2, 0, 2, &p1, &p1d);

    // layer 2
    float *c2, *p2;
    cudnnTensorDescriptor_t c2d, p2d;
    Shape c2s = convolve(handle, p1d, p1, p1s, w2, 8, 3, 2, 2, 2, &c2, &c2d);
    std::vector<float> conv2_out = download(c2, c2s.size());
    Shape p2s = activate_and_pool(handle, c2d, c2, c2s, CUDNN_ACTIVATION_CLIPPED_RELU, 1.5, CUDNN_POOLING_AVERAGE_COUNT_EXCLUDE_PADDING, 3, 1, 2, &p2, &p2d);
    CUDA_CHECK(cudaStreamSynchronize(stream));
    std::vector<float> pool1 = download(p1, p1s.size()), result = download(p2, p2s.size());

    // host reference
    std::vector<double> rx(hx.begin(), hx.end());
    Shape s1, s2, s3, s4;
    std::vector<double> r1 = conv_ref(rx, xs, hw1, 8, 3, 1, 1, 1, &s1);
    for (int i = 0; i < s1.size(); ++i) r1[i] = std::max(0.0, r1[i] + hb[(i / (s1.h * s1.w)) % 8]);
    std::vector<double> r2 = pool_ref(r1, s1, 2, 0, 2, true, &s2);
    std::vector<double> r3 = conv_ref(r2, s2, hw2, 8, 3, 2, 2, 2, &s3);
    std::vector<double> r3_act(r3);
    for (double& v : r3_act) v = std::min(1.5, std::max(0.0, v));
    std::vector<double> r4 = pool_ref(r3_act, s3, 3, 1, 2, false, &s4);

    printf("shapes: conv1 %dx%dx%dx%d pool1 %dx%dx%dx%d conv2 %dx%dx%dx%d pool2 %dx%dx%dx%d\n",
           c1s.n, c1s.c, c1s.h, c1s.w, p1s.n, p1s.c, p1s.h, p1s.w, c2s.n, c2s.c, c2s.h, c2s.w,
           p2s.n, p2s.c, p2s.h, p2s.w);
    for (int c = 0; c < p2s.c; ++c) {
        double sum = 0;
        for (int n = 0; n < p2s.n; ++n)
            for (int i = 0; i < p2s.h * p2s.w; ++i) sum += result[(n * p2s.c + c) * p2s.h * p2s.w + i];
        printf("channel %d sum %.5f\n", c, sum);
    }
    printf("first values:");
    for (int i = 0; i < 8; ++i) printf(" %.5f", result[i]);
    printf("\n");
    double e1 = max_error(pool1, r2), e2 = max_error(conv2_out, r3), e3 = max_error(result, r4);
    bool ok = s4.n == p2s.n && s4.c == p2s.c && s4.h == p2s.h && s4.w == p2s.w &&
              e1 < 1e-4 && e2 < 1e-4 && e3 < 1e-4;
    printf("layer 1 within 1e-4: %s\n", e1 < 1e-4 ? "yes" : "no");
    printf("layer 2 within 1e-4: %s\n", e2 < 1e-4 && e3 < 1e-4 ? "yes" : "no");
    printf("%s\n", ok ? "CHECK PASS" : "CHECK FAIL");

    for (float* p : {x, w1, b, w2, c1, p1, c2, p2}) CUDA_CHECK(cudaFree(p));
    for (cudnnTensorDescriptor_t t : {xd, c1d, p1d, c2d, p2d}) CUDNN_CHECK(cudnnDestroyTensorDescriptor(t));
    CUDNN_CHECK(cudnnDestroy(handle));
    CUDA_CHECK(cudaStreamDestroy(stream));
    return ok ? 0 : 1;
}
