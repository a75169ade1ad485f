"""cass's reference MIOpen (runner/emulated_libraries/miopen.hip) on the emulator, against numpy:
grouped, strided, dilated 2-D convolution forward/backward data/backward weights and bias, a 3-D
double convolution with alpha/beta, half data, pooling (max, average with and without padding),
ten activation modes forward and backward, softmax forward and backward (accurate/log/fast,
channel/instance, alpha/beta blending), OpTensor with broadcasting, batch normalization inference, training and backward (spatial, per activation), and the statuses MIOpen returns for
parameters it refuses. One program runs everything (tests/emulator/programs/miopen_reference.hip)."""

import re
from pathlib import Path

import numpy as np
import pytest
from cass.runner import emulated_libraries
from cass.runner.emulator import build_hip_program, run_program

PROGRAM = Path(__file__).parent / "programs" / "miopen_reference.hip"
NOT_IMPLEMENTED, BAD_PARM, UNKNOWN_ERROR = 6, 3, 7


def values(n: int, seed: int) -> np.ndarray:
    i = np.arange(n)
    return ((i * 37 + seed * 11) % 19 - 9) / 8.0


def conv(x, w, pad, stride, dil, groups=1):
    """Cross-correlation of x (N, C, *S) with w (K, C/groups, *R), MIOpen's output size."""
    spatial = x.ndim - 2
    xp = np.pad(x, [(0, 0), (0, 0), *[(p, p) for p in pad]])
    out_shape = [
        (x.shape[2 + i] + 2 * pad[i] - dil[i] * (w.shape[2 + i] - 1) - 1) // stride[i] + 1
        for i in range(spatial)
    ]
    k_per, c_per = w.shape[0] // groups, w.shape[1]
    y = np.zeros((x.shape[0], w.shape[0], *out_shape))
    for tap in np.ndindex(*w.shape[2:]):
        sl = tuple(
            slice(tap[i] * dil[i], tap[i] * dil[i] + stride[i] * (out_shape[i] - 1) + 1, stride[i])
            for i in range(spatial)
        )
        patch = xp[(slice(None), slice(None), *sl)]
        for g in range(groups):
            ks, cs = slice(g * k_per, (g + 1) * k_per), slice(g * c_per, (g + 1) * c_per)
            y[:, ks] += np.einsum("nc...,kc->nk...", patch[:, cs], w[(ks, slice(None), *tap)])
    return y


def conv_grads(x, w, dy, pad, stride, dil, groups):
    """dx and dw of conv by its linearity: each is a sum over the taps of the forward map."""
    dx, dw = np.zeros_like(x), np.zeros_like(w)
    for index in np.ndindex(*x.shape):
        e = np.zeros_like(x)
        e[index] = 1
        dx[index] = (conv(e, w, pad, stride, dil, groups) * dy).sum()
    for index in np.ndindex(*w.shape):
        e = np.zeros_like(w)
        e[index] = 1
        dw[index] = (conv(x, e, pad, stride, dil, groups) * dy).sum()
    return dx, dw


