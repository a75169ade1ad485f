"""Argument evaluation order: a call whose arguments call the same zero-argument function is
reported (nvcc's GCC and clang evaluate the arguments in opposite orders), accessors are not."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest


@pytest.mark.parametrize(
    "source",
    [
        "void f(){ int4 r = make_int4(next() % 10, next() % 10, 0, 0); }",
        "void f(){ float3 v = make_float3(1.0f + (float)(uni()), 2.0f * uni(), 3.0f); }",
        "void f(){ use(std::rand(), std::rand()); }",
    ],
)
def test_same_stateful_call_in_two_arguments_is_reported(source, port_snippet):
    out, found = port_snippet(source)
    assert [d.line for d in found["CASS068"]] == [1]
    assert out.endswith(source)  # reported, never rewritten


@pytest.mark.parametrize(
    "source",
    [
        "void f(){ g(next(), 1); }",  # one argument
        "void f(){ g(next() + next()); }",  # one argument, operands in one expression
        "void f(){ std::sort(v.begin(), w.begin()); }",  # member accessors
        "void f(){ if (next() > next()) g(); }",  # not a call's arguments
        "void f(){ a(next()); b(next()); }",  # two calls
    ],
)
def test_other_shapes_are_not_reported(source, port_snippet):
    _, found = port_snippet(source)
    assert "CASS068" not in found


HOISTABLE = """#include <cstdio>
static int counter = 0;
int next_value() { return ++counter; }
int pick(int a, int b) { return 10 * a + b; }
int main() {
    int v = pick(next_value(), next_value());
    printf("%d\\n", v);
    for (int i = 0; i < pick(next_value(), next_value()) && i < 3; ++i) {}
    return 0;
}
"""


def _run_cpp(compiler: str, source: Path, exe: Path) -> str:
    subprocess.run(
        [compiler, "-x", "c++", str(source), "-o", str(exe)], check=True, capture_output=True
    )
    return subprocess.run([str(exe)], check=True, capture_output=True, text=True).stdout


@pytest.mark.toolchain
@pytest.mark.skipif(shutil.which("g++") is None, reason="needs g++ (nvcc's host compiler)")
def test_hoisting_gives_clang_the_values_gcc_gives_the_original(tmp_path, port_snippet):
    hoisted, found = port_snippet(HOISTABLE, hoist_argument_calls=True)
    plain, _ = port_snippet(HOISTABLE)
    [done, loop] = sorted(found["CASS068"], key=lambda d: d.line)
    assert "(done:" in done.message and "(done:" not in loop.message  # a loop condition stays
    assert (
        "auto&& cass_arg" in hoisted
        and "for (int i = 0; i < pick(next_value(), next_value())" in hoisted
    )
    for name, text in (("original.cpp", HOISTABLE), ("hoisted.cpp", hoisted), ("plain.cpp", plain)):
        (tmp_path / name).write_text(text.replace("#include <hip/hip_runtime.h>\n", ""))
    gcc = _run_cpp("g++", tmp_path / "original.cpp", tmp_path / "gcc")
    assert _run_cpp("clang++-16", tmp_path / "hoisted.cpp", tmp_path / "h") == gcc == "21\n"
    assert _run_cpp("clang++-16", tmp_path / "plain.cpp", tmp_path / "p") == "12\n"  # the hazard


def test_the_unhoisted_report_offers_the_rewrite_as_a_fix(port_snippet):
    _, found = port_snippet("void f(){ use(std::rand(), std::rand()); }")
    [report] = found["CASS068"]
    assert "--hoist-argument-calls" in report.message
    assert report.fix is not None and "auto&& cass_arg1 = std::rand();" in report.fix.replacement
