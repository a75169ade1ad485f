"""Compiler messages of every dialect become located diagnostics (table-driven)."""

from __future__ import annotations

import pytest
from cass.runner.compiler_output import error_summary, parse_compiler_output
from cass.runner.diagnostics import Severity

CASES = [
    (
        'k.cu(3): error: expected a ";"\n    a[i] = foo;\n    ^\n',
        "nvcc",
        [("k.cu", 3, 3, Severity.ERROR, "nvcc", 'expected a ";"')],
    ),
    (
        'k.cu(2): warning #177-D: variable "i" was declared but never referenced\n    int i = 0;\n        ^\n',
        "nvcc",
        [
            (
                "k.cu",
                2,
                7,
                Severity.WARNING,
                "nvcc-177-D",
                'variable "i" was declared but never referenced',
            )
        ],
    ),
    (
        'k.cu(1): catastrophic error: cannot open source file "missing.h"\n',
        "nvcc",
        [("k.cu", 1, 1, Severity.ERROR, "nvcc", 'cannot open source file "missing.h"')],
    ),
    (
        "k.hip:3:11: error: expected ';' after expression\n  a[0] = 1\n          ^\n",
        "clang",
        [("k.hip", 3, 11, Severity.ERROR, "clang", "expected ';' after expression")],
    ),
    (
        "k.hip:4:7: warning: unused variable 'x' [-Wunused-variable]\n",
        "clang",
        [("k.hip", 4, 7, Severity.WARNING, "clang-Wunused-variable", "unused variable 'x'")],
    ),
    (
        "k.s:10:2: error: invalid instruction\n\tv_bogus v1\n\t^\n",
        "llvm-mc",
        [("k.s", 10, 2, Severity.ERROR, "llvm-mc", "invalid instruction")],
    ),
    (
        "ptxas error   : Entry function '_Z1kv' uses too much shared data (0x20000 bytes, 0xc000 max)\n",
        "nvcc",
        [
            (
                "k.cu",
                1,
                1,
                Severity.ERROR,
                "ptxas",
                "Entry function '_Z1kv' uses too much shared data (0x20000 bytes, 0xc000 max)",
            )
        ],
    ),
    (
        "ld.lld: error: undefined symbol: foo\n",
        "ld.lld",
        [("k.cu", 1, 1, Severity.ERROR, "ld.lld", "undefined symbol: foo")],
    ),
    (
        "/tmp/tmpxft_0001_00000000-6_k.cudafe1.cpp:12:3: error: something in generated code\n",
        "nvcc",
        [("k.cu", 12, 3, Severity.ERROR, "nvcc", "something in generated code")],
    ),
]


@pytest.mark.parametrize("output, tool, expected", CASES)
def test_parse_compiler_output(output, tool, expected):
    diags = parse_compiler_output(output, tool, "k.cu")
    assert [(d.path, d.line, d.column, d.severity, d.code, d.message) for d in diags] == expected


def test_duplicate_messages_from_host_and_device_passes_are_merged():
    once = "k.hip:3:11: error: expected ';' after expression\n"
    assert len(parse_compiler_output(once + once, "clang", "k.hip")) == 1


def test_error_summary_prefers_the_first_error_else_the_output_tail():
    diags = parse_compiler_output("k.cu(1): warning: w\nk.cu(2): error: e\n", "nvcc", "k.cu")
    assert error_summary(diags, "") == "e"
    assert error_summary([], "line one\n\nline two\n") == "line one / line two"
    assert error_summary([], "") == "no output"
