"""The packaging recipe and the dependency direction (STYLE.md), checked on the real tree."""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
PACKAGE_DIRS = PYPROJECT["tool"]["setuptools"]["package-dir"]  # "cass.runner" -> "runner"
LISTED = set(PYPROJECT["tool"]["setuptools"]["packages"])
FOLDER_OF = {folder: name for name, folder in PACKAGE_DIRS.items()}  # "runner" -> "cass.runner"

# Which parts of cass each folder may import. The front ends (hooks, the CLI in server/cli, the
# language server in server/lsp) are imported by nobody, not even by each other: what they share
# (port -> verify -> mirror -> gate) is cass.models.workflow. server/__init__.py and
# server/__main__.py (`python -m cass.server`) are the language server's entry point.
ALLOWED_IMPORTS = {
    "runner": {"cass.runner"},
    "models": {"cass.runner", "cass.models"},
    "hooks": {"cass.runner", "cass.models", "cass.hooks"},
    "server": {"cass.runner", "cass.models", "cass.server.lsp"},
    "server/cli": {"cass.runner", "cass.models", "cass.server.cli"},
    "server/lsp": {"cass.runner", "cass.models", "cass.server.lsp"},
}
BARE_NAMES = {"runner", "models", "server", "hooks"}


def package_folders() -> list[tuple[Path, str]]:
    """Every folder with an __init__.py under the mapped top-level folders, with its import name."""
    found = []
    for folder, name in FOLDER_OF.items():
        for init in sorted((ROOT / folder).rglob("__init__.py")):
            rel = init.parent.relative_to(ROOT / folder)
            if "__pycache__" in rel.parts or any(p.startswith(".") for p in rel.parts):
                continue
            found.append((init.parent, ".".join([name, *rel.parts])))
    return found


def test_every_package_folder_is_listed_in_pyproject():
    unlisted = [
        f"{path.relative_to(ROOT)} ({name})"
        for path, name in package_folders()
        if name not in LISTED
    ]
    assert not unlisted, f"add to [tool.setuptools] packages in pyproject.toml: {unlisted}"


def test_every_listed_package_exists_and_has_py_typed():
    folders = {name: path for path, name in package_folders()}
    missing = sorted(name for name in LISTED if name not in folders)
    untyped = sorted(name for name, path in folders.items() if not (path / "py.typed").is_file())
    assert not missing, f"listed in pyproject but no such package folder: {missing}"
    assert not untyped, f"add a py.typed file to: {untyped}"


def _imports(path: Path, package: str) -> list[tuple[int, str]]:
    """(line, absolute module) for every import in a file; relative imports resolved."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                found.append((node.lineno, ".".join(base + ([node.module] if node.module else []))))
            elif node.module:
                found.append((node.lineno, node.module))
    return found


def _rule_for(rel: Path) -> set[str]:
    """The rule of the innermost folder of ALLOWED_IMPORTS holding `rel`."""
    folders = [f for f in ALLOWED_IMPORTS if rel.as_posix().startswith(f + "/")]
    return ALLOWED_IMPORTS[max(folders, key=len)]


def _part_of(module: str) -> str:
    """The part of cass a module belongs to: cass.runner, cass.models, cass.hooks, or one of the
    two front ends under cass.server (cass.server.cli, cass.server.lsp)."""
    depth = 3 if module.startswith("cass.server.") else 2
    return ".".join(module.split(".")[:depth])


def python_files():
    for folder, name in FOLDER_OF.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT)
            if "node_modules" in rel.parts or any(p.startswith(".") for p in rel.parts):
                continue
            package = ".".join([name, *path.parent.relative_to(ROOT / folder).parts])
            yield path, rel, package


def test_imports_point_one_way():
    violations = []
    for path, rel, package in python_files():
        allowed = _rule_for(rel)
        for line, module in _imports(path, package):
            top = module.split(".")[0]
            if top in BARE_NAMES:
                violations.append(
                    f"{rel}:{line}: bare `import {module}`: import cass.{module} instead"
                )
            if top == "cass" and module.count(".") >= 1:
                part = _part_of(module)
                if part not in allowed:
                    violations.append(
                        f"{rel}:{line}: {part} may not be imported from {rel.parts[0]}/"
                    )
    assert not violations, "\n".join(violations)


@pytest.mark.parametrize(
    "source, rel, expected",
    [
        ("from cass.server import x\n", "runner/a.py", "cass.server"),
        ("import cass.models.engine\n", "runner/a.py", "cass.models"),
        ("from cass.hooks.ci import gate\n", "models/a.py", "cass.hooks"),
        ("from cass.server.cli import main\n", "hooks/a.py", "cass.server.cli"),
        ("from cass.hooks.work import guarded_main\n", "server/cli/a.py", "cass.hooks"),
        ("from cass.server.lsp import serve\n", "server/cli/a.py", "cass.server.lsp"),
        ("from cass.server.cli import main\n", "server/lsp/a.py", "cass.server.cli"),
        ("import cass.server\n", "server/lsp/a.py", "cass.server"),
    ],
)
def test_the_rule_catches_a_wrong_way_import(tmp_path, source, rel, expected):
    path = tmp_path / "a.py"
    path.write_text(source)
    modules = [m for _, m in _imports(path, "cass.x")]
    parts = {_part_of(m) for m in modules}
    assert expected in parts and expected not in _rule_for(Path(rel))


def test_relative_imports_resolve_to_the_package(tmp_path):
    path = tmp_path / "a.py"
    path.write_text("from . import toolchain\nfrom ..models import engine\n")
    assert [m for _, m in _imports(path, "cass.runner.emulator")] == [
        "cass.runner.emulator",
        "cass.runner.models",
    ]
