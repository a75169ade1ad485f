"""The size budget (STYLE.md: functions rarely over ~60 lines, modules under ~400): a function or
module over it needs a reason in its docstring, a paragraph starting with `Size:`. A function's
size leaves out signatures (its own and nested ones': a command's option list, one per line as the
formatter writes it, is declaration, not logic). Those over
budget before the check existed are listed in size_baseline.txt; only new ones fail. Generated
files (a "generated" header line) do not count.

    .venv/bin/python tests/foundation/test_size_budget.py            # list every offender
    .venv/bin/python tests/foundation/test_size_budget.py --baseline # rewrite the baseline
"""

from __future__ import annotations

import ast
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BASELINE = Path(__file__).with_name("size_baseline.txt")
FUNCTION_LINES = 60
MODULE_LINES = 400
FOLDERS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
    "package-dir"
].values()


def _has_reason(node: ast.AST) -> bool:
    doc = ast.get_docstring(node) or ""  # type: ignore[arg-type]
    return any(line.strip().startswith("Size:") for line in doc.splitlines())


def _generated(text: str) -> bool:
    return any("generated" in line.lower() for line in text.splitlines()[:5])


def function_lines(function: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines of `function` without the signatures in it (from `def` to the first statement)."""
    lines = set(range(function.lineno, (function.end_lineno or function.lineno) + 1))
    for node in ast.walk(function):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            lines -= set(range(node.lineno, node.body[0].lineno))
    return len(lines)


def offenders_in(path: Path, rel: str) -> list[str]:
    """`rel` (a module over budget) and `rel::Qualified.name` (functions over budget)."""
    text = path.read_text(encoding="utf-8")
    if _generated(text):
        return []
    tree = ast.parse(text, filename=rel)
    found = []
    if len(text.splitlines()) > MODULE_LINES and not _has_reason(tree):
        found.append(rel)

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                name = f"{prefix}{child.name}"
                if not isinstance(child, ast.ClassDef):
                    if function_lines(child) > FUNCTION_LINES and not _has_reason(child):
                        found.append(f"{rel}::{name}")
                visit(child, name + ".")

    visit(tree, "")
    return found


def offenders() -> list[str]:
    found = []
    for folder in sorted(FOLDERS):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if "__pycache__" in rel or "/." in rel:
                continue
            found += offenders_in(path, rel)
    return found


def baseline() -> set[str]:
    lines = BASELINE.read_text(encoding="utf-8").splitlines()
    return {line.strip() for line in lines if line.strip() and not line.startswith("#")}


def test_no_new_code_over_the_size_budget():
    new = [name for name in offenders() if name not in baseline()]
    assert not new, (
        f"over the size budget (functions > {FUNCTION_LINES} lines, modules > {MODULE_LINES}): "
        "split it, or give the reason in its docstring (a paragraph starting with `Size:`):\n"
        + "\n".join(new)
    )


def test_the_check_measures_functions_and_reasons(tmp_path):
    body = "\n".join(f"    x = {i}" for i in range(FUNCTION_LINES))
    path = tmp_path / "m.py"
    path.write_text(
        f"def long():\n{body}\n    return x\n\nclass C:\n    def ok(self):\n        pass\n"
    )
    assert offenders_in(path, "m.py") == ["m.py::long"]
    path.write_text(f'def long():\n    """Size: one table."""\n{body}\n')
    assert offenders_in(path, "m.py") == []
    options = "\n".join(f"    option{i}: int = {i}," for i in range(FUNCTION_LINES))
    path.write_text(f"def command(\n{options}\n) -> None:\n    pass\n")
    assert offenders_in(path, "m.py") == []  # a long option list is declaration, not logic


if __name__ == "__main__":
    current = offenders()
    if "--baseline" in sys.argv:
        header = (
            "# Over the size budget when the check began (tests/foundation/test_size_budget.py).\n"
        )
        BASELINE.write_text(header + "".join(f"{name}\n" for name in current), encoding="utf-8")
    print("\n".join(current))
