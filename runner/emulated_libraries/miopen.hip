// cass's reference implementations for emulated verification: MIOpen's common layer operations.
//
// What the cuDNN -> MIOpen rules (models/rules/passes/cudnn_calls.py) produce for the common
// paths, as plain HIP kernels compiled for gfx1100 with the program, one thread per output
// element, summing in the data's type (double for double data, float for float and half):
//
// - handle (create, with a stream, destroy, set/get stream) and miopenGetErrorString;
// - tensor descriptors of 3 to 5 dimensions (N, C, then 1-3 spatial), packed or strided, of
//   half, float or double data; miopenSetTensor and miopenScaleTensor;
// - convolution descriptors of 1-3 spatial dimensions (padding, stride, dilation, groups);
//   miopenConvolution is cross-correlation, as in MIOpen; output dimensions; the workspace
//   queries (0 bytes) and the find steps (one result: the direct algorithm); convolution forward,
//   backward data and backward weights; forward and backward bias;
// - pooling (max, average excluding or including the padding) of 1-3 spatial dimensions,
//   forward only (do_backward is accepted; no workspace is written);
// - activation forward and backward (pass-through, logistic, tanh, ReLU, soft ReLU, abs, power,
//   clipped ReLU, leaky ReLU, ELU: MIOpen's formulas over its alpha, beta, gamma);
// - softmax forward and backward (fast, accurate, log; instance or channel mode, alpha/beta);
// - miopenOpTensor (add, mul, min, max; B broadcast along its dimensions of length 1);
// - batch normalization (spatial or per activation): forward inference, forward training (batch
//   statistics; running mean and unbiased variance averaged by expAvgFactor; saved mean and
//   inverse standard deviation), backward (dx, dscale, dbias; from the saved statistics or
//   recomputed when they are null), and the derived scale/bias/mean/variance descriptor.
//
// Scaling factors are read as double for double data and as float otherwise. Where MIOpen
// refuses parameters this returns what MIOpen returns: miopenStatusBadParm for null or
// inconsistent descriptors, miopenStatusNotImplemented for a 2-D convolution with alpha != 1 or
// beta != 0 (miopen.h: the only supported scaling), miopenStatusUnknownError for pooling and
// activation with alpha != 1 or beta != 0. What MIOpen can do and this cannot (transposed
// convolution, other data types or layouts, estimated statistics left null) returns
// miopenStatusNotImplemented. Every refusal prints one line naming the call and the reason.
// On an AMD GPU the real MIOpen is linked instead.

#include <hip/hip_runtime.h>
#include <miopen/miopen.h>

#include <cmath>
#include <cstdio>
#include <new>
#include <type_traits>

// Every function defined below must be one miopen.h declares (a misspelt name is an error).
#pragma clang diagnostic error "-Wmissing-prototypes"

constexpr int kMaxDims = 5;

struct miopenHandle {
    hipStream_t stream = nullptr;
};
struct miopenTensorDescriptor {
    miopenDataType_t type = miopenFloat;
    int nd = 0;
    int dims[kMaxDims] = {};
    int strides[kMaxDims] = {};
};
struct miopenConvolutionDescriptor {
    miopenConvolutionMode_t mode = miopenConvolution;
    int spatial = 0;
    int pad[3] = {}, stride[3] = {1, 1, 1}, dilation[3] = {1, 1, 1};
    int groups = 1;
};
struct miopenPoolingDescriptor {
    miopenPoolingMode_t mode = miopenPoolingMax;
    int spatial = 0;
    int window[3] = {1, 1, 1}, pad[3] = {}, stride[3] = {1, 1, 1};
};
struct miopenActivationDescriptor {
    miopenActivationMode_t mode = miopenActivationPASTHRU;
    double alpha = 0, beta = 0, gamma = 0;
};

namespace {

constexpr int kThreads = 256;

// A tensor as the kernels see it: N, C and three spatial extents (leading ones 1 for 1-D/2-D).
struct Geo {
    int n, c, d, h, w;
    long long sn, sc, sd, sh, sw;
};

// Convolution or pooling parameters over three spatial axes (d, h, w).
struct Window {
    int k[3], pad[3], stride[3], dil[3];
    int groups;
};

Geo geo(const miopenTensorDescriptor* t) {
    Geo g{t->dims[0], t->dims[1], 1, 1, 1, t->strides[0], t->strides[1], 0, 0, 0};
    int* ext[3] = {&g.d, &g.h, &g.w};
    long long* str[3] = {&g.sd, &g.sh, &g.sw};
    int spatial = t->nd - 2, first = 3 - spatial;
    for (int i = 0; i < spatial; ++i) {
        *ext[first + i] = t->dims[2 + i];
        *str[first + i] = t->strides[2 + i];
    }
    return g;
}

__host__ __device__ long long elements(const Geo& g) { return (long long)g.n * g.c * g.d * g.h * g.w; }

__host__ __device__ long long at(const Geo& g, int n, int c, int d, int h, int w) {
    return n * g.sn + c * g.sc + d * g.sd + h * g.sh + w * g.sw;
}

// Element i of g's logical (packed NCDHW) order -> its coordinates.
__device__ void coords(const Geo& g, long long i, int* n, int* c, int* d, int* h, int* w) {
    *w = (int)(i % g.w);
    i /= g.w;
    *h = (int)(i % g.h);
    i /= g.h;
    *d = (int)(i % g.d);
    i /= g.d;
    *c = (int)(i % g.c);
    *n = (int)(i / g.c);
}

template <typename T>
struct Acc {
    using type = float;
};
template <>
struct Acc<double> {
    using type = double;
};

miopenStatus_t refuse(miopenStatus_t status, const char* call, const char* why) {
    std::fprintf(stderr, "cass reference MIOpen (runner/emulated_libraries/miopen.hip): %s: %s (%s)\n",
                 call, why, miopenGetErrorString(status));
    return status;
}

miopenStatus_t launched(const char* call) {
    hipError_t err = hipGetLastError();
    return err == hipSuccess ? miopenStatusSuccess
                             : refuse(miopenStatusInternalError, call, hipGetErrorString(err));
}

int blocks(long long n) { return (int)((n + kThreads - 1) / kThreads); }

double scalar(const void* p, miopenDataType_t type) {
    return type == miopenDouble ? *static_cast<const double*>(p) : *static_cast<const float*>(p);
}

bool supported_type(miopenDataType_t t) {
    return t == miopenFloat || t == miopenDouble || t == miopenHalf;
}

size_t type_size(miopenDataType_t t) { return t == miopenDouble ? 8 : t == miopenHalf ? 2 : 4; }

void packed_strides(miopenTensorDescriptor* t) {
    long long s = 1;
    for (int i = t->nd - 1; i >= 0; --i) {
        t->strides[i] = (int)s;
        s *= t->dims[i];
    }
}

// Run `launch.template operator()<T>()` for the descriptor's element type.
template <typename F>
miopenStatus_t by_type(miopenDataType_t type, const char* call, F&& launch) {
    switch (type) {
        case miopenFloat: launch((float*)nullptr); break;
        case miopenDouble: launch((double*)nullptr); break;
        case miopenHalf: launch((_Float16*)nullptr); break;
        default: return refuse(miopenStatusNotImplemented, call, "data type not covered (half, float, double)");
    }
    return launched(call);
}

Window conv_window(const miopenConvolutionDescriptor* c, const miopenTensorDescriptor* w) {
    Window win{};
    int first = 3 - c->spatial;
    for (int i = 0; i < 3; ++i) {
        win.k[i] = 1, win.pad[i] = 0, win.stride[i] = 1, win.dil[i] = 1;
    }
    for (int i = 0; i < c->spatial; ++i) {
        win.k[first + i] = w->dims[2 + i];
        win.pad[first + i] = c->pad[i];
        win.stride[first + i] = c->stride[i];
        win.dil[first + i] = c->dilation[i];
    }
    win.groups = c->groups;
    return win;
}

Window pool_window(const miopenPoolingDescriptor* p) {
    Window win{};
    int first = 3 - p->spatial;
    for (int i = 0; i < 3; ++i) {
        win.k[i] = 1, win.pad[i] = 0, win.stride[i] = 1, win.dil[i] = 1;
    }
    for (int i = 0; i < p->spatial; ++i) {
        win.k[first + i] = p->window[i];
        win.pad[first + i] = p->pad[i];
        win.stride[first + i] = p->stride[i];
    }
    win.groups = 1;
    return win;
}

// ------------------------------------------------------------------ kernels

template <typename T>
__global__ void conv_forward(Geo x, Geo w, Geo y, Window win, const T* X, const T* W, T* Y,
                             typename Acc<T>::type alpha, typename Acc<T>::type beta) {
    using A = typename Acc<T>::type;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= elements(y)) return;
    int n, k, od, oh, ow;
    coords(y, i, &n, &k, &od, &oh, &ow);
    int per_group = y.c / win.groups, g = k / per_group;
    A acc = 0;
    for (int c = 0; c < w.c; ++c)
        for (int a = 0; a < w.d; ++a)
            for (int b = 0; b < w.h; ++b)
                for (int e = 0; e < w.w; ++e) {
                    int id = od * win.stride[0] - win.pad[0] + a * win.dil[0];
                    int ih = oh * win.stride[1] - win.pad[1] + b * win.dil[1];
                    int iw = ow * win.stride[2] - win.pad[2] + e * win.dil[2];
                    if (id < 0 || id >= x.d || ih < 0 || ih >= x.h || iw < 0 || iw >= x.w) continue;
                    acc += (A)X[at(x, n, g * w.c + c, id, ih, iw)] * (A)W[at(w, k, c, a, b, e)];
                }
    long long o = at(y, n, k, od, oh, ow);
    Y[o] = (T)(alpha * acc + (beta != A(0) ? beta * (A)Y[o] : A(0)));
}

// An output coordinate o with o * stride - pad + tap * dil == i, or -1.
__device__ int source(int i, int tap, int axis, const Window& win, int extent) {
    int t = i + win.pad[axis] - tap * win.dil[axis];
    if (t < 0 || t % win.stride[axis] != 0) return -1;
    t /= win.stride[axis];
    return t < extent ? t : -1;
}

