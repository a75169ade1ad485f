"""Token-wise comparison with tolerance: tables of outputs that must and must not match."""

from __future__ import annotations

import math
import struct

import pytest
from cass.runner.compare import (
    compare_file,
    compare_results,
    compare_text,
    integers_close,
    numbers_close,
    tokenize,
)
from cass.runner.results import RunResult
from cass.runner.spec import OutputFile, RunSpec

SPEC = RunSpec()


@pytest.mark.parametrize(
    ("expected", "actual"),
    [
        ("sum = 3.14159\n", "sum =   3.141592\n"),
        ("x 1e-3\n", "x 0.001\n"),
        ("x 1.0E+02\n", "x 100\n"),
        ("mask 0xFF\n", "mask 255\n"),
        ("v nan -nan\n", "v -nan nan\n"),
        ("v inf -inf\n", "v inf -inf\n"),
        ("a,b 1.000000 2\n", "a,b 1.0000001 2.0\n"),  # %g and %f of one value: floats
        ("g 3\n", "g 2.99998\n"),  # %g prints an integral float as an integer
        ("tiny 0\n", "tiny 1e-9\n"),  # atol 1e-8
        ("x[3]=4;\n", "x[3]=4.000001;\n"),
    ],
)
def test_outputs_that_agree(expected, actual):
    assert compare_text("stdout", expected, actual, SPEC) == []


@pytest.mark.parametrize(
    ("expected", "actual", "first_expected", "first_actual", "line"),
    [
        ("sum = 3.14159\n", "sum = 3.1417\n", "3.14159", "3.1417", 1),
        ("ok\nresult 10\n", "ok\nresult 11\n", "10", "11", 2),
        ("PASS\n", "FAIL\n", "PASS", "FAIL", 1),
        ("v nan\n", "v 0\n", "nan", "0", 1),
        ("v inf\n", "v -inf\n", "inf", "-inf", 1),
        ("1 2 3\n", "1 2\n", "3", "<end of output>", 1),
        ("1 2\n", "1 2 3\n", "<end of output>", "3", 1),
        ("info 1\n", "inf 1\n", "info", "inf", 1),
        ("id_sum 1464983241\n", "id_sum 1464984000\n", "1464983241", "1464984000", 1),
        ("hash 0xdeadbeef\n", "hash 0xdeadbef0\n", "0xdeadbeef", "0xdeadbef0", 1),
        ("count 100000\n", "count 100001\n", "100000", "100001", 1),
        (
            "big 18446744073709551615\n",
            "big 18446744073709551614\n",
            "18446744073709551615",
            "18446744073709551614",
            1,
        ),
    ],
)
def test_first_mismatch_is_reported_with_context(
    expected, actual, first_expected, first_actual, line
):
    found = compare_text("stdout", expected, actual, SPEC)
    assert found, "expected a mismatch"
    assert (found[0].expected, found[0].actual, found[0].line) == (
        first_expected,
        first_actual,
        line,
    )
    context = (
        found[0].actual_context
        if first_expected == "<end of output>"
        else found[0].expected_context
    )
    source = actual if first_expected == "<end of output>" else expected
    assert context == source.splitlines()[line - 1].strip()


def test_tolerances_and_ignored_lines_come_from_the_spec():
    loose = RunSpec(rtol=1e-2, ignore_lines=(r"^elapsed",))
    assert compare_text("stdout", "r 1.00\nelapsed 3 ms\n", "r 1.005\nelapsed 9 ms\n", loose) == []
    assert compare_text("stdout", "r 1.00\nelapsed 3 ms\n", "r 1.005\nelapsed 9 ms\n", SPEC)


def test_reports_are_capped():
    exp = " ".join(str(i) for i in range(100))
    act = " ".join(str(i + 1) for i in range(100))
    assert len(compare_text("stdout", exp, act, SPEC)) == 10


def test_tokenizer_keeps_identifiers_whole():
    tokens = [(t.text, t.value) for t in tokenize("float4 sm_90 x=-2.5e3, 3.5.")]
    assert tokens == [("float4", None), ("sm_90", None), ("x=", None), ("-2.5e3", -2500.0),
                      (",", None), ("3.5", 3.5), (".", None)]  # fmt: skip


