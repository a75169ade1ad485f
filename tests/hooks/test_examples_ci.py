"""The shipped CI examples and hook manifest agree with the CLI and the hooks that exist."""

from __future__ import annotations

import re
import shlex
import tomllib
from pathlib import Path

import yaml
from cass.server.cli import build_app

REPO = Path(__file__).resolve().parents[2]

CI = REPO / "examples" / "ci"


def ci_option_names() -> set[str]:
    import typer.main

    command = typer.main.get_command(build_app()).commands["ci"]  # type: ignore[attr-defined]
    return {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)}


def strings(node: object) -> list[str]:
    """Every string value in a loaded YAML document (YAML comments are gone by then)."""
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for value in node.values() for s in strings(value)]
    if isinstance(node, list):
        return [s for value in node for s in strings(value)]
    return []


def cass_ci_invocations(document: object) -> list[list[str]]:
    lines = [line.strip() for text in strings(document) for line in text.splitlines()]
    return [shlex.split(line[line.index("cass ci") :]) for line in lines if "cass ci" in line]


def test_workflows_are_yaml_and_use_real_options() -> None:
    known = ci_option_names()
    for name in ("github-actions.yml", "gitlab-ci.yml"):
        invocations = cass_ci_invocations(yaml.safe_load((CI / name).read_text()))
        assert invocations, name
        for argv in invocations:
            options = {a for a in argv[2:] if a.startswith("-")}
            assert options <= known, f"{name}: unknown options {options - known}"


def test_github_workflow_fetches_history_and_uploads_sarif() -> None:
    workflow = yaml.safe_load((CI / "github-actions.yml").read_text())
    steps = workflow["jobs"]["cass"]["steps"]
    assert steps[0]["with"]["fetch-depth"] == 0
    assert any(s.get("uses", "").startswith("github/codeql-action/upload-sarif") for s in steps)


def test_hook_manifest_matches_the_console_scripts() -> None:
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    scripts = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["scripts"]
    assert [h["id"] for h in hooks] == ["cass-port", "cass-verify", "cass-check"]
    for hook in hooks:
        assert hook["entry"] in scripts and hook["language"] == "python"
        pattern = re.compile(hook["files"])
        assert all(pattern.search(n) for n in ("a.cu", "b/c.cuh", "d.hip", "e.hip.h"))
        assert not any(pattern.search(n) for n in ("x.sass", "y.cpp", "z.cu.recorded.toml"))


def test_readme_lists_every_hook_id() -> None:
    readme = (REPO / "README.md").read_text()
    section = readme.split("## Git hooks and the CI gate", 1)[1].split("\n## ", 1)[0]
    for hook in yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text()):
        assert f"`{hook['id']}`" in section
    for option in ("--base", "--all", "--format", "--merge", "--force"):
        assert option in section
    from cass.models.workflow.mirror import CONFIG_KEYS

    for key in CONFIG_KEYS:
        assert f"| `{key}`" in section or f"`{key}` /" in section or f"/ `{key}`" in section, key
