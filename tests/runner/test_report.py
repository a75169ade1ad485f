"""The verdict as people see it: status, sides, first differences, text kept verbatim."""

from __future__ import annotations

from cass.runner.report import render, summary_line
from cass.runner.results import RunResult
from cass.runner.spec import RunSpec
from cass.runner.verify import judge
from rich.console import Console


def _text(renderable) -> str:
    console = Console(record=True, width=200)
    console.print(renderable)
    return console.export_text()


def test_mismatch_report_keeps_brackets_and_shows_the_values():
    ref = RunResult(
        "recorded", 0, "y[n-1] = 9.19\n", runtimes_s=(0.1,), info={"gpu": "NVIDIA H200"}
    )
    port = RunResult(
        "emulator",
        0,
        "y[n-1] = 11.2\n",
        runtimes_s=(1.0,),
        device_time_s=2e-6,
        device_peak_bytes=32768,
    )
    verdict = judge(ref, port, RunSpec(), ("recorded", "emulator"), original="k.cu", port="k.hip")
    text = _text(render(verdict))
    assert text.startswith("MISMATCH")
    assert "- y[n-1] = 9.19" in text and "+ y[n-1] = 11.2" in text
    assert "recorded (NVIDIA H200)" in text and "2.0 µs" in text and "32.0 KiB device" in text
    assert summary_line(verdict).startswith("MISMATCH k.cu vs k.hip [recorded -> emulator]:")
