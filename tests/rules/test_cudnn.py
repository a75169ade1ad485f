"""cuDNN -> MIOpen: the table is what the committed facts give, every MIOpen name it emits is one
MIOpen's header declares, and the common paths (convolution forward, pooling, activation,
softmax, batch norm) are rewritten or reported as `ports/cudnn_*.cu` expect."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from cass.models.engine import Target
from cass.models.rules import cudnn, port_unit
from cass.models.rules.tables import TABLE_DIR, family_table

PORTS = Path(__file__).parent / "ports"


def test_committed_table_is_what_the_facts_give():
    assert (TABLE_DIR / "cudnn.tsv").read_text(encoding="utf-8") == cudnn.render(), (
        "run: .venv/bin/python -m cass.models.rules.cudnn"
    )


def test_header_facts_name_their_source():
    lines = (cudnn.FACTS / cudnn.HEADER_FACTS).read_text(encoding="utf-8").splitlines()
    header = dict(ln[2:].split(": ", 1) for ln in lines[:4])
    assert header["repository"] == "ROCm/MIOpen"
    assert header["path"] == "include/miopen/miopen.h"
    assert re.fullmatch(r"[0-9a-f]{40}", header["commit"])
    ids = cudnn.miopen_identifiers()
    assert len(ids) > 800
    assert all(re.fullmatch(r"(miopen|MIOPEN_)\w+", name) for name in ids)
    # core API, and beta-only names marked as such
    assert ids["miopenConvolutionForward"] is False
    assert ids["miopenBackendExecute"] is True


def test_hipify_facts_are_well_formed():
    mappings = cudnn.hipify_mappings()
    assert len(mappings) == 556
    assert all(re.fullmatch(r"\d+\.\d+\.\d+", rocm) for _, rocm in mappings.values())
    assert not set(mappings) & set(cudnn._read("hipify_cudnn_unmapped.txt"))


def test_every_emitted_miopen_name_is_declared_by_miopen_h():
    ids = cudnn.miopen_identifiers()
    rows = family_table("cudnn")
    emitted = [e for e in rows.values() if e.status != "unsupported"]
    assert len(emitted) > 500
    assert not [e.cuda for e in emitted if e.hip not in ids]
    assert all(e.checked == cudnn.CHECKED for e in emitted)
    # names the passes write in place of a cuDNN call or argument
    from cass.models.rules.passes import cudnn_calls

    written = {t for _, template in cudnn_calls.TEMPLATES.values() for t in template}
    literals = {t for t in written if isinstance(t, str) and re.match(r"(miopen|MIOPEN_)", t)}
    assert literals and literals <= ids.keys()


def test_every_hipify_mapping_has_a_row_and_a_reason_when_refused():
    rows = family_table("cudnn")
    ids = cudnn.miopen_identifiers()
    for cuda, (miopen, rocm) in cudnn.hipify_mappings().items():
        entry = rows[cuda]
        if entry.status == "unsupported":
            assert entry.note, entry
            assert miopen not in ids or cuda in cudnn.ROUTES, entry
        elif entry.hip == miopen:
            assert entry.since == cudnn.since(rocm), entry
    # HIPIFY names the header does not declare are refused, with the reason
    assert rows["CUDNN_HEUR_MODE_A"].status == "unsupported"
    assert "does not declare" in rows["CUDNN_HEUR_MODE_A"].note
    assert rows["cudnnSetTensor4dDescriptorEx"].since == "5.3"
    assert rows["cudnnCreate"].since == "5.2"


def test_since_maps_rocm_versions():
    assert cudnn.since("2.1.0") == "5.2"
    assert cudnn.since("5.2.0") == "5.2"
    assert cudnn.since("6.2.0") == "6.2"


@pytest.mark.parametrize("name", ["cudnn_conv", "cudnn_layers"])
def test_port_matches_expected(name):
    source = PORTS / f"{name}.cu"
    unit = port_unit(source.read_text(), source.name, Target())
    expected = source.with_suffix(".hip")
    if os.environ.get("CASS_UPDATE_GOLDEN"):
        expected.write_text(unit.render(), newline="")
    assert unit.render() == expected.read_text()
    again = port_unit(unit.render(), expected.name, Target()).render()
    assert again == unit.render()


def _codes(text: str, target: Target | None = None) -> list[tuple[int, str]]:
    unit = port_unit(text, "t.cu", target or Target())
    return [(d.line, d.code) for d in unit.diagnostics if d.code != "CASS012"]


def test_convolution_path_is_adapted_and_needs_no_error():
    text = (PORTS / "cudnn_conv.cu").read_text()
    codes = _codes(text)
    assert not [c for c in codes if c[1] in ("CASS010", "CASS011", "CASS082", "CASS086")]
    assert [line for line, code in codes if code == "CASS085"] == [15, 16, 17, 20, 22, 26, 28]


def test_layers_path_reports_what_miopen_cannot_take():
    codes = _codes((PORTS / "cudnn_layers.cu").read_text())
    assert (18, "CASS010") in codes  # BATCHNORM_SPATIAL_PERSISTENT
    assert (19, "CASS010") in codes  # cudnnPoolingBackward: needs the forward's workspace
    assert (20, "CASS086") in codes  # NHWC format
    assert (21, "CASS010") in codes  # cudnnAddTensor: miopenOpTensor route
    assert [line for line, code in codes if code == "CASS085"] == [9, 10, 13, 15]


CONV = """#include <cudnn.h>
void f(cudnnHandle_t h, cudnnTensorDescriptor_t x, cudnnFilterDescriptor_t w,
       cudnnConvolutionDescriptor_t c, cudnnTensorDescriptor_t y, float* a, float* b, float* o,
       void* ws, size_t n, cudnnConvolutionFwdAlgo_t algo, cudnnActivationMode_t mode,
       cudnnActivationDescriptor_t act) {
  float one = 1, zero = 0;
  cudnnSetConvolution2dDescriptor(c, 0, 0, 1, 1, 1, 1, CUDNN_CONVOLUTION, CUDNN_DATA_FLOAT);
  cudnnConvolutionForward(h, &one, x, a, w, b, c, algo, ws, n, &zero, y, o);
  cudnnSetActivationDescriptor(act, mode, CUDNN_NOT_PROPAGATE_NAN, 0.0);
  cudnnSetActivationDescriptor(act, CUDNN_ACTIVATION_TANH, CUDNN_NOT_PROPAGATE_NAN, 0.0);
}
"""


def test_calls_without_a_mechanical_form_are_reported_and_kept():
    unit = port_unit(CONV, "t.cu", Target())
    errors = {(d.line, d.code): d.message for d in unit.diagnostics if d.severity.value == "error"}
    assert "CUDNN_CROSS_CORRELATION" in errors[(7, "CASS086")]
    assert "find step" in errors[(8, "CASS086")]
    assert "not a literal" in errors[(9, "CASS086")]
    out = unit.render()
    # reported calls keep their cuDNN name (no rename makes them look ported) ...
    assert "cudnnSetConvolution2dDescriptor(c" in out
    assert "cudnnConvolutionForward(h" in out
    assert "cudnnSetActivationDescriptor(act, mode" in out
    # ... and tanh gets MIOpen's alpha = beta = 1 (beta * tanh(alpha * x))
    assert "miopenSetActivationDescriptor(act, miopenActivationTANH, 1.0, 1.0, 1.0);" in out


def test_rows_newer_than_the_target_are_reported_with_the_version():
    text = "#include <cudnn.h>\nvoid f(cudnnTensorDescriptor_t t) {\n" + (
        "  cudnnSetTensor4dDescriptorEx(t, CUDNN_DATA_FLOAT, 1, 1, 1, 1, 1, 1, 1, 1);\n}\n"
    )
    assert (3, "CASS011") in _codes(text)
    ported = port_unit(text, "t.cu", Target(hip_version="5.3")).render()
    assert "miopenSet4dTensorDescriptorEx(t, miopenFloat" in ported


def test_no_cudnn_name_hipify_lists_is_left_silent():
    """The name probe (benchmarks/probe_library_names.py) over every cuDNN name of the facts:
    each is ported or reported on its line, for the default target and a ROCm 6.2 one."""
    from cass.models.rules.probe import run_probe

    names = cudnn.probe_names()
    assert len(names) == 804
    for target in (Target(), Target(hip_version="6.2")):
        result = run_probe({"cuDNN": names}, target)
        assert result.total("silent") == 0, result.silent
        assert result.total("ported") > 190


def test_makefile_links_miopen_for_cudnn():
    from cass.models.rules.buildfiles import port_makefile

    ported = port_makefile("app: a.o\n\tnvcc a.o -o app -lcudnn -lcublas\n", "Makefile", Target())
    assert ported.text.splitlines()[-1] == "\t$(HIP_LD) a.o -o app -lMIOpen -lhipblas"
    assert not ported.diagnostics


def test_perf_results_in_arrays_use_miopen_members():
    text = """#include <cudnn.h>
