"""The bridge: minimal text edits, positions in UTF-16, cass diagnostics and fixes as LSP."""

from __future__ import annotations

import pytest
from cass.runner.diagnostics import Diagnostic, Fix, Severity
from cass.server.lsp.bridge import (
    LineIndex,
    diagnostic_from_dict,
    fix_edit,
    fix_from_data,
    minimal_edits,
    to_lsp_diagnostic,
    word_at,
)
from lsp_testing import apply_text_edits
from lsprotocol import types as lsp

EDIT_CASES = [
    ("a\nb\nc\n", "a\nB\nc\n"),
    ("a\nb\nc\n", "a\nb\nc\nd\n"),
    ("a\nb\nc", "x\nb\nc"),
    ("a\nb\nc", "a\nb\nz"),  # the last line without a newline
    ("", "new file\n"),
    ("gone\n", ""),
    ("cudaMalloc(&p, n);\nkernel<<<1, 1>>>(p);\n", "hipMalloc(&p, n);\nkernel<<<1, 1>>>(p);\n"),
    ("é 😋\ncudaFree(p);\n", "é 😋\nhipFree(p);\n"),
]


@pytest.mark.parametrize(("old", "new"), EDIT_CASES)
def test_minimal_edits_turn_old_into_new(old: str, new: str) -> None:
    assert apply_text_edits(old, minimal_edits(old, new)) == new


def test_minimal_edits_touch_only_changed_lines() -> None:
    old = "".join(f"line {i}\n" for i in range(2000))
    new = old.replace("line 1000\n", "LINE 1000\n")
    edits = minimal_edits(old, new)
    assert len(edits) == 1
    assert edits[0].range.start == lsp.Position(1000, 0)
    assert edits[0].range.end == lsp.Position(1001, 0)
    assert edits[0].new_text == "LINE 1000\n"


def test_minimal_edits_keep_crlf_line_endings() -> None:
    old = "cudaMalloc(&p, n);\r\nint x;\r\n"
    edits = minimal_edits(old, "hipMalloc(&p, n);\nint x;\n")
    assert apply_text_edits(old, edits) == "hipMalloc(&p, n);\r\nint x;\r\n"
    assert minimal_edits(old, old.replace("\r\n", "\n")) == []


def test_positions_count_utf16_units() -> None:
    index = LineIndex("😋x\nab")
    assert index.position(1) == lsp.Position(0, 2)  # the emoji is two UTF-16 units
    assert index.offset(lsp.Position(0, 2)) == 1
    assert index.position(3) == lsp.Position(1, 0)
    assert index.offset(lsp.Position(9, 9)) == len("😋x\nab")
    assert LineIndex("😋x", "utf-32").position(1) == lsp.Position(0, 1)
    assert LineIndex("é", "utf-8").position(1) == lsp.Position(0, 2)


def test_diagnostic_carries_its_fix_and_docs_link() -> None:
    text = "int a = __shfl_down(v, 1);\n"
    fix = Fix("use __shfl_down_sync", 1, 9, 1, 20, "__shfl_down_sync")
    diagnostic = Diagnostic("k.cu", 1, 9, Severity.WARNING, "CASS021", "mask", 1, 20, fix)
    index = LineIndex(text)
    converted = to_lsp_diagnostic(diagnostic, index, {"CASS021": "file:///docs#cass021"})
    assert converted.range == lsp.Range(lsp.Position(0, 8), lsp.Position(0, 19))
    assert converted.severity == lsp.DiagnosticSeverity.Warning
    assert converted.code_description.href == "file:///docs#cass021"
    assert fix_from_data(converted.data) == fix
    fixed = apply_text_edits(text, [fix_edit(fix, index)])
    assert fixed == "int a = __shfl_down_sync(v, 1);\n"


def test_diagnostic_without_end_spans_the_word() -> None:
    converted = to_lsp_diagnostic(
        Diagnostic("k.cu", 2, 5, Severity.ERROR, "CASS010", "no HIP"),
        LineIndex("x\n    cuFoo(1);\n"),
    )
    assert converted.range == lsp.Range(lsp.Position(1, 4), lsp.Position(1, 9))


@pytest.mark.parametrize("data", [None, {}, {"fix": "x"}, {"fix": {"line": "one"}}, [1, 2]])
def test_garbage_fix_data_is_no_fix(data: object) -> None:
    assert fix_from_data(data) is None


def test_diagnostic_round_trips_through_dict() -> None:
    original = Diagnostic(
        "k.hip", 3, 1, Severity.ERROR, "compile", "undeclared", 3, 4, Fix("f", 3, 1, 3, 4, "x")
    )
    assert diagnostic_from_dict(original.to_dict()) == original
    assert diagnostic_from_dict({"path": "x"}) is None


def test_word_at() -> None:
    text = "x = cudaMalloc(&p);"
    assert word_at(text, 6) == (4, 14)
    assert word_at(text, 14) == (4, 14)
    assert word_at(text, 3) is None