def test_numbers_close_edge_cases():
    assert numbers_close(2**62, 2**62, 0, 0)
    assert not numbers_close(1, 2, 1e-5, 0)
    assert numbers_close(math.nan, math.nan, 0, 0)


def test_integers_are_exact_unless_the_spec_declares_a_tolerance():
    assert not integers_close(1464983241, 1464984000)  # within the float rtol, yet wrong
    assert integers_close(2**64 - 1, 2**64 - 1)
    assert not integers_close(2**64 - 1, 2**64 - 2)  # no rounding through float
    assert integers_close(1000, 1003, int_atol=3) and not integers_close(1000, 1004, int_atol=3)
    assert integers_close(1000, 1010, int_rtol=0.01) and not integers_close(
        1000, 1011, int_rtol=0.01
    )


def test_an_integer_tolerance_is_used_and_named():
    spec = RunSpec(int_atol=2)
    assert compare_text("stdout", "hits 500\n", "hits 502\n", spec) == []
    found = compare_text("stdout", "hits 500\n", "hits 503\n", spec)
    assert found and found[0].message == "integers differ (integers within int_atol=2)"
    assert compare_text("stdout", "f 1.5\n", "f 1.6\n", spec), (
        "the integer tolerance is not a float one"
    )


def _f32(*values: float) -> bytes:
    return struct.pack(f"<{len(values)}f", *values)


def test_typed_array_files():
    out = OutputFile("v.bin", "f32")
    assert compare_file(out, _f32(1, 2, 3), _f32(1, 2.000001, 3), SPEC) == []
    found = compare_file(out, _f32(1, 2, 3), _f32(1, 2.5, 3), SPEC)
    assert found[0].message.startswith("element [1] differs") and found[0].actual == "2.5"
    assert compare_file(out, _f32(1, 2), _f32(1), SPEC)[0].message == "array lengths differ"


def test_missing_and_binary_files():
    assert (
        compare_file(OutputFile("o.txt"), b"1", None, SPEC)[0].message
        == "the port did not write o.txt"
    )
    found = compare_file(OutputFile("b", "bytes"), b"\x00\x01\x02", b"\x00\x01\x03", SPEC)
    assert found[0].message == "bytes differ from offset 2"


def test_results_compare_exit_codes_then_stdout():
    ref = RunResult("recorded", 0, "ok 1\n")
    crashed = RunResult("emulator", 139, "ok 1\n", stderr="segfault", signal=11)
    found = compare_results(ref, crashed, SPEC)
    assert found[0].where == "exit_code" and "crashed with signal 11" in found[0].message
    assert compare_results(ref, crashed, RunSpec(compare_exit_code=False)) == []


def test_typed_arrays_without_numpy(monkeypatch):
    monkeypatch.setitem(__import__("sys").modules, "numpy", None)  # the standard-library path
    out = OutputFile("v.bin", "f32")
    assert compare_file(out, _f32(1, 2, 3), _f32(1, 2.000001, 3), SPEC) == []
    assert compare_file(out, _f32(1, 2, 3), _f32(1, 2.5, 3), SPEC)[0].message.startswith(
        "element [1]"
    )


def test_integer_arrays_compare_large_values_exactly():
    out = OutputFile("v.bin", "i64")
    big = struct.pack("<2q", 2**62, -(2**62))
    assert compare_file(out, big, big, SPEC) == []
    assert compare_file(out, big, struct.pack("<2q", 2**62 + 1, -(2**62)), RunSpec(rtol=0, atol=0))


@pytest.mark.parametrize("numpy_present", [True, False])
def test_integer_arrays_ignore_the_float_tolerance(monkeypatch, numpy_present):
    if not numpy_present:
        monkeypatch.setitem(__import__("sys").modules, "numpy", None)
    out = OutputFile("ids.bin", "u32")
    expected, actual = struct.pack("<2I", 1464983241, 7), struct.pack("<2I", 1464984000, 7)
    found = compare_file(out, expected, actual, SPEC)
    assert [m.message for m in found] == ["element [0] differs (integers exact)"]
    assert compare_file(out, expected, actual, RunSpec(int_atol=759)) == []