template <typename T>
__global__ void conv_backward_data(Geo dy, Geo w, Geo dx, Window win, const T* DY, const T* W,
                                   T* DX, typename Acc<T>::type alpha,
                                   typename Acc<T>::type beta) {
    using A = typename Acc<T>::type;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= elements(dx)) return;
    int n, c, id, ih, iw;
    coords(dx, i, &n, &c, &id, &ih, &iw);
    int g = c / w.c, cw = c % w.c, per_group = dy.c / win.groups;
    A acc = 0;
    for (int k = g * per_group; k < (g + 1) * per_group; ++k)
        for (int a = 0; a < w.d; ++a)
            for (int b = 0; b < w.h; ++b)
                for (int e = 0; e < w.w; ++e) {
                    int od = source(id, a, 0, win, dy.d), oh = source(ih, b, 1, win, dy.h);
                    int ow = source(iw, e, 2, win, dy.w);
                    if (od < 0 || oh < 0 || ow < 0) continue;
                    acc += (A)DY[at(dy, n, k, od, oh, ow)] * (A)W[at(w, k, cw, a, b, e)];
                }
    long long o = at(dx, n, c, id, ih, iw);
    DX[o] = (T)(alpha * acc + (beta != A(0) ? beta * (A)DX[o] : A(0)));
}

template <typename T>
__global__ void conv_backward_weights(Geo dy, Geo x, Geo dw, Window win, const T* DY, const T* X,
                                      T* DW, typename Acc<T>::type alpha,
                                      typename Acc<T>::type beta) {
    using A = typename Acc<T>::type;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= elements(dw)) return;
    int k, c, a, b, e;
    coords(dw, i, &k, &c, &a, &b, &e);
    int g = k / (dy.c / win.groups);
    A acc = 0;
    for (int n = 0; n < dy.n; ++n)
        for (int od = 0; od < dy.d; ++od)
            for (int oh = 0; oh < dy.h; ++oh)
                for (int ow = 0; ow < dy.w; ++ow) {
                    int id = od * win.stride[0] - win.pad[0] + a * win.dil[0];
                    int ih = oh * win.stride[1] - win.pad[1] + b * win.dil[1];
                    int iw = ow * win.stride[2] - win.pad[2] + e * win.dil[2];
                    if (id < 0 || id >= x.d || ih < 0 || ih >= x.h || iw < 0 || iw >= x.w) continue;
                    acc += (A)DY[at(dy, n, k, od, oh, ow)] * (A)X[at(x, n, g * dw.c + c, id, ih, iw)];
                }
    long long o = at(dw, k, c, a, b, e);
    DW[o] = (T)(alpha * acc + (beta != A(0) ? beta * (A)DW[o] : A(0)));
}

template <typename T>
__global__ void bias_forward(Geo b, Geo y, const T* B, T* Y) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= elements(y)) return;
    int n, c, d, h, w;
    coords(y, i, &n, &c, &d, &h, &w);
    long long o = at(y, n, c, d, h, w);
    Y[o] = (T)((typename Acc<T>::type)Y[o] + (typename Acc<T>::type)B[at(b, 0, c, 0, 0, 0)]);
}

template <typename T>
__global__ void bias_backward(Geo dy, Geo db, const T* DY, T* DB) {
    using A = typename Acc<T>::type;
    int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= dy.c) return;
    A acc = 0;
    for (int n = 0; n < dy.n; ++n)
        for (int d = 0; d < dy.d; ++d)
            for (int h = 0; h < dy.h; ++h)
                for (int w = 0; w < dy.w; ++w) acc += (A)DY[at(dy, n, c, d, h, w)];
    DB[at(db, 0, c, 0, 0, 0)] = (T)acc;
}

template <typename T>
__global__ void pooling_forward(Geo x, Geo y, Window win, miopenPoolingMode_t mode, const T* X,
                                T* Y) {
    using A = typename Acc<T>::type;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= elements(y)) return;
    int n, c, od, oh, ow;
    coords(y, i, &n, &c, &od, &oh, &ow);
    int lo[3] = {od * win.stride[0] - win.pad[0], oh * win.stride[1] - win.pad[1],
                 ow * win.stride[2] - win.pad[2]};
    int ext[3] = {x.d, x.h, x.w}, hi[3];
    for (int a = 0; a < 3; ++a) {
        hi[a] = min(lo[a] + win.k[a], ext[a]);
        lo[a] = max(lo[a], 0);
    }
    A best = -INFINITY, sum = 0;
    for (int d = lo[0]; d < hi[0]; ++d)
        for (int h = lo[1]; h < hi[1]; ++h)
            for (int w = lo[2]; w < hi[2]; ++w) {
                A v = (A)X[at(x, n, c, d, h, w)];
                best = v > best ? v : best;
                sum += v;
            }
    int inside = (hi[0] - lo[0]) * (hi[1] - lo[1]) * (hi[2] - lo[2]);
    int area = win.k[0] * win.k[1] * win.k[2];
    A out = mode == miopenPoolingMax ? best
          : mode == miopenPoolingAverage ? sum / (A)inside : sum / (A)area;
    Y[at(y, n, c, od, oh, ow)] = (T)out;
}

template <typename A>
__device__ A activate(miopenActivationMode_t mode, A x, A alpha, A beta, A gamma) {
    switch (mode) {
        case miopenActivationLOGISTIC: return A(1) / (A(1) + exp(-x));
        case miopenActivationTANH: return beta * tanh(alpha * x);
        case miopenActivationRELU: return x > A(0) ? x : A(0);
        case miopenActivationSOFTRELU: return log1p(exp(x));
        case miopenActivationABS: return fabs(x);
        case miopenActivationPOWER: return pow(alpha + beta * x, gamma);
        case miopenActivationCLIPPEDRELU: return fmin(alpha, fmax(A(0), x));
        case miopenActivationLEAKYRELU: return x > A(0) ? x : alpha * x;
        case miopenActivationELU: return x > A(0) ? x : alpha * expm1(x);
        default: return x;
    }
}

template <typename T>
__global__ void activation_forward(Geo x, Geo y, miopenActivationMode_t mode, double alpha,
                                   double beta, double gamma, const T* X, T* Y) {
    using A = typename Acc<T>::type;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= elements(y)) return;
    int n, c, d, h, w;
    coords(y, i, &n, &c, &d, &h, &w);
    A v = (A)X[at(x, n, c, d, h, w)];
    Y[at(y, n, c, d, h, w)] = (T)activate<A>(mode, v, (A)alpha, (A)beta, (A)gamma);
}

// The derivative of activate() at x (y = activate(x)), times dy: MIOpen's backward formulas.
template <typename A>
__device__ A activate_backward(miopenActivationMode_t mode, A x, A y, A dy, A alpha, A beta,
                               A gamma) {
    switch (mode) {
        case miopenActivationLOGISTIC: return dy * y * (A(1) - y);
        case miopenActivationTANH: return dy * alpha * (beta - y * y / beta);
        case miopenActivationRELU: return x > A(0) ? dy : A(0);
        case miopenActivationSOFTRELU: return dy / (A(1) + exp(-x));
        case miopenActivationABS: return x > A(0) ? dy : x < A(0) ? -dy : A(0);
        case miopenActivationPOWER: return dy * gamma * beta * pow(alpha + beta * x, gamma - A(1));
        case miopenActivationCLIPPEDRELU: return x > A(0) && x <= alpha ? dy : A(0);
        case miopenActivationLEAKYRELU: return x > A(0) ? dy : alpha * dy;
        case miopenActivationELU: return x > A(0) ? dy : dy * (y + alpha);
        default: return dy;
    }
}

template <typename T>
__global__ void activation_backward(Geo y, Geo dy, Geo x, Geo dx, miopenActivationMode_t mode,
                                    double alpha, double beta, double gamma, const T* Y,
                                    const T* DY, const T* X, T* DX) {
    using A = typename Acc<T>::type;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= elements(dx)) return;
    int n, c, d, h, w;
    coords(dx, i, &n, &c, &d, &h, &w);
    A g = activate_backward<A>(mode, (A)X[at(x, n, c, d, h, w)], (A)Y[at(y, n, c, d, h, w)],
                               (A)DY[at(dy, n, c, d, h, w)], (A)alpha, (A)beta, (A)gamma);
    DX[at(dx, n, c, d, h, w)] = (T)g;
}

// One softmax row: an image (instance mode) or a spatial position of one image (channel mode).
struct SoftmaxRow {
    bool channel;
    int n;
    long long pos, spatial, len;

    __device__ long long at(const Geo& g, long long j) const {
        long long s = channel ? pos : j % spatial;
        int c = (int)(channel ? j : j / spatial);
        return ::at(g, n, c, (int)(s / (g.h * g.w)), (int)(s / g.w % g.h), (int)(s % g.w));
    }
};

// Row `row` of x for one thread, or false past the last row.
__device__ bool softmax_row(const Geo& x, bool channel, long long row, SoftmaxRow* r) {
    long long spatial = (long long)x.d * x.h * x.w;
    if (row >= (channel ? x.n * spatial : x.n)) return false;
    *r = SoftmaxRow{channel, (int)(channel ? row / spatial : row), channel ? row % spatial : 0,
                    spatial, channel ? x.c : x.c * spatial};
    return true;
}

template <typename T>
__global__ void softmax_forward(Geo x, Geo y, miopenSoftmaxAlgorithm_t algo, bool channel,
                                const T* X, T* Y, typename Acc<T>::type alpha,
                                typename Acc<T>::type beta) {
    using A = typename Acc<T>::type;
    SoftmaxRow r;
    if (!softmax_row(x, channel, (long long)blockIdx.x * blockDim.x + threadIdx.x, &r)) return;
    A top = algo == MIOPEN_SOFTMAX_FAST ? A(0) : (A)X[r.at(x, 0)];
    for (long long j = 1; j < r.len && algo != MIOPEN_SOFTMAX_FAST; ++j)
        top = fmax(top, (A)X[r.at(x, j)]);
    A sum = 0;
    for (long long j = 0; j < r.len; ++j) sum += exp((A)X[r.at(x, j)] - top);
    for (long long j = 0; j < r.len; ++j) {
        A v = (A)X[r.at(x, j)] - top;
        A out = algo == MIOPEN_SOFTMAX_LOG ? v - log(sum) : exp(v) / sum;
        long long o = r.at(y, j);
        Y[o] = (T)(alpha * out + (beta != A(0) ? beta * (A)Y[o] : A(0)));
    }
}

