"""No import cycles in any cass package: every module's imports (function-level ones included,
typing-only `if TYPE_CHECKING:` ones excluded: they never run) form an acyclic graph."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE_DIRS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
    "package-dir"
]  # "cass.runner" -> "runner"


def modules() -> dict[str, tuple[Path, bool]]:
    """Every module of cass: import name -> (file, is a package's __init__)."""
    found = {}
    for name, folder in PACKAGE_DIRS.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT / folder)
            if any(
                p == "__pycache__" or p.startswith(".") or p == "node_modules" for p in rel.parts
            ):
                continue
            parts = [name, *rel.with_suffix("").parts]
            is_package = parts[-1] == "__init__"
            found[".".join(parts[:-1] if is_package else parts)] = (path, is_package)
    return found


def _typing_only(tree: ast.AST) -> set[int]:
    """ids of the nodes inside `if TYPE_CHECKING:` blocks."""
    inside = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            inside |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return inside


def _targets(node: ast.AST, package: str, known: dict) -> list[str]:
    """The cass modules one import statement loads (`from pkg import submodule` loads the
    submodule; `from pkg import name` the package)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    elif isinstance(node, ast.ImportFrom):
        if node.level:
            parts = package.split(".")
            base = ".".join(
                parts[: len(parts) - node.level + 1] + ([node.module] if node.module else [])
            )
        else:
            base = node.module or ""
        subs = [f"{base}.{alias.name}" for alias in node.names]
        names = [s for s in subs if s in known] + (
            [base] if any(s not in known for s in subs) else []
        )
    else:
        return []
    out = []
    for name in names:
        while name and name not in known:
            name = name.rpartition(".")[0]
        if name:
            out.append(name)
    return out


def import_graph() -> dict[str, set[str]]:
    known = modules()
    graph: dict[str, set[str]] = {m: set() for m in known}
    for module, (path, is_package) in known.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        skip = _typing_only(tree)
        package = module if is_package else module.rpartition(".")[0]
        for node in ast.walk(tree):
            if id(node) not in skip:
                graph[module].update(t for t in _targets(node, package, known) if t != module)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_no_import_cycles():
    graph = import_graph()
    found = cycles(graph)
    described = [
        " <-> ".join(c) + ": " + "; ".join(f"{m} imports {sorted(graph[m] & set(c))}" for m in c)
        for c in found
    ]
    assert not found, "import cycles (move the shared part into its own module):\n" + "\n".join(
        described
    )


def test_the_check_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_function_level_and_typing_only_imports(tmp_path):
    path = tmp_path / "m.py"
    path.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import b\n"
        "def f():\n    from . import c\n"
    )
    tree = ast.parse(path.read_text())
    skip = _typing_only(tree)
    known = {"p": None, "p.b": None, "p.c": None}
    loaded = {t for n in ast.walk(tree) if id(n) not in skip for t in _targets(n, "p", known)}
    assert loaded == {"p.c"}