def pool(x, window, pad, stride, mode):
    n, c, h, w = x.shape
    oh, ow = [(s + 2 * p - k) // st + 1 for s, p, k, st in zip((h, w), pad, window, stride)]
    y = np.zeros((n, c, oh, ow))
    for i, j in np.ndindex(oh, ow):
        h0, w0 = i * stride[0] - pad[0], j * stride[1] - pad[1]
        h1, w1 = min(h0 + window[0], h), min(w0 + window[1], w)
        h0, w0 = max(h0, 0), max(w0, 0)
        patch = x[:, :, h0:h1, w0:w1].reshape(n, c, -1)
        if mode == "max":
            y[:, :, i, j] = patch.max(-1)
        else:
            count = patch.shape[-1] if mode == "exclude" else window[0] * window[1]
            y[:, :, i, j] = patch.sum(-1) / count
    return y


@pytest.fixture(scope="module")
def results(tmp_path_factory) -> dict[str, np.ndarray]:
    exe = build_hip_program(PROGRAM, tmp_path_factory.mktemp("miopen") / "prog")
    run = run_program(exe, timeout_s=600)
    assert run.exit_code == 0, run.stdout + run.stderr
    rows = [line.split() for line in run.stdout.splitlines() if line.strip()]
    found = {row[0]: np.array([float(v) for v in row[1:]]) for row in rows}
    found["stderr"] = run.stderr  # type: ignore[assignment]
    return found


def test_the_reference_is_used_for_miopen_ports():
    refs = emulated_libraries.needed("#include <miopen/miopen.h>\n")
    assert [r.library for r in refs] == ["MIOpen"]
    assert "-I" in refs[0].compile_args and str(refs[0].source) in refs[0].compile_args
    assert "cudnn" in emulated_libraries.provided()
    assert emulated_libraries.needed("// #include <miopen/miopen.h>\n") == ()


def test_the_header_is_miopens_names_and_each_function_is_implemented():
    from cass.models.rules import cudnn

    header = (emulated_libraries.INCLUDE / "miopen" / "miopen.h").read_text()
    code = re.sub(r"/\*.*?\*/", "", header, flags=re.DOTALL)
    names = set(re.findall(r"\b(?:miopen|MIOPEN_)\w+", code))
    assert len(names) > 150
    assert names <= cudnn.miopen_identifiers().keys()  # every name is one AMD's miopen.h declares
    declared = set(re.findall(r"^miopenStatus_t (\w+)\(", code, re.MULTILINE))
    source = (emulated_libraries.HERE / "miopen.hip").read_text()
    defined = set(re.findall(r'^extern "C" [\w* ]+? (\w+)\(', source, re.MULTILINE))
    assert len(declared) > 50 and declared | {"miopenGetErrorString"} == defined


def test_grouped_strided_dilated_conv2d(results):
    x, w = (
        values(2 * 4 * 7 * 6, 1).reshape(2, 4, 7, 6),
        values(6 * 2 * 3 * 2, 2).reshape(6, 2, 3, 2),
    )
    args = ((1, 0), (2, 1), (1, 2), 2)
    y = conv(x, w, *args)
    np.testing.assert_array_equal(results["conv2d_dims"], y.shape)
    np.testing.assert_array_equal(results["conv2d_find"], [1, 1, 0])  # one result: direct, 0 B
    np.testing.assert_array_equal(results["conv2d_fwd"], y.ravel())
    dx, dw = conv_grads(x, w, y, *args)
    np.testing.assert_allclose(results["conv2d_bwd_data"], dx.ravel(), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(results["conv2d_bwd_weights"], dw.ravel(), rtol=1e-6, atol=1e-5)
    b = values(6, 3)
    biased = y + b[None, :, None, None]
    np.testing.assert_array_equal(results["conv2d_bias"], biased.ravel())
    np.testing.assert_allclose(results["conv2d_bias_bwd"], biased.sum((0, 2, 3)), rtol=1e-6)


def test_refused_parameters_get_miopens_statuses_and_a_line(results):
    assert results["conv2d_beta_status"][0] == NOT_IMPLEMENTED  # 2-D: alpha = 1, beta = 0 only
    assert results["conv2d_bad_output_status"][0] == BAD_PARM
    assert results["conv2d_transpose_status"][0] == NOT_IMPLEMENTED  # not covered here
    assert results["pool_beta_status"][0] == UNKNOWN_ERROR
    assert results["bad_dims_status"][0] == BAD_PARM
    stderr = str(results["stderr"])
    assert "miopenConvolutionForward: MIOpen supports only alpha = 1 and beta = 0" in stderr
    assert "transposed convolution (miopenStatusNotImplemented)" in stderr


def test_conv3d_double_blends_alpha_and_beta(results):
    x, w = values(96, 4).reshape(1, 2, 4, 4, 3), values(32, 5).reshape(2, 2, 2, 2, 2)
    y = conv(x, w, (1, 1, 1), (1, 2, 1), (1, 1, 1))
    np.testing.assert_array_equal(results["conv3d_dims"], [5, *y.shape])
    want = 0.5 * y.ravel() + 2.0 * values(y.size, 6)
    np.testing.assert_allclose(results["conv3d_fwd"], want, rtol=1e-15)


def test_half_convolution(results):
    x, w = values(50, 7).reshape(1, 2, 5, 5), values(54, 8).reshape(3, 2, 3, 3)
    y = conv(x, w, (0, 0), (1, 1), (1, 1))
    np.testing.assert_allclose(results["conv_half"], y.ravel().astype(np.float16), rtol=1e-3)


@pytest.mark.parametrize("mode", ["max", "avg_exclude", "avg_include"])
def test_pooling_modes(results, mode):
    x = values(2 * 3 * 7 * 6, 9).reshape(2, 3, 7, 6)
    y = pool(x, (3, 2), (1, 1), (2, 2), mode.removeprefix("avg_"))
    np.testing.assert_array_equal(results["pool_dims"], y.shape)
    np.testing.assert_allclose(results[f"pool_{mode}"], y.ravel(), rtol=1e-6)


ACTIVATIONS = {
    "relu": lambda x: np.maximum(x, 0),
    "logistic": lambda x: 1 / (1 + np.exp(-x)),
    "tanh": np.tanh,
    "clipped": lambda x: np.minimum(0.7, np.maximum(0, x)),
    "elu": lambda x: np.where(x > 0, x, 0.4 * np.expm1(x)),
    "leaky": lambda x: np.where(x > 0, x, 0.1 * x),
    "softrelu": lambda x: np.log1p(np.exp(x)),
    "abs": np.abs,
    "power": lambda x: (0.5 + 0.25 * x) ** 2,
    "passthru": lambda x: x,
}


@pytest.mark.parametrize("name", ACTIVATIONS)
def test_activation_modes(results, name):
    x = values(30, 10).astype(np.float32).astype(np.float64)
    np.testing.assert_allclose(results[f"act_{name}"], ACTIVATIONS[name](x), rtol=2e-6, atol=1e-7)


BACKWARD = {  # d activation / dx at x (y the forward value), MIOpen's formulas
    "relu": lambda x, y: (x > 0) * 1.0,
    "logistic": lambda x, y: y * (1 - y),
    "tanh": lambda x, y: 1 - y * y,
    "clipped": lambda x, y: ((x > 0) & (x <= 0.7)) * 1.0,
    "elu": lambda x, y: np.where(x > 0, 1, y + 0.4),
    "leaky": lambda x, y: np.where(x > 0, 1, 0.1),
    "softrelu": lambda x, y: 1 / (1 + np.exp(-x)),
    "abs": lambda x, y: np.sign(x),
    "power": lambda x, y: 2 * 0.25 * (0.5 + 0.25 * x),
    "passthru": lambda x, y: np.ones_like(x),
}


@pytest.mark.parametrize("name", BACKWARD)
def test_activation_backward(results, name):
    x = values(30, 10).astype(np.float32).astype(np.float64)
    y, dy = results[f"act_{name}"], values(30, 18)
    want = dy * BACKWARD[name](x, y)
    np.testing.assert_allclose(results[f"backward_act_{name}"], want, rtol=2e-6, atol=1e-6)


def test_op_tensor_broadcasts_b(results):
    a, c = values(24, 21).reshape(2, 3, 2, 2), values(24, 23).reshape(2, 3, 2, 2)
    b, m = values(3, 22).reshape(1, 3, 1, 1), values(4, 24).reshape(1, 1, 2, 2)
    np.testing.assert_allclose(results["optensor_add"], (a + 2 * b + 0.5 * c).ravel(), rtol=1e-6)
    np.testing.assert_allclose(results["optensor_mul"], (a * m).ravel(), rtol=1e-6)
    np.testing.assert_allclose(results["optensor_max"], np.maximum(a, 0.5 * b).ravel(), rtol=1e-6)


def softmax(x, axes, log=False):
    shifted = x - x.max(axis=axes, keepdims=True)
    total = np.exp(shifted).sum(axis=axes, keepdims=True)
    return shifted - np.log(total) if log else np.exp(shifted) / total


def test_softmax_algorithms_and_modes(results):
    x = values(60, 11).reshape(2, 5, 2, 3)
    np.testing.assert_allclose(
        results["softmax_accurate_channel"], softmax(x, 1).ravel(), rtol=2e-6
    )
    log_instance = softmax(x, (1, 2, 3), log=True)
    np.testing.assert_allclose(results["softmax_log_instance"], log_instance.ravel(), rtol=2e-6)
    blend = 2 * softmax(x, 1) + 0.5 * log_instance  # alpha = 2, beta = 0.5 onto the previous y
    np.testing.assert_allclose(results["softmax_fast_channel_blend"], blend.ravel(), rtol=5e-6)
    instance = softmax(x, (1, 2, 3)).ravel()
    np.testing.assert_allclose(results["softmax_double_instance"], instance, rtol=1e-14)


def test_softmax_backward(results):
    x, dy = values(60, 11).reshape(2, 5, 2, 3), values(60, 19).reshape(2, 5, 2, 3)
    y = softmax(x, 1)
    dx = y * (dy - (dy * y).sum(axis=1, keepdims=True))
    np.testing.assert_allclose(results["softmax_bwd_channel"], dx.ravel(), rtol=1e-5, atol=1e-6)
    log_y = softmax(x, (1, 2, 3), log=True)
    dx_log = dy - np.exp(log_y) * dy.sum(axis=(1, 2, 3), keepdims=True)
    blend = 2 * dx_log + 0.5 * values(60, 20).reshape(2, 5, 2, 3)
    np.testing.assert_allclose(
        results["softmax_bwd_log_blend"], blend.ravel(), rtol=1e-5, atol=1e-6
    )


@pytest.mark.parametrize("mode", ["spatial", "per_activation"])
def test_batchnorm_inference(results, mode):
    x = values(48, 13).reshape(2, 3, 2, 4)
    shape = (1, 3, 1, 1) if mode == "spatial" else (1, 3, 2, 4)
    np.testing.assert_array_equal(results[f"bn_{mode}_dims"], shape)
    count = int(np.prod(shape))
    scale, bias = values(count, 14).reshape(shape), values(count, 15).reshape(shape)
    mean, var = values(count, 17).reshape(shape), values(count, 16).reshape(shape) ** 2 + 0.25
    y = scale * (x - mean) / np.sqrt(var + 1e-3) + bias
    np.testing.assert_allclose(results[f"bn_{mode}"], y.ravel(), rtol=2e-6, atol=1e-6)


@pytest.mark.parametrize("mode", ["spatial", "per_activation"])
def test_batchnorm_training_and_backward(results, mode):
    x, dy = values(48, 13).reshape(2, 3, 2, 4), values(48, 25).reshape(2, 3, 2, 4)
    shape = (1, 3, 1, 1) if mode == "spatial" else (1, 3, 2, 4)
    axes = (0, 2, 3) if mode == "spatial" else (0,)
    count = int(np.prod(shape))
    scale, bias = values(count, 14).reshape(shape), values(count, 15).reshape(shape)
    mean0, var0 = values(count, 17).reshape(shape), values(count, 16).reshape(shape) ** 2 + 0.25
    mean, var = x.mean(axis=axes, keepdims=True), x.var(axis=axes, keepdims=True)
    inv = 1 / np.sqrt(var + 1e-3)
    xhat = (x - mean) * inv
    got = {k: results[f"bn_{mode}_{k}"] for k in ("train", "running_mean", "running_var")}
    np.testing.assert_allclose(got["train"], (scale * xhat + bias).ravel(), rtol=1e-5, atol=1e-5)
    members = x.size // count
    unbiased = var * members / (members - 1)
    np.testing.assert_allclose(got["running_mean"], (0.75 * mean0 + 0.25 * mean).ravel(), rtol=1e-6)
    np.testing.assert_allclose(
        got["running_var"], (0.75 * var0 + 0.25 * unbiased).ravel(), rtol=1e-5
    )
    np.testing.assert_allclose(results[f"bn_{mode}_saved_inv"], inv.ravel(), rtol=1e-5)
    dbias, dscale = dy.sum(axis=axes, keepdims=True), (dy * xhat).sum(axis=axes, keepdims=True)
    dx = scale * inv * (dy - dbias / members - xhat * dscale / members)
    np.testing.assert_allclose(results[f"bn_{mode}_dbias"], dbias.ravel(), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(results[f"bn_{mode}_dscale"], dscale.ravel(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(results[f"bn_{mode}_dx"], dx.ravel(), rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(
        results[f"bn_{mode}_dx_recomputed"], dx.ravel(), rtol=1e-4, atol=1e-5
    )


def test_strided_descriptor_bytes(results):
    # the furthest element of a 2x3x4x5 double tensor with strides 100, 30, 6, 1, plus one
    assert results["strided_bytes"][0] == (100 + 2 * 30 + 3 * 6 + 4 + 1) * 8
    assert results["stream_kept"][0] == 1


def test_a_ported_cudnn_program_runs_on_the_emulator(tmp_path):
    """The rules engine's port of a bench task's cuDNN layers (find step, convolution, a bias
    kernel of its own, ReLU, max and average pooling) builds with this MIOpen and passes the
    program's own host-reference check."""
    from cass.models.engine import Target
    from cass.models.rules import port_unit

    task = Path(__file__).parents[2] / "models/bench/tasks/ml_operators/cudnn_conv_bias_relu_pool"
    unit = port_unit((task / "main.cu").read_text(), "main.cu", Target())
    assert not [d for d in unit.diagnostics if d.severity.value == "error"]
    port = tmp_path / "main.hip"
    port.write_text(unit.render())
    run = run_program(build_hip_program(port, tmp_path / "prog"), timeout_s=600)
    assert run.exit_code == 0, run.stdout + run.stderr
    assert "shapes: conv1 2x8x16x16 pool1 2x8x8x8 conv2 2x8x8x8 pool2 2x8x4x4" in run.stdout
    assert run.stdout.rstrip().endswith("CHECK PASS")


BACKWARD_FILTER = """#include <cudnn.h>
cudnnStatus_t grad(cudnnHandle_t h, cudnnTensorDescriptor_t xd, const float* x,
                   cudnnTensorDescriptor_t yd, const float* dy, cudnnConvolutionDescriptor_t cd,
                   cudnnFilterDescriptor_t wd, float* dw, void* ws) {
  size_t size = 0;
  cudnnGetConvolutionBackwardFilterWorkspaceSize(h, xd, yd, cd, wd,
                                                 CUDNN_CONVOLUTION_BWD_FILTER_ALGO_0, &size);
  cudnnConvolutionBwdFilterAlgoPerf_t perf[2];
  int found = 0;
  cudnnFindConvolutionBackwardFilterAlgorithmEx(h, xd, x, yd, dy, cd, wd, dw, 2, &found, perf,
                                                ws, size);
  float one = 1, zero = 0;
  return cudnnConvolutionBackwardFilter(h, &one, xd, x, yd, dy, cd, perf[0].algo, ws, size,
                                        &zero, wd, dw);
}
"""


def test_the_backward_filter_path_ports_and_compiles_against_the_reference(tmp_path):
    """cuDNN's backward-filter perf type is MIOpen's miopenConvAlgoPerf_t (.bwd_weights_algo):
    the port has no error and compiles against cass's miopen.h (its signatures)."""
    import subprocess

    from cass.models.engine import Target
    from cass.models.rules import port_unit
    from cass.runner.toolchain import hip_clang_command

    unit = port_unit(BACKWARD_FILTER, "grad.cu", Target())
    assert not [d for d in unit.diagnostics if d.severity.value == "error"]
    text = unit.render()
    assert (
        "miopenConvolutionBackwardWeights(h, &one, yd, dy, xd, x, cd, perf[0].bwd_weights_algo"
        in text
    )
    port = tmp_path / "grad.hip"
    port.write_text(text)
    include = [arg for ref in emulated_libraries.needed(text) for arg in ref.compile_args[:2]]
    cmd = [*hip_clang_command(), *include, "-fsyntax-only", str(port)]
    run = subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)
    assert run.returncode == 0, run.stderr
