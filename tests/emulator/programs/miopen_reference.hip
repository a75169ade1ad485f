// Exercises cass's reference MIOpen (runner/emulated_libraries/miopen.hip) on the emulator; the
// test (tests/emulator/test_emulated_miopen.py) recomputes every line with numpy.
// Each line: a name, then values. Inputs are multiples of 1/8 (convolutions are exact).
#include <hip/hip_runtime.h>
#include <miopen/miopen.h>

#include <cstdio>
#include <vector>

#define CHECK(call)                                                                  \
    do {                                                                             \
        miopenStatus_t s_ = (call);                                                  \
        if (s_ != miopenStatusSuccess) {                                             \
            std::printf("FAILED %s line %d: %s\n", #call, __LINE__, miopenGetErrorString(s_)); \
            return 1;                                                                \
        }                                                                            \
    } while (0)

template <typename T>
std::vector<T> values(int n, int seed) {
    std::vector<T> v(n);
    for (int i = 0; i < n; ++i) v[i] = T(((i * 37 + seed * 11) % 19 - 9) / 8.0);
    return v;
}

template <typename T>
T* device(const std::vector<T>& host) {
    T* p = nullptr;
    hipMalloc(&p, host.size() * sizeof(T) + 1);
    hipMemcpy(p, host.data(), host.size() * sizeof(T), hipMemcpyHostToDevice);
    return p;
}

template <typename T>
void print(const char* name, const T* dev, int n) {
    std::vector<T> host(n);
    hipMemcpy(host.data(), dev, n * sizeof(T), hipMemcpyDeviceToHost);
    std::printf("%s", name);
    for (int i = 0; i < n; ++i) std::printf(" %.17g", (double)host[i]);
    std::printf("\n");
}

miopenTensorDescriptor_t tensor(miopenDataType_t type, std::vector<int> dims) {
    miopenTensorDescriptor_t t;
    miopenCreateTensorDescriptor(&t);
    miopenSetTensorDescriptor(t, type, (int)dims.size(), dims.data(), nullptr);
    return t;
}

int conv2d(miopenHandle_t h) {
    // x 2x4x7x6, w 6x2x3x2 (2 groups), pad (1,0), stride (2,1), dilation (1,2)
    auto xd = tensor(miopenFloat, {2, 4, 7, 6}), wd = tensor(miopenFloat, {6, 2, 3, 2});
    miopenConvolutionDescriptor_t conv;
    CHECK(miopenCreateConvolutionDescriptor(&conv));
    CHECK(miopenInitConvolutionDescriptor(conv, miopenConvolution, 1, 0, 2, 1, 1, 2));
    CHECK(miopenSetConvolutionGroupCount(conv, 2));
    int n, c, oh, ow;
    CHECK(miopenGetConvolutionForwardOutputDim(conv, xd, wd, &n, &c, &oh, &ow));
    std::printf("conv2d_dims %d %d %d %d\n", n, c, oh, ow);
    auto yd = tensor(miopenFloat, {n, c, oh, ow});
    auto x = device(values<float>(2 * 4 * 7 * 6, 1)), w = device(values<float>(6 * 2 * 3 * 2, 2));
    auto y = device(std::vector<float>(n * c * oh * ow, 0.f));
    size_t ws = 1;
    CHECK(miopenConvolutionForwardGetWorkSpaceSize(h, wd, xd, conv, yd, &ws));
    miopenConvAlgoPerf_t perf;
    int found = 0;
    CHECK(miopenFindConvolutionForwardAlgorithm(h, xd, x, wd, w, conv, yd, y, 1, &found, &perf,
                                                nullptr, ws, false));
    std::printf("conv2d_find %d %d %zu\n", found, (int)perf.fwd_algo, ws);
    float one = 1.f, zero = 0.f, two = 2.f;
    CHECK(miopenConvolutionForward(h, &one, xd, x, wd, w, conv, perf.fwd_algo, &zero, yd, y,
                                   nullptr, 0));
    print("conv2d_fwd", y, n * c * oh * ow);
    std::printf("conv2d_beta_status %d\n",
                (int)miopenConvolutionForward(h, &one, xd, x, wd, w, conv, perf.fwd_algo, &two,
                                              yd, y, nullptr, 0));
    auto dx = device(std::vector<float>(2 * 4 * 7 * 6, 0.f));
    auto dw = device(std::vector<float>(6 * 2 * 3 * 2, 0.f));
    CHECK(miopenConvolutionBackwardData(h, &one, yd, y, wd, w, conv,
                                        miopenConvolutionBwdDataAlgoDirect, &zero, xd, dx,
                                        nullptr, 0));
    print("conv2d_bwd_data", dx, 2 * 4 * 7 * 6);
    CHECK(miopenConvolutionBackwardWeights(h, &one, yd, y, xd, x, conv,
                                           miopenConvolutionBwdWeightsAlgoDirect, &zero, wd, dw,
                                           nullptr, 0));
    print("conv2d_bwd_weights", dw, 6 * 2 * 3 * 2);
    auto bd = tensor(miopenFloat, {1, c, 1, 1});
    auto b = device(values<float>(c, 3)), db = device(std::vector<float>(c, 0.f));
    CHECK(miopenConvolutionForwardBias(h, &one, bd, b, &zero, yd, y));
    print("conv2d_bias", y, n * c * oh * ow);
    CHECK(miopenConvolutionBackwardBias(h, &one, yd, y, &zero, bd, db));
    print("conv2d_bias_bwd", db, c);
    auto bad = tensor(miopenFloat, {n, c, oh + 1, ow});
    std::printf("conv2d_bad_output_status %d\n",
                (int)miopenConvolutionForward(h, &one, xd, x, wd, w, conv, perf.fwd_algo, &zero,
                                              bad, y, nullptr, 0));
    miopenConvolutionDescriptor_t transposed;
    miopenCreateConvolutionDescriptor(&transposed);
    miopenInitConvolutionDescriptor(transposed, miopenTranspose, 0, 0, 1, 1, 1, 1);
    size_t unused;
    std::printf("conv2d_transpose_status %d\n",
                (int)miopenConvolutionForwardGetWorkSpaceSize(h, wd, xd, transposed, yd, &unused));
    return 0;
}

int conv3d_double(miopenHandle_t h) {
    // x 1x2x4x4x3, w 2x2x2x2x2, pad 1, stride (1,2,1), alpha 0.5, beta 2 (3-D takes any scaling)
    auto xd = tensor(miopenDouble, {1, 2, 4, 4, 3}), wd = tensor(miopenDouble, {2, 2, 2, 2, 2});
    miopenConvolutionDescriptor_t conv;
    miopenCreateConvolutionDescriptor(&conv);
    int pad[3] = {1, 1, 1}, stride[3] = {1, 2, 1}, dil[3] = {1, 1, 1};
    CHECK(miopenInitConvolutionNdDescriptor(conv, 3, pad, stride, dil, miopenConvolution));
    int nd, dims[5];
    CHECK(miopenGetConvolutionNdForwardOutputDim(conv, xd, wd, &nd, dims));
    std::printf("conv3d_dims %d %d %d %d %d %d\n", nd, dims[0], dims[1], dims[2], dims[3], dims[4]);
    int total = dims[0] * dims[1] * dims[2] * dims[3] * dims[4];
    auto yd = tensor(miopenDouble, {dims[0], dims[1], dims[2], dims[3], dims[4]});
    auto x = device(values<double>(96, 4)), w = device(values<double>(32, 5));
    auto y = device(values<double>(total, 6));
    double alpha = 0.5, beta = 2.0;
    CHECK(miopenConvolutionForward(h, &alpha, xd, x, wd, w, conv, miopenConvolutionFwdAlgoDirect,
                                   &beta, yd, y, nullptr, 0));
    print("conv3d_fwd", y, total);
    return 0;
}

int conv_half(miopenHandle_t h) {
    auto xd = tensor(miopenHalf, {1, 2, 5, 5}), wd = tensor(miopenHalf, {3, 2, 3, 3});
    auto yd = tensor(miopenHalf, {1, 3, 3, 3});
    miopenConvolutionDescriptor_t conv;
    miopenCreateConvolutionDescriptor(&conv);
    CHECK(miopenInitConvolutionDescriptor(conv, miopenConvolution, 0, 0, 1, 1, 1, 1));
    auto x = device(values<_Float16>(50, 7)), w = device(values<_Float16>(54, 8));
    auto y = device(std::vector<_Float16>(27, (_Float16)0));
    float one = 1.f, zero = 0.f;
    CHECK(miopenConvolutionForward(h, &one, xd, x, wd, w, conv, miopenConvolutionFwdAlgoDirect,
                                   &zero, yd, y, nullptr, 0));
    print("conv_half", y, 27);
    return 0;
}

int pooling(miopenHandle_t h) {
    auto xd = tensor(miopenFloat, {2, 3, 7, 6});
    auto x = device(values<float>(2 * 3 * 7 * 6, 9));
    const char* names[3] = {"pool_max", "pool_avg_exclude", "pool_avg_include"};
    miopenPoolingMode_t modes[3] = {miopenPoolingMax, miopenPoolingAverage,
                                    miopenPoolingAverageInclusive};
    float one = 1.f, zero = 0.f;
    for (int m = 0; m < 3; ++m) {
        miopenPoolingDescriptor_t pool;
        CHECK(miopenCreatePoolingDescriptor(&pool));
        CHECK(miopenSet2dPoolingDescriptor(pool, modes[m], 3, 2, 1, 1, 2, 2));
        int n, c, oh, ow;
        CHECK(miopenGetPoolingForwardOutputDim(pool, xd, &n, &c, &oh, &ow));
        if (m == 0) std::printf("pool_dims %d %d %d %d\n", n, c, oh, ow);
        auto yd = tensor(miopenFloat, {n, c, oh, ow});
        auto y = device(std::vector<float>(n * c * oh * ow, 0.f));
        CHECK(miopenPoolingForward(h, pool, &one, xd, x, &zero, yd, y, false, nullptr, 0));
        print(names[m], y, n * c * oh * ow);
        if (m == 0)
            std::printf("pool_beta_status %d\n",
                        (int)miopenPoolingForward(h, pool, &one, xd, x, &one, yd, y, false,
                                                  nullptr, 0));
        miopenDestroyPoolingDescriptor(pool);
    }
    return 0;
}

int activation(miopenHandle_t h) {
    auto d = tensor(miopenFloat, {1, 3, 2, 5});
    auto x = device(values<float>(30, 10)), y = device(std::vector<float>(30, 0.f));
    auto dy = device(values<float>(30, 18)), dx = device(std::vector<float>(30, 0.f));
    struct Case {
        const char* name;
        miopenActivationMode_t mode;
        double a, b, g;
    } cases[] = {{"act_relu", miopenActivationRELU, 1, 1, 1},
                 {"act_logistic", miopenActivationLOGISTIC, 1, 1, 1},
                 {"act_tanh", miopenActivationTANH, 1, 1, 1},
                 {"act_clipped", miopenActivationCLIPPEDRELU, 0.7, 1, 1},
                 {"act_elu", miopenActivationELU, 0.4, 1, 1},
                 {"act_leaky", miopenActivationLEAKYRELU, 0.1, 1, 1},
                 {"act_softrelu", miopenActivationSOFTRELU, 1, 1, 1},
                 {"act_abs", miopenActivationABS, 1, 1, 1},
                 {"act_power", miopenActivationPOWER, 0.5, 0.25, 2},
                 {"act_passthru", miopenActivationPASTHRU, 1, 1, 1}};
    float one = 1.f, zero = 0.f;
    for (const Case& k : cases) {
        miopenActivationDescriptor_t a;
        CHECK(miopenCreateActivationDescriptor(&a));
        CHECK(miopenSetActivationDescriptor(a, k.mode, k.a, k.b, k.g));
        CHECK(miopenActivationForward(h, a, &one, d, x, &zero, d, y));
        print(k.name, y, 30);
        CHECK(miopenActivationBackward(h, a, &one, d, y, d, dy, d, x, &zero, d, dx));
        std::printf("backward_");
        print(k.name, dx, 30);
        miopenDestroyActivationDescriptor(a);
    }
    return 0;
}

int softmax(miopenHandle_t h) {
    auto d = tensor(miopenFloat, {2, 5, 2, 3});
    auto x = device(values<float>(60, 11));
    auto y = device(values<float>(60, 12));
    float one = 1.f, zero = 0.f, two = 2.f, half = 0.5f;
    CHECK(miopenSoftmaxForward_V2(h, &one, d, x, &zero, d, y, MIOPEN_SOFTMAX_ACCURATE,
                                  MIOPEN_SOFTMAX_MODE_CHANNEL));
    print("softmax_accurate_channel", y, 60);
    CHECK(miopenSoftmaxForward_V2(h, &one, d, x, &zero, d, y, MIOPEN_SOFTMAX_LOG,
                                  MIOPEN_SOFTMAX_MODE_INSTANCE));
    print("softmax_log_instance", y, 60);
    CHECK(miopenSoftmaxForward_V2(h, &two, d, x, &half, d, y, MIOPEN_SOFTMAX_FAST,
                                  MIOPEN_SOFTMAX_MODE_CHANNEL));
    print("softmax_fast_channel_blend", y, 60);
    auto dd = tensor(miopenDouble, {2, 5, 2, 3});
    auto xd = device(values<double>(60, 11)), yd = device(std::vector<double>(60, 0.0));
    double done = 1.0, dzero = 0.0;
    CHECK(miopenSoftmaxForward_V2(h, &done, dd, xd, &dzero, dd, yd, MIOPEN_SOFTMAX_ACCURATE,
                                  MIOPEN_SOFTMAX_MODE_INSTANCE));
    print("softmax_double_instance", yd, 60);
    auto dy = device(values<float>(60, 19)), dx = device(values<float>(60, 20));
    CHECK(miopenSoftmaxForward_V2(h, &one, d, x, &zero, d, y, MIOPEN_SOFTMAX_ACCURATE,
                                  MIOPEN_SOFTMAX_MODE_CHANNEL));
    CHECK(miopenSoftmaxBackward_V2(h, &one, d, y, d, dy, &zero, d, dx, MIOPEN_SOFTMAX_ACCURATE,
                                   MIOPEN_SOFTMAX_MODE_CHANNEL));
    print("softmax_bwd_channel", dx, 60);
    CHECK(miopenSoftmaxForward_V2(h, &one, d, x, &zero, d, y, MIOPEN_SOFTMAX_LOG,
                                  MIOPEN_SOFTMAX_MODE_INSTANCE));
    auto dx2 = device(values<float>(60, 20));
    CHECK(miopenSoftmaxBackward_V2(h, &two, d, y, d, dy, &half, d, dx2, MIOPEN_SOFTMAX_LOG,
                                   MIOPEN_SOFTMAX_MODE_INSTANCE));
    print("softmax_bwd_log_blend", dx2, 60);
    return 0;
}

int batchnorm(miopenHandle_t h) {
    auto xd = tensor(miopenFloat, {2, 3, 2, 4});
    auto x = device(values<float>(48, 13)), y = device(std::vector<float>(48, 0.f));
    miopenBatchNormMode_t modes[2] = {miopenBNSpatial, miopenBNPerActivation};
    const char* names[2] = {"bn_spatial", "bn_per_activation"};
    float one = 1.f, zero = 0.f;
    for (int m = 0; m < 2; ++m) {
        miopenTensorDescriptor_t pd;
        miopenCreateTensorDescriptor(&pd);
        CHECK(miopenDeriveBNTensorDescriptor(pd, xd, modes[m]));
        miopenDataType_t type;
        int n, c, hh, ww, sn, sc, sh, sw;
        CHECK(miopenGet4dTensorDescriptor(pd, &type, &n, &c, &hh, &ww, &sn, &sc, &sh, &sw));
        std::printf("%s_dims %d %d %d %d\n", names[m], n, c, hh, ww);
        int count = n * c * hh * ww;
        auto scale = device(values<float>(count, 14)), bias = device(values<float>(count, 15));
        std::vector<float> var_host = values<float>(count, 16);
        for (float& v : var_host) v = v * v + 0.25f;
        auto mean = device(values<float>(count, 17)), var = device(var_host);
        CHECK(miopenBatchNormalizationForwardInference(h, modes[m], &one, &zero, xd, x, xd, y, pd,
                                                       scale, bias, mean, var, 1e-3));
        print(names[m], y, 48);
        // training: batch statistics, running averages (factor 0.25), saved mean / inverse std
        auto save_mean = device(std::vector<float>(count, 0.f));
        auto save_inv = device(std::vector<float>(count, 0.f));
        CHECK(miopenBatchNormalizationForwardTraining(h, modes[m], &one, &zero, xd, x, xd, y, pd,
                                                      scale, bias, 0.25, mean, var, 1e-3,
                                                      save_mean, save_inv));
        std::printf("%s_", names[m]);
        print("train", y, 48);
        std::printf("%s_", names[m]);
        print("running_mean", mean, count);
        std::printf("%s_", names[m]);
        print("running_var", var, count);
        std::printf("%s_", names[m]);
        print("saved_inv", save_inv, count);
        auto dy = device(values<float>(48, 25)), dx = device(std::vector<float>(48, 0.f));
        auto dscale = device(std::vector<float>(count, 0.f));
        auto dbias = device(std::vector<float>(count, 0.f));
        CHECK(miopenBatchNormalizationBackward(h, modes[m], &one, &zero, &one, &zero, xd, x, xd, dy,
                                               xd, dx, pd, scale, dscale, dbias, 1e-3, save_mean,
                                               save_inv));
        std::printf("%s_", names[m]);
        print("dx", dx, 48);
        std::printf("%s_", names[m]);
        print("dscale", dscale, count);
        std::printf("%s_", names[m]);
        print("dbias", dbias, count);
        CHECK(miopenBatchNormalizationBackward(h, modes[m], &one, &zero, &one, &zero, xd, x, xd, dy,
                                               xd, dx, pd, scale, dscale, dbias, 1e-3, nullptr,
                                               nullptr));
        std::printf("%s_", names[m]);
        print("dx_recomputed", dx, 48);
    }
    return 0;
}

int op_tensor(miopenHandle_t h) {
    auto ad = tensor(miopenFloat, {2, 3, 2, 2}), bd = tensor(miopenFloat, {1, 3, 1, 1});
    auto md = tensor(miopenFloat, {1, 1, 2, 2});
    auto a = device(values<float>(24, 21)), b = device(values<float>(3, 22));
    auto m = device(values<float>(4, 24)), c = device(values<float>(24, 23));
    float one = 1.f, two = 2.f, half = 0.5f, zero = 0.f;
    CHECK(miopenOpTensor(h, miopenTensorOpAdd, &one, ad, a, &two, bd, b, &half, ad, c));
    print("optensor_add", c, 24);
    CHECK(miopenOpTensor(h, miopenTensorOpMul, &one, ad, a, &one, md, m, &zero, ad, c));
    print("optensor_mul", c, 24);
    CHECK(miopenOpTensor(h, miopenTensorOpMax, &one, ad, a, &half, bd, b, &zero, ad, c));
    print("optensor_max", c, 24);
    return 0;
}

int descriptors() {
    miopenTensorDescriptor_t t;
    miopenCreateTensorDescriptor(&t);
    CHECK(miopenSet4dTensorDescriptorEx(t, miopenDouble, 2, 3, 4, 5, 100, 30, 6, 1));
    size_t bytes;
    CHECK(miopenGetTensorNumBytes(t, &bytes));
    std::printf("strided_bytes %zu\n", bytes);
    std::printf("bad_dims_status %d\n", (int)miopenSet4dTensorDescriptor(t, miopenFloat, 2, 0, 1, 1));
    return 0;
}

int main() {
    miopenHandle_t h;
    hipStream_t stream;
    hipStreamCreate(&stream);
    CHECK(miopenCreateWithStream(&h, stream));
    hipStream_t got;
    CHECK(miopenGetStream(h, &got));
    std::printf("stream_kept %d\n", got == stream ? 1 : 0);
    if (conv2d(h) || conv3d_double(h) || conv_half(h) || pooling(h) || activation(h) ||
        softmax(h) || batchnorm(h) || op_tensor(h) || descriptors())
        return 1;
    hipStreamSynchronize(stream);
    CHECK(miopenDestroy(h));
    return 0;
}