// dx = y * (dy - sum(dy * y)), or for log-softmax dx = dy - exp(y) * sum(dy).
template <typename T>
__global__ void softmax_backward(Geo y, Geo dy, Geo dx, miopenSoftmaxAlgorithm_t algo,
                                 bool channel, const T* Y, const T* DY, T* DX,
                                 typename Acc<T>::type alpha, typename Acc<T>::type beta) {
    using A = typename Acc<T>::type;
    SoftmaxRow r;
    if (!softmax_row(y, channel, (long long)blockIdx.x * blockDim.x + threadIdx.x, &r)) return;
    bool log_form = algo == MIOPEN_SOFTMAX_LOG;
    A dot = 0;
    for (long long j = 0; j < r.len; ++j)
        dot += (A)DY[r.at(dy, j)] * (log_form ? A(1) : (A)Y[r.at(y, j)]);
    for (long long j = 0; j < r.len; ++j) {
        A yv = (A)Y[r.at(y, j)], g = (A)DY[r.at(dy, j)];
        A out = log_form ? g - exp(yv) * dot : yv * (g - dot);
        long long o = r.at(dx, j);
        DX[o] = (T)(alpha * out + (beta != A(0) ? beta * (A)DX[o] : A(0)));
    }
}

// C = op(alpha1 * A, alpha2 * B) + beta * C, B broadcast along its dimensions of length 1.
template <typename T>
__global__ void op_tensor(Geo a, Geo b, Geo c, miopenTensorOp_t op, const T* PA, const T* PB,
                          T* PC, typename Acc<T>::type alpha1, typename Acc<T>::type alpha2,
                          typename Acc<T>::type beta) {
    using A = typename Acc<T>::type;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= elements(c)) return;
    int n, ch, d, h, w;
    coords(c, i, &n, &ch, &d, &h, &w);
    A u = alpha1 * (A)PA[at(a, n, ch, d, h, w)];
    A v = alpha2 * (A)PB[at(b, b.n > 1 ? n : 0, b.c > 1 ? ch : 0, b.d > 1 ? d : 0,
                            b.h > 1 ? h : 0, b.w > 1 ? w : 0)];
    A r = op == miopenTensorOpAdd ? u + v : op == miopenTensorOpMul ? u * v
        : op == miopenTensorOpMin ? fmin(u, v) : fmax(u, v);
    long long o = at(c, n, ch, d, h, w);
    PC[o] = (T)(r + (beta != A(0) ? beta * (A)PC[o] : A(0)));
}

template <typename T>
__global__ void batchnorm_inference(Geo x, Geo y, Geo p, bool spatial, const T* X, T* Y,
                                    const T* scale, const T* bias, const T* mean, const T* var,
                                    double epsilon) {
    using A = typename Acc<T>::type;
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= elements(y)) return;
    int n, c, d, h, w;
    coords(y, i, &n, &c, &d, &h, &w);
    long long q = spatial ? at(p, 0, c, 0, 0, 0) : at(p, 0, c, d, h, w);
    A inv = A(1) / sqrt((A)var[q] + (A)epsilon);
    A v = ((A)X[at(x, n, c, d, h, w)] - (A)mean[q]) * inv;
    Y[at(y, n, c, d, h, w)] = (T)((A)scale[q] * v + (A)bias[q]);
}

// Batch-norm statistics slots: a channel (spatial mode) or a (c, d, h, w) position (per
// activation); its members are the elements normalised together.
struct BnSlots {
    bool spatial;
    long long sp;  // d * h * w

    __host__ __device__ long long count(const Geo& x) const { return spatial ? x.c : x.c * sp; }
    __host__ __device__ long long members(const Geo& x) const { return spatial ? x.n * sp : x.n; }
    // member m of slot q -> its coordinates
    __device__ void member(const Geo& x, long long q, long long m, int* n, int* c, int* d, int* h,
                           int* w) const {
        long long s = spatial ? m % sp : q % sp;
        *n = (int)(spatial ? m / sp : m);
        *c = (int)(spatial ? q : q / sp);
        *d = (int)(s / (x.h * x.w)), *h = (int)(s / x.w % x.h), *w = (int)(s % x.w);
    }
    __device__ long long param(const Geo& p, const Geo& x, long long q) const {
        int n, c, d, h, w;
        member(x, q, 0, &n, &c, &d, &h, &w);
        return spatial ? at(p, 0, c, 0, 0, 0) : at(p, 0, c, d, h, w);
    }
};

// Mean and biased variance of slot q (two passes).
template <typename T, typename A>
__device__ void bn_moments(const Geo& x, const BnSlots& slots, long long q, const T* X, A* mean,
                           A* var) {
    long long count = slots.members(x);
    int n, c, d, h, w;
    A sum = 0, sq = 0;
    for (long long m = 0; m < count; ++m) {
        slots.member(x, q, m, &n, &c, &d, &h, &w);
        sum += (A)X[at(x, n, c, d, h, w)];
    }
    *mean = sum / (A)(int)count;  // via int: a 64-bit integer -> float conversion compiles to s_cls_i32, which the emulator lacks
    for (long long m = 0; m < count; ++m) {
        slots.member(x, q, m, &n, &c, &d, &h, &w);
        A e = (A)X[at(x, n, c, d, h, w)] - *mean;
        sq += e * e;
    }
    *var = sq / (A)(int)count;
}

template <typename T>
__global__ void batchnorm_training(Geo x, Geo y, Geo p, BnSlots slots, const T* X, T* Y,
                                   const T* scale, const T* bias, double factor, T* run_mean,
                                   T* run_var, double epsilon, T* save_mean, T* save_inv) {
    using A = typename Acc<T>::type;
    long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= slots.count(x)) return;
    A mean, var;
    bn_moments(x, slots, q, X, &mean, &var);
    A inv = A(1) / sqrt(var + (A)epsilon);
    long long k = slots.param(p, x, q), count = slots.members(x);
    int n, c, d, h, w;
    for (long long m = 0; m < count; ++m) {
        slots.member(x, q, m, &n, &c, &d, &h, &w);
        A v = ((A)X[at(x, n, c, d, h, w)] - mean) * inv;
        Y[at(y, n, c, d, h, w)] = (T)((A)scale[k] * v + (A)bias[k]);
    }
    if (run_mean && run_var) {  // the running variance is the unbiased one, as cuDNN's and MIOpen's
        A unbiased = count > 1 ? var * (A)(int)count / (A)(int)(count - 1) : var;
        run_mean[k] = (T)((A(1) - (A)factor) * (A)run_mean[k] + (A)factor * mean);
        run_var[k] = (T)((A(1) - (A)factor) * (A)run_var[k] + (A)factor * unbiased);
    }
    if (save_mean && save_inv) {
        save_mean[k] = (T)mean;
        save_inv[k] = (T)inv;
    }
}

template <typename T>
__global__ void batchnorm_backward(Geo x, Geo dy, Geo dx, Geo p, BnSlots slots, const T* X,
                                   const T* DY, T* DX, const T* scale, T* dscale, T* dbias,
                                   double epsilon, const T* saved_mean, const T* saved_inv) {
    using A = typename Acc<T>::type;
    long long q = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (q >= slots.count(x)) return;
    long long k = slots.param(p, x, q), count = slots.members(x);
    A mean, inv;
    if (saved_mean && saved_inv) {
        mean = (A)saved_mean[k];
        inv = (A)saved_inv[k];
    } else {
        A var;
        bn_moments(x, slots, q, X, &mean, &var);
        inv = A(1) / sqrt(var + (A)epsilon);
    }
    int n, c, d, h, w;
    A sum_dy = 0, sum_dy_xhat = 0;
    for (long long m = 0; m < count; ++m) {
        slots.member(x, q, m, &n, &c, &d, &h, &w);
        A g = (A)DY[at(dy, n, c, d, h, w)];
        sum_dy += g;
        sum_dy_xhat += g * ((A)X[at(x, n, c, d, h, w)] - mean) * inv;
    }
    for (long long m = 0; m < count; ++m) {
        slots.member(x, q, m, &n, &c, &d, &h, &w);
        A xhat = ((A)X[at(x, n, c, d, h, w)] - mean) * inv;
        A g = (A)DY[at(dy, n, c, d, h, w)];
        DX[at(dx, n, c, d, h, w)] =
            (T)((A)scale[k] * inv * (g - (sum_dy + xhat * sum_dy_xhat) / (A)(int)count));
    }
    dscale[k] = (T)sum_dy_xhat;
    dbias[k] = (T)sum_dy;
}

template <typename T>
__global__ void fill_or_scale(Geo y, T* Y, double value, bool scale) {
    long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= elements(y)) return;
    int n, c, d, h, w;
    coords(y, i, &n, &c, &d, &h, &w);
    long long o = at(y, n, c, d, h, w);
    using A = typename Acc<T>::type;
    Y[o] = scale ? (T)((A)Y[o] * (A)value) : (T)value;
}

// ------------------------------------------------------------------ checks

bool same_shape(const miopenTensorDescriptor* a, const miopenTensorDescriptor* b) {
    if (a->nd != b->nd || a->type != b->type) return false;
    for (int i = 0; i < a->nd; ++i)
        if (a->dims[i] != b->dims[i]) return false;
    return true;
}

bool is_set(const miopenTensorDescriptor* t) { return t != nullptr && t->nd >= 3; }

