"""One way to run a tool, one way to put a file in place, exit codes only in front ends.

Every program cass starts goes through `cass.runner.tools.run_tool` (or, for a program under test,
`cass.runner.process.run_limited`); only the containment layer below them starts processes
itself. Every file or folder put in place by a rename goes through `cass.runner.outputs`. Library
packages raise typed errors and never choose an exit status. The scans read the syntax tree, so
function-level imports and aliases count.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest
from cass.runner.diagnostics import CassError, WorkError
from cass.runner.inputs import InputError, UnusableInput
from cass.runner.outputs import OutputError
from cass.runner.process import RunCancelled
from cass.runner.tools import ToolError, run_tool

ROOT = Path(__file__).resolve().parents[2]
FOLDERS = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"][
    "package-dir"
].values()

# The containment layer: the only modules that start processes themselves.
PROCESS_LAYER = {
    "runner/process.py": "run_limited: the contained run every tool and program goes through",
    "runner/launcher.py": "builds cass-launch, which run_limited needs before it can contain anything",
    "runner/limits.py": "probes whether unshare works, below run_limited (which imports it)",
}
# Modules (or folders, ending in /) still to convert, each with the reason. Only shrink these.
EMULATOR = "the emulator is being split and given a JIT (issue 21 item 6); converted with that work"
PENDING_PROCESSES = {
    "runner/emulator/": EMULATOR,
    "server/lsp/jobs.py": "an asyncio child the event loop awaits and cancels; run_tool blocks a thread",
    "models/dataset/collect.py": "new module in progress elsewhere; convert to run_tool",
}
PENDING_RENAMES = {
    "runner/emulator/": EMULATOR,
}
PROCESS_CALLS = {
    ("os", "system"), ("os", "popen"), ("os", "fork"), ("os", "forkpty"), ("os", "posix_spawn"),
    ("os", "posix_spawnp"), ("asyncio", "create_subprocess_exec"), ("asyncio", "create_subprocess_shell"),
    ("pty", "spawn"),
}  # fmt: skip
SPAWN_PREFIX = ("spawnl", "spawnv")  # os.spawnl, os.spawnvp, ...


def _modules() -> list[tuple[str, ast.Module]]:
    found = []
    for folder in sorted(FOLDERS):
        for path in sorted((ROOT / folder).rglob("*.py")):
            rel = path.relative_to(ROOT).as_posix()
            if "__pycache__" not in rel and "/." not in rel:
                found.append((rel, ast.parse(path.read_text(encoding="utf-8"), filename=rel)))
    return found


MODULES = _modules()


def _dotted(node: ast.AST) -> tuple[str, str] | None:
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return node.value.id, node.attr
    return None


def process_starts(tree: ast.Module) -> list[str]:
    """`subprocess` imports and calls that start a process outside the tool runner."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [
                f"line {node.lineno}: import {a.name}" for a in node.names if a.name == "subprocess"
            ]
        elif isinstance(node, ast.ImportFrom) and node.module == "subprocess":
            found.append(f"line {node.lineno}: from subprocess import ...")
        elif isinstance(node, ast.Call) and (name := _dotted(node.func)):
            if name in PROCESS_CALLS or (name[0] == "os" and name[1].startswith(SPAWN_PREFIX)):
                found.append(f"line {node.lineno}: {name[0]}.{name[1]}(...)")
    return found


def hand_renames(tree: ast.Module) -> list[str]:
    """Renames into place by hand: `os.replace`, `os.rename`, `shutil.move`, and a one-argument
    `.replace(x)` / `.rename(x)` method call (Path's; `str.replace` takes two)."""
    found = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Attribute):
            continue
        name = _dotted(node.func)
        if name in {("os", "replace"), ("os", "rename"), ("os", "renames"), ("shutil", "move")}:
            found.append(f"line {node.lineno}: {name[0]}.{name[1]}(...)")
        elif name is None or name[0] not in ("os", "shutil"):
            if (
                node.func.attr in ("replace", "rename")
                and len(node.args) == 1
                and not node.keywords
            ):
                found.append(f"line {node.lineno}: .{node.func.attr}(...)")
    return found


