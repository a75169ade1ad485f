"""Verdicts from two runs (the pure core of verify): statuses, messages, ratios."""

from __future__ import annotations

import pytest
from cass.runner.results import RunResult
from cass.runner.spec import RunSpec
from cass.runner.verify import judge, memory_ratio, runtime_ratio

SPEC = RunSpec()
NAMES = ("recorded", "emulator")


def ref(stdout="sum 1.5\n", **kw):
    return RunResult("recorded", kw.pop("exit_code", 0), stdout, runtimes_s=(0.010,), **kw)


def port(stdout="sum 1.5\n", backend="emulator", **kw):
    return RunResult(backend, kw.pop("exit_code", 0), stdout, runtimes_s=(0.020,), **kw)


@pytest.mark.parametrize(
    ("reference", "candidate", "status", "fragment"),
    [
        (ref(), port(), "match", "the port matches the original (stdout and exit code"),
        (
            ref(),
            port("sum 1.6\n"),
            "mismatch",
            "stdout:1: numbers differ beyond rtol=1e-05, atol=1e-08: expected '1.5', got '1.6'",
        ),
        (
            ref(),
            port(exit_code=139, signal=11),
            "mismatch",
            "exit codes differ (port crashed with signal 11)",
        ),
        (
            ref(),
            port(exit_code=None, timed_out=True, error="no result within the 5 s time limit"),
            "error",
            "the port (emulator) timed out (no result within the 5 s",
        ),
        (
            ref(),
            port(exit_code=None, output_truncated=True, error="printed more than 10 bytes"),
            "error",
            "killed: printed more than 10 bytes",
        ),
        (
            ref(exit_code=None, timed_out=True),
            port(),
            "unverifiable",
            "the original (recorded) timed out",
        ),
        (
            ref(exit_code=None, error="input file in.txt not found"),
            port(),
            "unverifiable",
            "input file in.txt not found",
        ),
    ],
)
def test_statuses(reference, candidate, status, fragment):
    verdict = judge(reference, candidate, SPEC, NAMES)
    assert verdict.status == status
    assert fragment in verdict.message
    assert verdict.to_dict()["status"] == status


def test_mismatch_lists_first_differences_in_order():
    verdict = judge(ref("a 1\nb 2\nc 3\n"), port("a 1\nb 9\nc 8\n"), SPEC, NAMES)
    assert [(m.line, m.expected, m.actual) for m in verdict.mismatches] == [
        (2, "2", "9"),
        (3, "3", "8"),
    ]


def test_ratios_need_comparable_measurements():
    hardware = port(backend="rocm", peak_rss_kib=300)
    assert runtime_ratio(ref(peak_rss_kib=100), hardware) == pytest.approx(2.0)
    assert memory_ratio(ref(peak_rss_kib=100), hardware) == pytest.approx(3.0)
    assert runtime_ratio(ref(), port()) is None  # an emulator's wall time is no GPU time
    both_device = (
        ref(device_time_s=0.5, device_peak_bytes=1000),
        port(device_time_s=0.25, device_peak_bytes=1000),
    )
    assert runtime_ratio(*both_device) == pytest.approx(0.5)
    assert memory_ratio(*both_device) == pytest.approx(1.0)


def test_a_failing_original_is_unverifiable_even_when_the_port_fails_alike():
    failing = ref("", exit_code=1, stderr="cannot open in.txt\n")
    verdict = judge(failing, port("", exit_code=1), SPEC, NAMES)
    assert verdict.status == "unverifiable"
    assert (
        "the original (recorded) exited with code 1 (cannot open in.txt), not 0" in verdict.message
    )
    assert "expected_exit_code" in verdict.message


@pytest.mark.parametrize(
    "original", [ref(exit_code=139, signal=11), ref(exit_code=None, timed_out=True)]
)
def test_a_crashing_or_hanging_original_is_unverifiable(original):
    assert judge(original, port(), SPEC, NAMES).status == "unverifiable"


def test_a_declared_exit_code_makes_a_failing_original_comparable():
    spec = SPEC.replace(expected_exit_code=3)
    assert (
        judge(ref("usage\n", exit_code=3), port("usage\n", exit_code=3), spec, NAMES).status
        == "match"
    )
    assert (
        judge(ref("usage\n", exit_code=3), port("usage\n", exit_code=0), spec, NAMES).status
        == "mismatch"
    )
    assert (
        judge(ref("usage\n", exit_code=0), port("usage\n", exit_code=0), spec, NAMES).status
        == "unverifiable"
    )


def test_integer_outputs_are_exact_and_the_verdict_names_the_rule():
    exact = judge(ref("id_sum 1464983241\n"), port("id_sum 1464984000\n"), SPEC, NAMES)
    assert exact.status == "mismatch" and "integers differ (integers exact)" in exact.message
    loose = SPEC.replace(int_atol=1000)
    verdict = judge(ref("id_sum 1464983241\n"), port("id_sum 1464984000\n"), loose, NAMES)
    assert verdict.status == "match" and "integers within int_atol=1000" in verdict.message
    assert "integers exact" in judge(ref(), port(), SPEC, NAMES).message