// The output dimensions of convolving x with w (MIOpen's default padding mode), or false.
bool conv_output(const miopenConvolutionDescriptor* c, const miopenTensorDescriptor* x,
                 const miopenTensorDescriptor* w, int* out) {
    if (!c || !is_set(x) || !is_set(w) || x->nd != w->nd || x->nd != c->spatial + 2) return false;
    if (c->groups < 1 || x->dims[1] != w->dims[1] * c->groups || w->dims[0] % c->groups) return false;
    out[0] = x->dims[0];
    out[1] = w->dims[0];
    for (int i = 0; i < c->spatial; ++i) {
        int reach = c->dilation[i] * (w->dims[2 + i] - 1) + 1;
        int span = x->dims[2 + i] + 2 * c->pad[i] - reach;
        if (span < 0) return false;
        out[2 + i] = span / c->stride[i] + 1;
    }
    return true;
}

// Why a convolution (x, w -> y) cannot run here ("" when it can), and the status it gets.
const char* conv_problem(const miopenConvolutionDescriptor* c, const miopenTensorDescriptor* x,
                         const miopenTensorDescriptor* w, const miopenTensorDescriptor* y,
                         miopenStatus_t* status) {
    *status = miopenStatusNotImplemented;
    if (c && c->mode != miopenConvolution)
        return "only miopenConvolution (cross-correlation) is covered here, not transposed convolution";
    *status = miopenStatusBadParm;
    int out[kMaxDims];
    if (!conv_output(c, x, w, out))
        return "the input, filter and convolution descriptors do not fit together";
    if (!is_set(y) || y->nd != x->nd || x->type != w->type || x->type != y->type)
        return "the output descriptor does not fit the input";
    for (int i = 0; i < y->nd; ++i)
        if (y->dims[i] != out[i]) return "the output dimensions are not the convolution's";
    return "";
}

const char* scaling_problem(const miopenConvolutionDescriptor* c, double alpha, double beta) {
    return c->spatial == 2 && (alpha != 1.0 || beta != 0.0)
               ? "MIOpen supports only alpha = 1 and beta = 0 for 2-D convolutions"
               : "";
}

}  // namespace

// ------------------------------------------------------------------ handle

extern "C" const char* miopenGetErrorString(miopenStatus_t error) {
    switch (error) {
        case miopenStatusSuccess: return "miopenStatusSuccess";
        case miopenStatusNotInitialized: return "miopenStatusNotInitialized";
        case miopenStatusInvalidValue: return "miopenStatusInvalidValue";
        case miopenStatusBadParm: return "miopenStatusBadParm";
        case miopenStatusAllocFailed: return "miopenStatusAllocFailed";
        case miopenStatusInternalError: return "miopenStatusInternalError";
        case miopenStatusNotImplemented: return "miopenStatusNotImplemented";
        case miopenStatusUnknownError: return "miopenStatusUnknownError";
        case miopenStatusUnsupportedOp: return "miopenStatusUnsupportedOp";
        case miopenStatusGpuOperationsSkipped: return "miopenStatusGpuOperationsSkipped";
        case miopenStatusVersionMismatch: return "miopenStatusVersionMismatch";
    }
    return "Unknown error status";
}

extern "C" miopenStatus_t miopenCreate(miopenHandle_t* handle) {
    return miopenCreateWithStream(handle, nullptr);
}

extern "C" miopenStatus_t miopenCreateWithStream(miopenHandle_t* handle,
                                                 miopenAcceleratorQueue_t stream) {
    if (!handle) return miopenStatusBadParm;
    *handle = new (std::nothrow) miopenHandle{stream};
    return *handle ? miopenStatusSuccess : miopenStatusAllocFailed;
}