def exit_code_choices(tree: ast.Module) -> list[str]:
    """Where a library module picks an exit status: argparse, sys.exit / SystemExit, or an
    `exit_code=` argument to an error."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(a.name == "argparse" for a in node.names):
            found.append(f"line {node.lineno}: import argparse")
        elif isinstance(node, ast.Call):
            if _dotted(node.func) == ("sys", "exit"):
                found.append(f"line {node.lineno}: sys.exit(...)")
            if isinstance(node.func, ast.Name) and node.func.id == "SystemExit":
                found.append(f"line {node.lineno}: SystemExit(...)")
            if isinstance(node.func, ast.Name) and node.func.id.endswith("Error"):
                found += [
                    f"line {node.lineno}: {node.func.id}(exit_code=...)"
                    for k in node.keywords
                    if k.arg == "exit_code"
                ]
    return found


def _listed(rel: str, listing: dict[str, str]) -> bool:
    return any(rel == entry or (entry.endswith("/") and rel.startswith(entry)) for entry in listing)


def _stale(listing: dict[str, str], found: dict[str, list[str]]) -> list[str]:
    return sorted(
        e
        for e in listing
        if (ROOT / e).exists() and not any(_listed(rel, {e: ""}) for rel in found)
    )


def test_only_the_containment_layer_starts_processes():
    found = {rel: hits for rel, tree in MODULES if (hits := process_starts(tree))}
    new = {
        rel: hits
        for rel, hits in found.items()
        if not _listed(rel, PROCESS_LAYER | PENDING_PROCESSES)
    }
    assert not new, (
        "start tools with cass.runner.tools.run_tool(argv, what, timeout) (programs under test: "
        f"cass.runner.process.run_limited), not directly: {new}"
    )
    stale = _stale(PENDING_PROCESSES, found)
    assert not stale, f"converted: take them off PENDING_PROCESSES: {stale}"


def test_only_outputs_renames_files_into_place():
    found = {rel: hits for rel, tree in MODULES if (hits := hand_renames(tree))}
    new = {
        rel: hits
        for rel, hits in found.items()
        if rel != "runner/outputs.py" and not _listed(rel, PENDING_RENAMES)
    }
    assert not new, (
        "put files in place with cass.runner.outputs (write_atomic, install_file, staged_file, "
        f"staged_dir), not by renaming them by hand: {new}"
    )
    stale = _stale(PENDING_RENAMES, found)
    assert not stale, f"converted: take them off PENDING_RENAMES: {stale}"


PENDING_SCRIPTS: dict[str, str] = {}  # library modules still choosing exit statuses


def test_library_packages_choose_no_exit_status():
    front_ends = ("server/", "hooks/")
    found = {
        rel: hits
        for rel, tree in MODULES
        if not rel.startswith(front_ends) and (hits := exit_code_choices(tree))
    }
    assert not _stale(PENDING_SCRIPTS, found), "converted: take them off PENDING_SCRIPTS"
    found = {rel: hits for rel, hits in found.items() if not _listed(rel, PENDING_SCRIPTS)}
    assert not found, (
        "library packages raise typed errors (cass.runner.diagnostics: CassError, WorkError, ...); "
        f"argument parsing and exit statuses belong to the front ends (server/cli, hooks): {found}"
    )


def test_the_scans_see_what_they_look_for():
    """The scans above would catch each form (so an empty result means something)."""
    code = ast.parse(
        "import subprocess\nfrom subprocess import run\nimport os, asyncio, sys, argparse\n"
        "os.system('x')\nasyncio.create_subprocess_exec('x')\nos.spawnvp(0, 'x', [])\n"
        "os.replace(a, b)\np.replace(q)\ns.replace('a', 'b')\nshutil.move(a, b)\n"
        "sys.exit(2)\nraise CassError('m', exit_code=1)\n"
    )
    assert len(process_starts(code)) == 5
    assert [hit.split(": ")[1] for hit in hand_renames(code)] == [
        "os.replace(...)",
        ".replace(...)",
        "shutil.move(...)",
    ]
    assert len(exit_code_choices(code)) == 3


@pytest.mark.parametrize(
    ("error", "work"),
    [
        (CassError("x"), False),
        (InputError("x"), False),
        (OutputError("x"), False),
        (WorkError("x"), True),
        (UnusableInput("x"), True),
        (ToolError("x"), True),
    ],
)
def test_error_classes_say_what_kind_of_failure(error, work):
    assert isinstance(error, CassError) and isinstance(error, WorkError) is work
    assert not hasattr(error, "exit_code")


def test_cli_and_hooks_pick_exit_statuses_from_the_class():
    from cass.hooks.work import exit_status as hook_status
    from cass.server.cli.errors import ProgramEnded, exit_status

    assert [
        exit_status(e)
        for e in (CassError("x"), WorkError("x"), RunCancelled(), ProgramEnded("x", 124))
    ] == [2, 1, 130, 124]
    assert [hook_status(e) for e in (CassError("x"), ToolError("x"), RunCancelled())] == [2, 1, 130]


def test_run_tool_resolves_names_and_contains_the_run(tmp_path):
    run = run_tool(["llvm-cxxfilt-16", "_Z3addPfi"], "demangling", 30)
    assert run.ok and run.stdout.strip() == "add(float*, int)" and Path(run.argv[0]).is_absolute()
    with pytest.raises(CassError, match=r"^probing: `cass-no-such-tool` is not installed"):
        run_tool(["cass-no-such-tool"], "probing", 5)
    script = "sleep 30 & echo $! > child; wait"
    with pytest.raises(ToolError, match=r"^sleeping did not finish within 0\.5 s and was stopped$"):
        run_tool(["sh", "-c", script], "sleeping", 0.5, cwd=tmp_path)
    child = int((tmp_path / "child").read_text())
    assert (
        not Path(f"/proc/{child}").exists()
        or "Z" in Path(f"/proc/{child}/stat").read_text().split(")")[1][:3]
    )
    with pytest.raises(ToolError, match=r"^flooding printed more than 1000 bytes"):
        run_tool(["yes"], "flooding", 30, max_output_bytes=1000)
    with pytest.raises(ToolError, match=r"^failing failed \(exit 3\): bad input$"):
        run_tool(["sh", "-c", "echo bad input >&2; exit 3"], "failing", 30, check=True)
