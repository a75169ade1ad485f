"""Argument evaluation order: a call whose arguments call the same zero-argument function is
reported (nvcc's GCC and clang evaluate the arguments in opposite orders), accessors are not."""

from __future__ import annotations

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