void f(cudnnHandle_t h, cudnnTensorDescriptor_t x, cudnnFilterDescriptor_t w,
       cudnnConvolutionDescriptor_t c, cudnnTensorDescriptor_t y, float* a, float* b, float* o,
       void* ws, size_t n) {
  cudnnConvolutionFwdAlgoPerf_t perf[4]; int found;
  cudnnFindConvolutionForwardAlgorithmEx(h, x, a, w, b, c, y, o, 4, &found, perf, ws, n);
  float one = 1, zero = 0;
  cudnnConvolutionForward(h, &one, x, a, w, b, c, perf[0].algo, ws, n, &zero, y, o);
  if (perf[0].status != CUDNN_STATUS_SUCCESS) return;
}
"""
    unit = port_unit(text, "t.cu", Target())
    out = unit.render()
    assert "miopenConvAlgoPerf_t perf[4];" in out
    assert ", 4, &found, perf, ws, n, false);" in out
    assert (
        "miopenConvolutionForward(h, &one, x, a, w, b, c, perf[0].fwd_algo, &zero, y, o, ws, n)"
        in out
    )
    errors = [(d.line, d.code) for d in unit.diagnostics if d.severity.value == "error"]
    assert errors == [(9, "CASS086")]  # .status: miopenConvAlgoPerf_t has none