extern "C" miopenStatus_t miopenDestroy(miopenHandle_t handle) {
    delete handle;
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenSetStream(miopenHandle_t handle, miopenAcceleratorQueue_t id) {
    if (!handle) return miopenStatusBadParm;
    handle->stream = id;
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenGetStream(miopenHandle_t handle, miopenAcceleratorQueue_t* id) {
    if (!handle || !id) return miopenStatusBadParm;
    *id = handle->stream;
    return miopenStatusSuccess;
}

// ------------------------------------------------------------------ tensors

extern "C" miopenStatus_t miopenCreateTensorDescriptor(miopenTensorDescriptor_t* desc) {
    if (!desc) return miopenStatusBadParm;
    *desc = new (std::nothrow) miopenTensorDescriptor();
    return *desc ? miopenStatusSuccess : miopenStatusAllocFailed;
}

extern "C" miopenStatus_t miopenSetTensorDescriptor(miopenTensorDescriptor_t desc,
                                                    miopenDataType_t type, int nbDims,
                                                    const int* dimsA, const int* stridesA) {
    const char* call = "miopenSetTensorDescriptor";
    if (!desc || !dimsA || nbDims < 1) return refuse(miopenStatusBadParm, call, "no dimensions");
    if (nbDims < 3 || nbDims > kMaxDims)
        return refuse(miopenStatusNotImplemented, call, "only 3-5 dimensions (N, C, 1-3 spatial) are covered here");
    if (!supported_type(type))
        return refuse(miopenStatusNotImplemented, call, "data type not covered (half, float, double)");
    for (int i = 0; i < nbDims; ++i)
        if (dimsA[i] <= 0 || (stridesA && stridesA[i] <= 0))
            return refuse(miopenStatusBadParm, call, "dimensions and strides must be positive");
    desc->type = type;
    desc->nd = nbDims;
    for (int i = 0; i < nbDims; ++i) desc->dims[i] = dimsA[i];
    if (stridesA) {
        for (int i = 0; i < nbDims; ++i) desc->strides[i] = stridesA[i];
    } else {
        packed_strides(desc);
    }
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenSet4dTensorDescriptor(miopenTensorDescriptor_t desc,
                                                      miopenDataType_t type, int n, int c, int h,
                                                      int w) {
    int dims[4] = {n, c, h, w};
    return miopenSetTensorDescriptor(desc, type, 4, dims, nullptr);
}

extern "C" miopenStatus_t miopenSet4dTensorDescriptorEx(miopenTensorDescriptor_t desc,
                                                        miopenDataType_t type, int n, int c,
                                                        int h, int w, int nStride, int cStride,
                                                        int hStride, int wStride) {
    int dims[4] = {n, c, h, w}, strides[4] = {nStride, cStride, hStride, wStride};
    return miopenSetTensorDescriptor(desc, type, 4, dims, strides);
}

extern "C" miopenStatus_t miopenGet4dTensorDescriptor(miopenTensorDescriptor_t desc,
                                                      miopenDataType_t* type, int* n, int* c,
                                                      int* h, int* w, int* nStride, int* cStride,
                                                      int* hStride, int* wStride) {
    if (!desc || desc->nd != 4) return miopenStatusBadParm;
    *type = desc->type;
    int* dims[4] = {n, c, h, w};
    int* strides[4] = {nStride, cStride, hStride, wStride};
    for (int i = 0; i < 4; ++i) {
        *dims[i] = desc->dims[i];
        *strides[i] = desc->strides[i];
    }
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenGetTensorDescriptorSize(miopenTensorDescriptor_t desc, int* size) {
    if (!desc || !size) return miopenStatusBadParm;
    *size = desc->nd;
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenGetTensorDescriptor(miopenTensorDescriptor_t desc,
                                                    miopenDataType_t* type, int* dimsA,
                                                    int* stridesA) {
    if (!desc) return miopenStatusBadParm;
    if (type) *type = desc->type;
    for (int i = 0; i < desc->nd; ++i) {
        if (dimsA) dimsA[i] = desc->dims[i];
        if (stridesA) stridesA[i] = desc->strides[i];
    }
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenGetTensorNumBytes(miopenTensorDescriptor_t desc, size_t* bytes) {
    if (!is_set(desc) || !bytes) return miopenStatusBadParm;
    size_t last = 0;  // the element furthest from the start, as MIOpen's GetElementSpace
    for (int i = 0; i < desc->nd; ++i) last += (size_t)(desc->dims[i] - 1) * desc->strides[i];
    *bytes = (last + 1) * type_size(desc->type);
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenDestroyTensorDescriptor(miopenTensorDescriptor_t desc) {
    delete desc;
    return miopenStatusSuccess;
}

static miopenStatus_t fill(miopenHandle_t handle, const miopenTensorDescriptor_t yDesc, void* y,
                           const void* alpha, bool scale, const char* call) {
    if (!handle || !is_set(yDesc) || !y || !alpha)
        return refuse(miopenStatusBadParm, call, "a null handle, descriptor or pointer");
    Geo g = geo(yDesc);
    double value = scalar(alpha, yDesc->type);
    return by_type(yDesc->type, call, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        hipLaunchKernelGGL(fill_or_scale<T>, dim3(blocks(elements(g))), dim3(kThreads), 0,
                           handle->stream, g, static_cast<T*>(y), value, scale);
    });
}

extern "C" miopenStatus_t miopenSetTensor(miopenHandle_t handle,
                                          const miopenTensorDescriptor_t yDesc, void* y,
                                          const void* alpha) {
    return fill(handle, yDesc, y, alpha, false, "miopenSetTensor");
}

extern "C" miopenStatus_t miopenScaleTensor(miopenHandle_t handle,
                                            const miopenTensorDescriptor_t yDesc, void* y,
                                            const void* alpha) {
    return fill(handle, yDesc, y, alpha, true, "miopenScaleTensor");
}

extern "C" miopenStatus_t miopenOpTensor(miopenHandle_t handle, miopenTensorOp_t tensorOp,
                                         const void* alpha1, const miopenTensorDescriptor_t aDesc,
                                         const void* A, const void* alpha2,
                                         const miopenTensorDescriptor_t bDesc, const void* B,
                                         const void* beta, const miopenTensorDescriptor_t cDesc,
                                         void* C) {
    const char* call = "miopenOpTensor";
    if (!handle || !alpha1 || !alpha2 || !beta || !A || !B || !C || !is_set(aDesc) ||
        !is_set(bDesc) || !same_shape(aDesc, cDesc) || bDesc->nd != cDesc->nd ||
        bDesc->type != cDesc->type)
        return refuse(miopenStatusBadParm, call, "A and C must match, B have C's rank and type");
    for (int i = 0; i < cDesc->nd; ++i)
        if (bDesc->dims[i] != 1 && bDesc->dims[i] != cDesc->dims[i])
            return refuse(miopenStatusBadParm, call, "each dimension of B must be C's or 1");
    if (tensorOp < miopenTensorOpAdd || tensorOp > miopenTensorOpMax)
        return refuse(miopenStatusBadParm, call, "not a tensor operation");
    Geo ga = geo(aDesc), gb = geo(bDesc), gc = geo(cDesc);
    miopenDataType_t t = cDesc->type;
    double a1 = scalar(alpha1, t), a2 = scalar(alpha2, t), be = scalar(beta, t);
    return by_type(t, call, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        using Ac = typename Acc<T>::type;
        hipLaunchKernelGGL(op_tensor<T>, dim3(blocks(elements(gc))), dim3(kThreads), 0,
                           handle->stream, ga, gb, gc, tensorOp, static_cast<const T*>(A),
                           static_cast<const T*>(B), static_cast<T*>(C), (Ac)a1, (Ac)a2, (Ac)be);
    });
}

// ------------------------------------------------------------------ convolution

extern "C" miopenStatus_t miopenCreateConvolutionDescriptor(miopenConvolutionDescriptor_t* desc) {
    if (!desc) return miopenStatusBadParm;
    *desc = new (std::nothrow) miopenConvolutionDescriptor();
    return *desc ? miopenStatusSuccess : miopenStatusAllocFailed;
}

extern "C" miopenStatus_t miopenInitConvolutionNdDescriptor(miopenConvolutionDescriptor_t desc,
                                                            int spatialDim, const int* padA,
                                                            const int* strideA,
                                                            const int* dilationA,
                                                            miopenConvolutionMode_t c_mode) {
    const char* call = "miopenInitConvolutionNdDescriptor";
    if (!desc || !padA || !strideA || !dilationA || spatialDim < 1)
        return refuse(miopenStatusBadParm, call, "a null descriptor or array");
    if (spatialDim > 3)
        return refuse(miopenStatusNotImplemented, call, "only 1-3 spatial dimensions are covered here");
    for (int i = 0; i < spatialDim; ++i)
        if (padA[i] < 0 || strideA[i] < 1 || dilationA[i] < 1)
            return refuse(miopenStatusBadParm, call, "padding must be >= 0, stride and dilation >= 1");
    desc->mode = c_mode;
    desc->spatial = spatialDim;
    for (int i = 0; i < spatialDim; ++i) {
        desc->pad[i] = padA[i];
        desc->stride[i] = strideA[i];
        desc->dilation[i] = dilationA[i];
    }
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenInitConvolutionDescriptor(miopenConvolutionDescriptor_t desc,
                                                          miopenConvolutionMode_t c_mode,
                                                          int pad_h, int pad_w, int stride_h,
                                                          int stride_w, int dilation_h,
                                                          int dilation_w) {
    int pad[2] = {pad_h, pad_w}, stride[2] = {stride_h, stride_w};
    int dilation[2] = {dilation_h, dilation_w};
    return miopenInitConvolutionNdDescriptor(desc, 2, pad, stride, dilation, c_mode);
}

extern "C" miopenStatus_t miopenGetConvolutionDescriptor(miopenConvolutionDescriptor_t desc,
                                                         miopenConvolutionMode_t* c_mode,
                                                         int* pad_h, int* pad_w, int* stride_h,
                                                         int* stride_w, int* dilation_h,
                                                         int* dilation_w) {
    if (!desc || desc->spatial != 2) return miopenStatusBadParm;
    *c_mode = desc->mode;
    *pad_h = desc->pad[0], *pad_w = desc->pad[1];
    *stride_h = desc->stride[0], *stride_w = desc->stride[1];
    *dilation_h = desc->dilation[0], *dilation_w = desc->dilation[1];
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenGetConvolutionGroupCount(miopenConvolutionDescriptor_t desc,
                                                         int* groupCount) {
    if (!desc || !groupCount) return miopenStatusBadParm;
    *groupCount = desc->groups;
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenSetConvolutionGroupCount(miopenConvolutionDescriptor_t desc,
                                                         int groupCount) {
    if (!desc || groupCount < 1) return miopenStatusBadParm;
    desc->groups = groupCount;
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenGetConvolutionNdForwardOutputDim(
    miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t xDesc,
    const miopenTensorDescriptor_t wDesc, int* nDim, int* outputTensorDimA) {
    int out[kMaxDims];
    if (!nDim || !outputTensorDimA || !conv_output(convDesc, xDesc, wDesc, out))
        return refuse(miopenStatusBadParm, "miopenGetConvolutionNdForwardOutputDim",
                      "the input, filter and convolution descriptors do not fit together");
    *nDim = xDesc->nd;
    for (int i = 0; i < xDesc->nd; ++i) outputTensorDimA[i] = out[i];
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenGetConvolutionForwardOutputDim(
    miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t xDesc,
    const miopenTensorDescriptor_t wDesc, int* n, int* c, int* h, int* w) {
    int out[kMaxDims];
    if (!n || !c || !h || !w || !conv_output(convDesc, xDesc, wDesc, out) || xDesc->nd != 4)
        return refuse(miopenStatusBadParm, "miopenGetConvolutionForwardOutputDim",
                      "the 4-d input, filter and 2-d convolution descriptors do not fit together");
    *n = out[0], *c = out[1], *h = out[2], *w = out[3];
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenDestroyConvolutionDescriptor(miopenConvolutionDescriptor_t desc) {
    delete desc;
    return miopenStatusSuccess;
}

// The three directions differ in which tensors play x, w and y; all check the same problem.
static miopenStatus_t workspace(miopenHandle_t handle, const miopenConvolutionDescriptor_t conv,
                                const miopenTensorDescriptor_t x, const miopenTensorDescriptor_t w,
                                const miopenTensorDescriptor_t y, size_t* size, const char* call) {
    miopenStatus_t status;
    const char* problem = handle && size ? conv_problem(conv, x, w, y, &status) : "a null pointer";
    if (!handle || !size) status = miopenStatusBadParm;
    if (*problem) return refuse(status, call, problem);
    *size = 0;  // the direct kernels here need no workspace
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenConvolutionForwardGetWorkSpaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t wDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t yDesc, size_t* size) {
    return workspace(handle, convDesc, xDesc, wDesc, yDesc, size,
                     "miopenConvolutionForwardGetWorkSpaceSize");
}

extern "C" miopenStatus_t miopenConvolutionBackwardDataGetWorkSpaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t wDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dxDesc, size_t* size) {
    return workspace(handle, convDesc, dxDesc, wDesc, dyDesc, size,
                     "miopenConvolutionBackwardDataGetWorkSpaceSize");
}

extern "C" miopenStatus_t miopenConvolutionBackwardWeightsGetWorkSpaceSize(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc,
    const miopenTensorDescriptor_t xDesc, const miopenConvolutionDescriptor_t convDesc,
    const miopenTensorDescriptor_t dwDesc, size_t* size) {
    return workspace(handle, convDesc, xDesc, dwDesc, dyDesc, size,
                     "miopenConvolutionBackwardWeightsGetWorkSpaceSize");
}

// A find step: one result, the direct algorithm (0 ms, no workspace); nothing is computed.
static miopenStatus_t find(miopenHandle_t handle, const miopenConvolutionDescriptor_t conv,
                          const miopenTensorDescriptor_t x, const miopenTensorDescriptor_t w,
                          const miopenTensorDescriptor_t y, int request, int* returned,
                          miopenConvAlgoPerf_t* perf, const char* call) {
    size_t unused;
    miopenStatus_t status = workspace(handle, conv, x, w, y, &unused, call);
    if (status != miopenStatusSuccess) return status;
    if (request < 1 || !returned || !perf)
        return refuse(miopenStatusBadParm, call, "requestAlgoCount < 1 or a null result pointer");
    *returned = 1;
    perf[0] = miopenConvAlgoPerf_t{};
    perf[0].fwd_algo = miopenConvolutionFwdAlgoDirect;  // Direct is 1 in all three enums
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenFindConvolutionForwardAlgorithm(
    miopenHandle_t handle, const miopenTensorDescriptor_t xDesc, const void*,
    const miopenTensorDescriptor_t wDesc, const void*,
    const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t yDesc, void*,
    const int requestAlgoCount, int* returnedAlgoCount, miopenConvAlgoPerf_t* perfResults, void*,
    size_t, bool) {
    return find(handle, convDesc, xDesc, wDesc, yDesc, requestAlgoCount, returnedAlgoCount,
                perfResults, "miopenFindConvolutionForwardAlgorithm");
}

extern "C" miopenStatus_t miopenFindConvolutionBackwardDataAlgorithm(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const void*,
    const miopenTensorDescriptor_t wDesc, const void*,
    const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dxDesc, void*,
    const int requestAlgoCount, int* returnedAlgoCount, miopenConvAlgoPerf_t* perfResults, void*,
    size_t, bool) {
    return find(handle, convDesc, dxDesc, wDesc, dyDesc, requestAlgoCount, returnedAlgoCount,
                perfResults, "miopenFindConvolutionBackwardDataAlgorithm");
}

extern "C" miopenStatus_t miopenFindConvolutionBackwardWeightsAlgorithm(
    miopenHandle_t handle, const miopenTensorDescriptor_t dyDesc, const void*,
    const miopenTensorDescriptor_t xDesc, const void*,
    const miopenConvolutionDescriptor_t convDesc, const miopenTensorDescriptor_t dwDesc, void*,
    const int requestAlgoCount, int* returnedAlgoCount, miopenConvAlgoPerf_t* perfResults, void*,
    size_t, bool) {
    return find(handle, convDesc, xDesc, dwDesc, dyDesc, requestAlgoCount, returnedAlgoCount,
                perfResults, "miopenFindConvolutionBackwardWeightsAlgorithm");
}

enum class Direction { forward, data, weights };

// Run one convolution direction: x, w, y name the problem's tensors (the same in every
// direction); a, b are the two inputs and out the output of this direction.
static miopenStatus_t convolve(Direction dir, miopenHandle_t handle, const void* alpha,
                               const void* beta, const miopenConvolutionDescriptor_t conv,
                               const miopenTensorDescriptor_t x, const miopenTensorDescriptor_t w,
                               const miopenTensorDescriptor_t y, const void* a, const void* b,
                               void* out, const char* call) {
    if (!handle || !alpha || !beta || !a || !b || !out)
        return refuse(miopenStatusBadParm, call, "a null handle, scaling factor or tensor");
    miopenStatus_t status;
    const char* problem = conv_problem(conv, x, w, y, &status);
    if (*problem) return refuse(status, call, problem);
    double al = scalar(alpha, x->type), be = scalar(beta, x->type);
    if (*scaling_problem(conv, al, be))
        return refuse(miopenStatusNotImplemented, call, scaling_problem(conv, al, be));
    Geo gx = geo(x), gw = geo(w), gy = geo(y);
    Window win = conv_window(conv, w);
    hipStream_t s = handle->stream;
    return by_type(x->type, call, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        using A = typename Acc<T>::type;
        auto A_ = static_cast<const T*>(a);
        auto B_ = static_cast<const T*>(b);
        auto O = static_cast<T*>(out);
        if (dir == Direction::forward)
            hipLaunchKernelGGL(conv_forward<T>, dim3(blocks(elements(gy))), dim3(kThreads), 0, s,
                               gx, gw, gy, win, A_, B_, O, (A)al, (A)be);
        else if (dir == Direction::data)
            hipLaunchKernelGGL(conv_backward_data<T>, dim3(blocks(elements(gx))), dim3(kThreads),
                               0, s, gy, gw, gx, win, A_, B_, O, (A)al, (A)be);
        else
            hipLaunchKernelGGL(conv_backward_weights<T>, dim3(blocks(elements(gw))),
                               dim3(kThreads), 0, s, gy, gx, gw, win, A_, B_, O, (A)al, (A)be);
    });
}

extern "C" miopenStatus_t miopenConvolutionForward(
    miopenHandle_t handle, const void* alpha, const miopenTensorDescriptor_t xDesc, const void* x,
    const miopenTensorDescriptor_t wDesc, const void* w,
    const miopenConvolutionDescriptor_t convDesc, miopenConvFwdAlgorithm_t, const void* beta,
    const miopenTensorDescriptor_t yDesc, void* y, void*, size_t) {
    return convolve(Direction::forward, handle, alpha, beta, convDesc, xDesc, wDesc, yDesc, x, w,
                    y, "miopenConvolutionForward");
}

extern "C" miopenStatus_t miopenConvolutionBackwardData(
    miopenHandle_t handle, const void* alpha, const miopenTensorDescriptor_t dyDesc,
    const void* dy, const miopenTensorDescriptor_t wDesc, const void* w,
    const miopenConvolutionDescriptor_t convDesc, miopenConvBwdDataAlgorithm_t, const void* beta,
    const miopenTensorDescriptor_t dxDesc, void* dx, void*, size_t) {
    return convolve(Direction::data, handle, alpha, beta, convDesc, dxDesc, wDesc, dyDesc, dy, w,
                    dx, "miopenConvolutionBackwardData");
}

extern "C" miopenStatus_t miopenConvolutionBackwardWeights(
    miopenHandle_t handle, const void* alpha, const miopenTensorDescriptor_t dyDesc,
    const void* dy, const miopenTensorDescriptor_t xDesc, const void* x,
    const miopenConvolutionDescriptor_t convDesc, miopenConvBwdWeightsAlgorithm_t,
    const void* beta, const miopenTensorDescriptor_t dwDesc, void* dw, void*, size_t) {
    return convolve(Direction::weights, handle, alpha, beta, convDesc, xDesc, dwDesc, dyDesc, dy,
                    x, dw, "miopenConvolutionBackwardWeights");
}

// A bias tensor for y: 1 x C x 1 ... of y's type.
static bool bias_fits(const miopenTensorDescriptor_t b, const miopenTensorDescriptor_t y) {
    if (!is_set(b) || !is_set(y) || b->nd != y->nd || b->type != y->type) return false;
    for (int i = 0; i < b->nd; ++i)
        if (b->dims[i] != (i == 1 ? y->dims[1] : 1)) return false;
    return true;
}

static const char* unit_scaling(const void* alpha, const void* beta, miopenDataType_t type) {
    if (!alpha || !beta) return "a null scaling factor";
    return scalar(alpha, type) != 1.0 || scalar(beta, type) != 0.0
               ? "MIOpen supports only alpha = 1 and beta = 0 here"
               : "";
}

extern "C" miopenStatus_t miopenConvolutionForwardBias(miopenHandle_t handle, const void* alpha,
                                                       const miopenTensorDescriptor_t bDesc,
                                                       const void* b, const void* beta,
                                                       const miopenTensorDescriptor_t yDesc,
                                                       void* y) {
    const char* call = "miopenConvolutionForwardBias";
    if (!handle || !b || !y || !bias_fits(bDesc, yDesc))
        return refuse(miopenStatusBadParm, call, "the bias must be 1 x C x 1 x 1 of y's type");
    if (*unit_scaling(alpha, beta, yDesc->type))
        return refuse(miopenStatusNotImplemented, call, unit_scaling(alpha, beta, yDesc->type));
    Geo gb = geo(bDesc), gy = geo(yDesc);
    return by_type(yDesc->type, call, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        hipLaunchKernelGGL(bias_forward<T>, dim3(blocks(elements(gy))), dim3(kThreads), 0,
                           handle->stream, gb, gy, static_cast<const T*>(b), static_cast<T*>(y));
    });
}

extern "C" miopenStatus_t miopenConvolutionBackwardBias(miopenHandle_t handle, const void* alpha,
                                                        const miopenTensorDescriptor_t dyDesc,
                                                        const void* dy, const void* beta,
                                                        const miopenTensorDescriptor_t dbDesc,
                                                        void* db) {
    const char* call = "miopenConvolutionBackwardBias";
    if (!handle || !dy || !db || !bias_fits(dbDesc, dyDesc))
        return refuse(miopenStatusBadParm, call, "db must be 1 x C x 1 x 1 of dy's type");
    if (*unit_scaling(alpha, beta, dyDesc->type))
        return refuse(miopenStatusNotImplemented, call, unit_scaling(alpha, beta, dyDesc->type));
    Geo gdy = geo(dyDesc), gdb = geo(dbDesc);
    return by_type(dyDesc->type, call, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        hipLaunchKernelGGL(bias_backward<T>, dim3(blocks(gdy.c)), dim3(kThreads), 0,
                           handle->stream, gdy, gdb, static_cast<const T*>(dy),
                           static_cast<T*>(db));
    });
}

// ------------------------------------------------------------------ pooling

extern "C" miopenStatus_t miopenCreatePoolingDescriptor(miopenPoolingDescriptor_t* desc) {
    if (!desc) return miopenStatusBadParm;
    *desc = new (std::nothrow) miopenPoolingDescriptor();
    return *desc ? miopenStatusSuccess : miopenStatusAllocFailed;
}

extern "C" miopenStatus_t miopenSetNdPoolingDescriptor(miopenPoolingDescriptor_t desc,
                                                       const miopenPoolingMode_t mode, int nbDims,
                                                       const int* windowDimA, const int* padA,
                                                       const int* stridesA) {
    const char* call = "miopenSetNdPoolingDescriptor";
    if (!desc || !windowDimA || !padA || !stridesA || nbDims < 1)
        return refuse(miopenStatusBadParm, call, "a null descriptor or array");
    if (nbDims > 3) return refuse(miopenStatusNotImplemented, call, "only 1-3 spatial dimensions are covered here");
    if (mode != miopenPoolingMax && mode != miopenPoolingAverage && mode != miopenPoolingAverageInclusive)
        return refuse(miopenStatusBadParm, call, "not a pooling mode");
    for (int i = 0; i < nbDims; ++i)
        if (windowDimA[i] < 1 || padA[i] < 0 || stridesA[i] < 1)
            return refuse(miopenStatusBadParm, call, "window and stride must be >= 1, padding >= 0");
    desc->mode = mode;
    desc->spatial = nbDims;
    for (int i = 0; i < nbDims; ++i) {
        desc->window[i] = windowDimA[i];
        desc->pad[i] = padA[i];
        desc->stride[i] = stridesA[i];
    }
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenSet2dPoolingDescriptor(miopenPoolingDescriptor_t desc,
                                                       miopenPoolingMode_t mode, int windowHeight,
                                                       int windowWidth, int pad_h, int pad_w,
                                                       int stride_h, int stride_w) {
    int window[2] = {windowHeight, windowWidth}, pad[2] = {pad_h, pad_w};
    int stride[2] = {stride_h, stride_w};
    return miopenSetNdPoolingDescriptor(desc, mode, 2, window, pad, stride);
}

extern "C" miopenStatus_t miopenGet2dPoolingDescriptor(const miopenPoolingDescriptor_t desc,
                                                       miopenPoolingMode_t* mode,
                                                       int* windowHeight, int* windowWidth,
                                                       int* pad_h, int* pad_w, int* stride_h,
                                                       int* stride_w) {
    if (!desc || desc->spatial != 2) return miopenStatusBadParm;
    *mode = desc->mode;
    *windowHeight = desc->window[0], *windowWidth = desc->window[1];
    *pad_h = desc->pad[0], *pad_w = desc->pad[1];
    *stride_h = desc->stride[0], *stride_w = desc->stride[1];
    return miopenStatusSuccess;
}

// The pooled dimensions of x (MIOpen's default padding: max(1, (in + 2 pad - window) / stride + 1)).
static bool pool_output(const miopenPoolingDescriptor_t p, const miopenTensorDescriptor_t x,
                        int* out) {
    if (!p || !is_set(x) || x->nd != p->spatial + 2) return false;
    out[0] = x->dims[0], out[1] = x->dims[1];
    for (int i = 0; i < p->spatial; ++i) {
        int span = (x->dims[2 + i] + 2 * p->pad[i] - p->window[i]) / p->stride[i] + 1;
        out[2 + i] = span > 1 ? span : 1;
    }
    return true;
}

extern "C" miopenStatus_t miopenGetPoolingNdForwardOutputDim(const miopenPoolingDescriptor_t desc,
                                                             const miopenTensorDescriptor_t x,
                                                             int dims, int* tensorDimArr) {
    int out[kMaxDims];
    if (!tensorDimArr || !pool_output(desc, x, out) || dims != x->nd)
        return refuse(miopenStatusBadParm, "miopenGetPoolingNdForwardOutputDim",
                      "the pooling and tensor descriptors do not fit together");
    for (int i = 0; i < dims; ++i) tensorDimArr[i] = out[i];
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenGetPoolingForwardOutputDim(const miopenPoolingDescriptor_t desc,
                                                           const miopenTensorDescriptor_t x,
                                                           int* n, int* c, int* h, int* w) {
    int out[kMaxDims];
    if (!n || !c || !h || !w || !pool_output(desc, x, out) || x->nd != 4)
        return refuse(miopenStatusBadParm, "miopenGetPoolingForwardOutputDim",
                      "the 2-d pooling and 4-d tensor descriptors do not fit together");
    *n = out[0], *c = out[1], *h = out[2], *w = out[3];
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenPoolingGetWorkSpaceSize(const miopenTensorDescriptor_t yDesc,
                                                        size_t* size) {
    if (!is_set(yDesc) || !size) return miopenStatusBadParm;
    *size = 0;  // nothing is saved for a backward pass here
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenPoolingGetWorkSpaceSizeV2(const miopenPoolingDescriptor_t desc,
                                                          const miopenTensorDescriptor_t yDesc,
                                                          size_t* size) {
    return desc ? miopenPoolingGetWorkSpaceSize(yDesc, size) : miopenStatusBadParm;
}

extern "C" miopenStatus_t miopenPoolingForward(miopenHandle_t handle,
                                               const miopenPoolingDescriptor_t poolDesc,
                                               const void* alpha,
                                               const miopenTensorDescriptor_t xDesc,
                                               const void* x, const void* beta,
                                               const miopenTensorDescriptor_t yDesc, void* y,
                                               bool, void*, size_t) {
    const char* call = "miopenPoolingForward";
    int out[kMaxDims];
    if (!handle || !x || !y || !pool_output(poolDesc, xDesc, out) || !is_set(yDesc) ||
        yDesc->nd != xDesc->nd || yDesc->type != xDesc->type)
        return refuse(miopenStatusBadParm, call, "the pooling, input and output descriptors do not fit together");
    for (int i = 0; i < yDesc->nd; ++i)
        if (yDesc->dims[i] != out[i])
            return refuse(miopenStatusBadParm, call, "the output dimensions are not the pooling's");
    if (*unit_scaling(alpha, beta, xDesc->type))
        return refuse(miopenStatusUnknownError, call, unit_scaling(alpha, beta, xDesc->type));
    Geo gx = geo(xDesc), gy = geo(yDesc);
    Window win = pool_window(poolDesc);
    return by_type(xDesc->type, call, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        hipLaunchKernelGGL(pooling_forward<T>, dim3(blocks(elements(gy))), dim3(kThreads), 0,
                           handle->stream, gx, gy, win, poolDesc->mode, static_cast<const T*>(x),
                           static_cast<T*>(y));
    });
}

extern "C" miopenStatus_t miopenDestroyPoolingDescriptor(miopenPoolingDescriptor_t desc) {
    delete desc;
    return miopenStatusSuccess;
}

// ------------------------------------------------------------------ activation

extern "C" miopenStatus_t miopenCreateActivationDescriptor(miopenActivationDescriptor_t* desc) {
    if (!desc) return miopenStatusBadParm;
    *desc = new (std::nothrow) miopenActivationDescriptor();
    return *desc ? miopenStatusSuccess : miopenStatusAllocFailed;
}

extern "C" miopenStatus_t miopenSetActivationDescriptor(const miopenActivationDescriptor_t desc,
                                                        miopenActivationMode_t mode,
                                                        double activAlpha, double activBeta,
                                                        double activGamma) {
    if (!desc || mode < miopenActivationPASTHRU || mode > miopenActivationELU)
        return refuse(miopenStatusBadParm, "miopenSetActivationDescriptor", "not an activation mode");
    *desc = miopenActivationDescriptor{mode, activAlpha, activBeta, activGamma};
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenGetActivationDescriptor(const miopenActivationDescriptor_t desc,
                                                        miopenActivationMode_t* mode,
                                                        double* activAlpha, double* activBeta,
                                                        double* activGamma) {
    if (!desc || !mode || !activAlpha || !activBeta || !activGamma) return miopenStatusBadParm;
    *mode = desc->mode;
    *activAlpha = desc->alpha, *activBeta = desc->beta, *activGamma = desc->gamma;
    return miopenStatusSuccess;
}

extern "C" miopenStatus_t miopenActivationForward(miopenHandle_t handle,
                                                  const miopenActivationDescriptor_t activDesc,
                                                  const void* alpha,
                                                  const miopenTensorDescriptor_t xDesc,
                                                  const void* x, const void* beta,
                                                  const miopenTensorDescriptor_t yDesc, void* y) {
    const char* call = "miopenActivationForward";
    if (!handle || !activDesc || !x || !y || !is_set(xDesc) || !is_set(yDesc) ||
        !same_shape(xDesc, yDesc))
        return refuse(miopenStatusBadParm, call, "x and y must have the same dimensions and type");
    if (*unit_scaling(alpha, beta, xDesc->type))
        return refuse(miopenStatusUnknownError, call, unit_scaling(alpha, beta, xDesc->type));
    Geo gx = geo(xDesc), gy = geo(yDesc);
    miopenActivationDescriptor a = *activDesc;
    return by_type(xDesc->type, call, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        hipLaunchKernelGGL(activation_forward<T>, dim3(blocks(elements(gy))), dim3(kThreads), 0,
                           handle->stream, gx, gy, a.mode, a.alpha, a.beta, a.gamma,
                           static_cast<const T*>(x), static_cast<T*>(y));
    });
}

extern "C" miopenStatus_t miopenActivationBackward(
    miopenHandle_t handle, const miopenActivationDescriptor_t activDesc, const void* alpha,
    const miopenTensorDescriptor_t yDesc, const void* y, const miopenTensorDescriptor_t dyDesc,
    const void* dy, const miopenTensorDescriptor_t xDesc, const void* x, const void* beta,
    const miopenTensorDescriptor_t dxDesc, void* dx) {
    const char* call = "miopenActivationBackward";
    if (!handle || !activDesc || !y || !dy || !x || !dx || !is_set(xDesc) || !is_set(yDesc) ||
        !is_set(dyDesc) || !is_set(dxDesc) || !same_shape(xDesc, yDesc) ||
        !same_shape(xDesc, dyDesc) || !same_shape(xDesc, dxDesc))
        return refuse(miopenStatusBadParm, call, "y, dy, x and dx must have the same dimensions and type");
    if (*unit_scaling(alpha, beta, xDesc->type))
        return refuse(miopenStatusUnknownError, call, unit_scaling(alpha, beta, xDesc->type));
    Geo gy = geo(yDesc), gdy = geo(dyDesc), gx = geo(xDesc), gdx = geo(dxDesc);
    miopenActivationDescriptor a = *activDesc;
    return by_type(xDesc->type, call, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        hipLaunchKernelGGL(activation_backward<T>, dim3(blocks(elements(gdx))), dim3(kThreads), 0,
                           handle->stream, gy, gdy, gx, gdx, a.mode, a.alpha, a.beta, a.gamma,
                           static_cast<const T*>(y), static_cast<const T*>(dy),
                           static_cast<const T*>(x), static_cast<T*>(dx));
    });
}

extern "C" miopenStatus_t miopenDestroyActivationDescriptor(miopenActivationDescriptor_t desc) {
    delete desc;
    return miopenStatusSuccess;
}

// ------------------------------------------------------------------ softmax

extern "C" miopenStatus_t miopenSoftmaxForward_V2(miopenHandle_t handle, const void* alpha,
                                                  const miopenTensorDescriptor_t xDesc,
                                                  const void* x, const void* beta,
                                                  const miopenTensorDescriptor_t yDesc, void* y,
                                                  miopenSoftmaxAlgorithm_t algorithm,
                                                  miopenSoftmaxMode_t mode) {
    const char* call = "miopenSoftmaxForward_V2";
    if (!handle || !alpha || !beta || !x || !y || !is_set(xDesc) || !is_set(yDesc) ||
        !same_shape(xDesc, yDesc))
        return refuse(miopenStatusBadParm, call, "x and y must have the same dimensions and type");
    if (algorithm < MIOPEN_SOFTMAX_FAST || algorithm > MIOPEN_SOFTMAX_LOG ||
        (mode != MIOPEN_SOFTMAX_MODE_INSTANCE && mode != MIOPEN_SOFTMAX_MODE_CHANNEL))
        return refuse(miopenStatusBadParm, call, "not a softmax algorithm or mode");
    Geo gx = geo(xDesc), gy = geo(yDesc);
    long long spatial = (long long)gx.d * gx.h * gx.w;
    long long rows = mode == MIOPEN_SOFTMAX_MODE_CHANNEL ? gx.n * spatial : gx.n;
    double al = scalar(alpha, xDesc->type), be = scalar(beta, xDesc->type);
    return by_type(xDesc->type, call, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        using A = typename Acc<T>::type;
        hipLaunchKernelGGL(softmax_forward<T>, dim3(blocks(rows)), dim3(kThreads), 0,
                           handle->stream, gx, gy, algorithm, mode == MIOPEN_SOFTMAX_MODE_CHANNEL,
                           static_cast<const T*>(x), static_cast<T*>(y), (A)al, (A)be);
    });
}

extern "C" miopenStatus_t miopenSoftmaxForward(miopenHandle_t handle, const void* alpha,
                                               const miopenTensorDescriptor_t xDesc,
                                               const void* x, const void* beta,
                                               const miopenTensorDescriptor_t yDesc, void* y) {
    return miopenSoftmaxForward_V2(handle, alpha, xDesc, x, beta, yDesc, y,
                                   MIOPEN_SOFTMAX_ACCURATE, MIOPEN_SOFTMAX_MODE_CHANNEL);
}

extern "C" miopenStatus_t miopenSoftmaxBackward_V2(
    miopenHandle_t handle, const void* alpha, const miopenTensorDescriptor_t yDesc, const void* y,
    const miopenTensorDescriptor_t dyDesc, const void* dy, const void* beta,
    const miopenTensorDescriptor_t dxDesc, void* dx, miopenSoftmaxAlgorithm_t algorithm,
    miopenSoftmaxMode_t mode) {
    const char* call = "miopenSoftmaxBackward_V2";
    if (!handle || !alpha || !beta || !y || !dy || !dx || !is_set(yDesc) || !is_set(dyDesc) ||
        !is_set(dxDesc) || !same_shape(yDesc, dyDesc) || !same_shape(yDesc, dxDesc))
        return refuse(miopenStatusBadParm, call, "y, dy and dx must have the same dimensions and type");
    if (algorithm < MIOPEN_SOFTMAX_FAST || algorithm > MIOPEN_SOFTMAX_LOG ||
        (mode != MIOPEN_SOFTMAX_MODE_INSTANCE && mode != MIOPEN_SOFTMAX_MODE_CHANNEL))
        return refuse(miopenStatusBadParm, call, "not a softmax algorithm or mode");
    Geo gy = geo(yDesc), gdy = geo(dyDesc), gdx = geo(dxDesc);
    long long spatial = (long long)gy.d * gy.h * gy.w;
    long long rows = mode == MIOPEN_SOFTMAX_MODE_CHANNEL ? gy.n * spatial : gy.n;
    double al = scalar(alpha, yDesc->type), be = scalar(beta, yDesc->type);
    return by_type(yDesc->type, call, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        using A = typename Acc<T>::type;
        hipLaunchKernelGGL(softmax_backward<T>, dim3(blocks(rows)), dim3(kThreads), 0,
                           handle->stream, gy, gdy, gdx, algorithm,
                           mode == MIOPEN_SOFTMAX_MODE_CHANNEL, static_cast<const T*>(y),
                           static_cast<const T*>(dy), static_cast<T*>(dx), (A)al, (A)be);
    });
}

extern "C" miopenStatus_t miopenSoftmaxBackward(miopenHandle_t handle, const void* alpha,
                                                const miopenTensorDescriptor_t yDesc,
                                                const void* y,
                                                const miopenTensorDescriptor_t dyDesc,
                                                const void* dy, const void* beta,
                                                const miopenTensorDescriptor_t dxDesc, void* dx) {
    return miopenSoftmaxBackward_V2(handle, alpha, yDesc, y, dyDesc, dy, beta, dxDesc, dx,
                                    MIOPEN_SOFTMAX_ACCURATE, MIOPEN_SOFTMAX_MODE_CHANNEL);
}

// ------------------------------------------------------------------ batch normalization

extern "C" miopenStatus_t miopenDeriveBNTensorDescriptor(miopenTensorDescriptor_t derived,
                                                         const miopenTensorDescriptor_t xDesc,
                                                         miopenBatchNormMode_t bn_mode) {
    if (!derived || !is_set(xDesc)) return miopenStatusBadParm;
    int dims[kMaxDims];
    for (int i = 0; i < xDesc->nd; ++i)
        dims[i] = i == 0 ? 1 : (i == 1 || bn_mode == miopenBNPerActivation) ? xDesc->dims[i] : 1;
    return miopenSetTensorDescriptor(derived, xDesc->type, xDesc->nd, dims, nullptr);
}

// The scale/bias/mean/variance descriptor MIOpen derives for x and the mode.
static bool bn_fits(const miopenTensorDescriptor_t p, const miopenTensorDescriptor_t x,
                    miopenBatchNormMode_t mode) {
    if (!is_set(p) || p->nd != x->nd || p->type != x->type) return false;
    for (int i = 0; i < x->nd; ++i) {
        int want = i == 0 ? 1 : (i == 1 || mode == miopenBNPerActivation) ? x->dims[i] : 1;
        if (p->dims[i] != want) return false;
    }
    return true;
}

extern "C" miopenStatus_t miopenBatchNormalizationForwardInference(
    miopenHandle_t handle, miopenBatchNormMode_t bn_mode, void*, void*,
    const miopenTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t yDesc,
    void* y, const miopenTensorDescriptor_t pDesc, void* scale, void* bias, void* mean, void* var,
    double epsilon) {
    const char* call = "miopenBatchNormalizationForwardInference";
    if (!handle || !x || !y || !scale || !bias || !is_set(xDesc) || !is_set(yDesc) ||
        !same_shape(xDesc, yDesc) || (bn_mode != miopenBNSpatial && bn_mode != miopenBNPerActivation) ||
        !bn_fits(pDesc, xDesc, bn_mode))
        return refuse(miopenStatusBadParm, call,
                      "x, y and the derived scale/bias/mean/variance descriptor do not fit together");
    if (!mean || !var)
        return refuse(miopenStatusNotImplemented, call,
                      "null estimatedMean/estimatedVariance (statistics from the batch) is not covered here");
    Geo gx = geo(xDesc), gy = geo(yDesc), gp = geo(pDesc);
    // alpha and beta are not used: MIOpen's inference ignores them (y is written, not blended)
    return by_type(xDesc->type, call, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        hipLaunchKernelGGL(batchnorm_inference<T>, dim3(blocks(elements(gy))), dim3(kThreads), 0,
                           handle->stream, gx, gy, gp, bn_mode == miopenBNSpatial,
                           static_cast<const T*>(x), static_cast<T*>(y),
                           static_cast<const T*>(scale), static_cast<const T*>(bias),
                           static_cast<const T*>(mean), static_cast<const T*>(var), epsilon);
    });
}


// x, y and the scale/bias/mean/variance descriptor of a batch-norm call: '' when they fit.
static const char* bn_problem(miopenBatchNormMode_t mode, const miopenTensorDescriptor_t x,
                              const miopenTensorDescriptor_t y, const miopenTensorDescriptor_t p) {
    if (!is_set(x) || !is_set(y) || !same_shape(x, y) ||
        (mode != miopenBNSpatial && mode != miopenBNPerActivation) || !bn_fits(p, x, mode))
        return "x, y and the derived scale/bias/mean/variance descriptor do not fit together";
    return "";
}

extern "C" miopenStatus_t miopenBatchNormalizationForwardTraining(
    miopenHandle_t handle, miopenBatchNormMode_t bn_mode, void* alpha, void* beta,
    const miopenTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t yDesc,
    void* y, const miopenTensorDescriptor_t pDesc, void* scale, void* bias, double expAvgFactor,
    void* runMean, void* runVar, double epsilon, void* saveMean, void* saveInv) {
    const char* call = "miopenBatchNormalizationForwardTraining";
    if (!handle || !x || !y || !scale || !bias)
        return refuse(miopenStatusBadParm, call, "a null handle or tensor");
    if (*bn_problem(bn_mode, xDesc, yDesc, pDesc))
        return refuse(miopenStatusBadParm, call, bn_problem(bn_mode, xDesc, yDesc, pDesc));
    if (*unit_scaling(alpha, beta, xDesc->type))
        return refuse(miopenStatusUnknownError, call, unit_scaling(alpha, beta, xDesc->type));
    Geo gx = geo(xDesc), gy = geo(yDesc), gp = geo(pDesc);
    BnSlots slots{bn_mode == miopenBNSpatial, (long long)gx.d * gx.h * gx.w};
    return by_type(xDesc->type, call, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        hipLaunchKernelGGL(batchnorm_training<T>, dim3(blocks(slots.count(gx))), dim3(kThreads),
                           0, handle->stream, gx, gy, gp, slots, static_cast<const T*>(x),
                           static_cast<T*>(y), static_cast<const T*>(scale),
                           static_cast<const T*>(bias), expAvgFactor, static_cast<T*>(runMean),
                           static_cast<T*>(runVar), epsilon, static_cast<T*>(saveMean),
                           static_cast<T*>(saveInv));
    });
}

extern "C" miopenStatus_t miopenBatchNormalizationBackward(
    miopenHandle_t handle, miopenBatchNormMode_t bn_mode, const void* alphaDataDiff,
    const void* betaDataDiff, const void* alphaParamDiff, const void* betaParamDiff,
    const miopenTensorDescriptor_t xDesc, const void* x, const miopenTensorDescriptor_t dyDesc,
    const void* dy, const miopenTensorDescriptor_t dxDesc, void* dx,
    const miopenTensorDescriptor_t pDesc, const void* scale, void* dscale, void* dbias,
    double epsilon, const void* savedMean, const void* savedInv) {
    const char* call = "miopenBatchNormalizationBackward";
    if (!handle || !x || !dy || !dx || !scale || !dscale || !dbias || !is_set(dyDesc) ||
        !is_set(xDesc) || !same_shape(xDesc, dyDesc))
        return refuse(miopenStatusBadParm, call, "a null handle or tensor, or dy unlike x");
    if (*bn_problem(bn_mode, xDesc, dxDesc, pDesc))
        return refuse(miopenStatusBadParm, call, bn_problem(bn_mode, xDesc, dxDesc, pDesc));
    if (*unit_scaling(alphaDataDiff, betaDataDiff, xDesc->type) ||
        *unit_scaling(alphaParamDiff, betaParamDiff, xDesc->type))
        return refuse(miopenStatusNotImplemented, call,
                      "only alpha = 1 and beta = 0 (data and parameter gradients) are covered here");
    Geo gx = geo(xDesc), gdy = geo(dyDesc), gdx = geo(dxDesc), gp = geo(pDesc);
    BnSlots slots{bn_mode == miopenBNSpatial, (long long)gx.d * gx.h * gx.w};
    return by_type(xDesc->type, call, [&](auto* tag) {
        using T = std::remove_pointer_t<decltype(tag)>;
        hipLaunchKernelGGL(batchnorm_backward<T>, dim3(blocks(slots.count(gx))), dim3(kThreads),
                           0, handle->stream, gx, gdy, gdx, gp, slots, static_cast<const T*>(x),
                           static_cast<const T*>(dy), static_cast<T*>(dx),
                           static_cast<const T*>(scale), static_cast<T*>(dscale),
                           static_cast<T*>(dbias), epsilon, static_cast<const T*>(savedMean),
                           static_cast<const T*>(savedInv));
    });
}
