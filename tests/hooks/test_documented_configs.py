"""The configurations the README documents work exactly as written.

The README's YAML blocks are the files in examples/ci/ (checked verbatim); those files are copied
unchanged into scratch projects and run by real pre-commit and real git. The repository URL they
name is cass's published one: git's `url.<base>.insteadOf` (through GIT_CONFIG_COUNT, which
pre-commit and pip pass on to git) points it at this checkout, so pre-commit and pip clone this
repository at the pinned commit exactly as they would clone the published one. The GitHub
Actions example runs step by step: its `run:` scripts in order, in a fresh virtualenv, on a
checkout of a pull request branch (`uses:` steps are GitHub's: the test does the checkout).
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from cass.hooks import port
from cass.runner.recorded import write_record
from cass.runner.results import RunResult
from cass.runner.spec import load_run_spec

REPO = Path(__file__).resolve().parents[2]
CI = REPO / "examples" / "ci"
PUBLISHED = "https://github.com/cass-project/cass"
BIN = str(Path(sys.executable).parent)
SAXPY_STDOUT = "y[0]=2 y[999]=1500.5 sum=751250.0\n"  # what saxpy.cu prints on an NVIDIA GPU


def readme_section() -> str:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    return readme.split("## Git hooks and the CI gate", 1)[1].split("\n## ", 1)[0]


def pinned_rev(text: str) -> str:
    found = re.search(r"(?:rev: |@)([0-9a-f]{40})\b", text)
    assert found, text
    return found.group(1)


def this_repository_as_published() -> dict[str, str]:
    """Environment that makes git fetch `PUBLISHED` from this checkout."""
    return {
        "GIT_CONFIG_COUNT": "1",
        "GIT_CONFIG_KEY_0": f"url.file://{REPO}.insteadOf",
        "GIT_CONFIG_VALUE_0": PUBLISHED,
    }


def record(source: Path) -> None:
    write_record(
        source,
        load_run_spec(source),
        RunResult(
            backend="nvidia", exit_code=0, stdout=SAXPY_STDOUT, info={"gpu": "reference fixture"}
        ),
    )


def sh(cwd: Path, command: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", "-ec", command],
        cwd=cwd,
        env=env,
        text=True,
        timeout=900,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )


def test_readme_blocks_are_the_example_files_and_the_pin_is_in_history() -> None:
    blocks = re.findall(r"```yaml\n(.*?)```", readme_section(), re.DOTALL)
    examples = {
        name: (CI / name).read_text()
        for name in ("pre-commit-config.yaml", "pre-commit-local.yaml")
    }
    assert len(blocks) == 2
    for block, text in zip(blocks, examples.values()):
        assert block in text
    extension = REPO / "editors" / "vscode" / "src" / "launch.ts"  # what it offers to install
    revs = {
        pinned_rev(text)
        for text in (
            examples["pre-commit-config.yaml"],
            extension.read_text(),
            *((CI / n).read_text() for n in ("github-actions.yml", "gitlab-ci.yml")),
        )
    }
    assert len(revs) == 1, revs  # one pin, bumped together at each release
    rev = revs.pop()
    assert (
        subprocess.run(
            ["git", "merge-base", "--is-ancestor", rev, "HEAD"], cwd=REPO, timeout=30
        ).returncode
        == 0
    ), f"{rev} is not in this repository's history"


@pytest.mark.toolchain
def test_repo_local_config_works_as_written(repo, example, tmp_path) -> None:
    repo.write(".pre-commit-config.yaml", (CI / "pre-commit-local.yaml").read_text())
    repo.write("saxpy.cu", example("saxpy.cu"))
    record(repo.root / "saxpy.cu")
    repo.git("add", ".")
    env = os.environ | {
        "PATH": f"{BIN}:{os.environ['PATH']}",
        "PRE_COMMIT_HOME": str(tmp_path / "store"),
        "PRE_COMMIT_COLOR": "never",
    }
    assert sh(repo.root, "pre-commit install", env).returncode == 0
    first = sh(repo.root, "git commit -m saxpy", env)
    assert first.returncode == 1 and "git add saxpy.hip" in first.stdout, first.stdout
    repo.git("add", "saxpy.hip")
    second = sh(repo.root, "git commit -m 'saxpy and its mirror'", env)
    assert second.returncode == 0, second.stdout
    assert re.search(r"cass verify .*Passed", second.stdout), second.stdout


@pytest.mark.slow
def test_pinned_config_works_as_written_and_its_advice_too(repo, example, tmp_path) -> None:
    repo.write(".pre-commit-config.yaml", (CI / "pre-commit-config.yaml").read_text())
    repo.write("saxpy.cu", example("saxpy.cu"))
    record(repo.root / "saxpy.cu")
    repo.git("add", ".")
    env = (
        os.environ
        | this_repository_as_published()
        | {
            "PRE_COMMIT_HOME": str(tmp_path / "store"),
            "PRE_COMMIT_COLOR": "never",
            "PATH": f"{BIN}:{os.environ['PATH']}",
        }
    )  # where the user's pre-commit is
    assert sh(repo.root, "pre-commit install", env).returncode == 0
    first = sh(repo.root, "git commit -m saxpy", env)
    assert first.returncode == 1 and "git add saxpy.hip" in first.stdout, first.stdout
    repo.git("add", "saxpy.hip")
    assert sh(repo.root, "git commit -m 'saxpy and its mirror'", env).returncode == 0

    repo.write("saxpy.hip", repo.read("saxpy.hip").replace("int main() {", "int main() { // mine"))
    repo.write("saxpy.cu", repo.read("saxpy.cu") + "// one more line\n")
    record(repo.root / "saxpy.cu")
    repo.git("add", ".")
    blocked = sh(repo.root, "git commit -m 'edit both'", env)
    advice = re.search(
        r"`(CASS_PORT_MODE=merge pre-commit run cass-port --files saxpy.cu)`", blocked.stdout
    )
    assert blocked.returncode == 1 and advice, blocked.stdout
    merged = sh(repo.root, advice.group(1), env)  # from the user's shell, as the message says
    assert "merged saxpy.hip" in merged.stdout, merged.stdout
    assert "int main() { // mine" in repo.read("saxpy.hip")
    repo.git("add", "saxpy.hip")
    done = sh(repo.root, "git commit -m 'edit both, merged'", env)
    assert done.returncode == 0, done.stdout


def pull_request(tmp_path: Path, example, refresh_reference: bool) -> Path:
    """origin (bare) with main, and a branch `feature` that changes saxpy.cu; the checkout of
    that branch with full history (fetch-depth: 0) is returned."""
    work, origin, checkout = tmp_path / "dev", tmp_path / "origin.git", tmp_path / "workspace"
    env = os.environ | {
        "GIT_AUTHOR_NAME": "Dev",
        "GIT_AUTHOR_EMAIL": "dev@example.com",
        "GIT_COMMITTER_NAME": "Dev",
        "GIT_COMMITTER_EMAIL": "dev@example.com",
    }
    for folder in (work, origin, checkout):
        if folder.exists():
            subprocess.run(["rm", "-rf", str(folder)], check=True)
    subprocess.run(["git", "init", "-q", "--bare", "-b", "main", str(origin)], check=True)
    work.mkdir()
    (work / "pyproject.toml").write_text("[tool.cass.mirror]\nverify = false\n")
    (work / "saxpy.cu").write_text(example("saxpy.cu"))
    record(work / "saxpy.cu")
    cwd = Path.cwd()
    os.chdir(work)
    try:
        steps = ["git init -q -b main", "git remote add origin ../origin.git"]
        assert sh(work, " && ".join(steps), env).returncode == 0
        port.main(["saxpy.cu"])
        assert (
            sh(
                work,
                "git add . && git commit -qm base && git push -q origin main && "
                "git checkout -qb feature",
                env,
            ).returncode
            == 0
        )
        changed = example("saxpy.cu").replace("__global__", "// y += a*x\n__global__", 1)
        (work / "saxpy.cu").write_text(changed)
        if refresh_reference:
            record(work / "saxpy.cu")  # recorded again on the GPU machine
        port.main(["saxpy.cu"])
    finally:
        os.chdir(cwd)
    assert (
        sh(work, "git add . && git commit -qm change && git push -q origin feature", env).returncode
        == 0
    )
    assert (
        sh(
            tmp_path,
            f"git clone -q {origin} {checkout} && cd {checkout} && git checkout -q feature",
            env,
        ).returncode
        == 0
    )
    return checkout


@pytest.mark.slow
def test_github_actions_steps_run_in_order(tmp_path, example) -> None:
    workflow = yaml.safe_load((CI / "github-actions.yml").read_text())
    steps = workflow["jobs"]["cass"]["steps"]
    assert steps[0]["uses"].startswith("actions/checkout") and steps[0]["with"]["fetch-depth"] == 0
    scripts = [step["run"] for step in steps if "run" in step]
    venv = tmp_path / "ci-python"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    env = {k: v for k, v in os.environ.items() if not k.startswith(("VIRTUAL_ENV", "PYTHON"))}
    env |= this_repository_as_published() | {
        "PATH": f"{venv / 'bin'}:{os.environ['PATH']}",
        "GIT_CONFIG_GLOBAL": str(tmp_path / "gc"),
        "GITHUB_EVENT_NAME": "pull_request",
        "GITHUB_BASE_REF": "main",
    }

    checkout = pull_request(tmp_path, example, refresh_reference=False)
    env["GITHUB_WORKSPACE"] = str(checkout)
    install = sh(checkout, scripts[0], env)
    assert install.returncode == 0, install.stdout[-3000:]
    gate = sh(checkout, scripts[1], env)
    assert gate.returncode == 1, gate.stdout  # the reference is stale: the step fails
    assert "NOT verified here (saxpy.cu)" in gate.stdout
    sarif = json.loads((checkout / "cass.sarif").read_text())
    result = sarif["runs"][0]["results"][0]
    assert result["ruleId"] == "reference-stale" and result["level"] == "error"
    assert "`cass verify --record saxpy.cu`" in result["message"]["text"]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "saxpy.cu"
    assert location["region"]["startLine"] == 5  # the line the pull request changed

    checkout = pull_request(tmp_path, example, refresh_reference=True)
    env["GITHUB_WORKSPACE"] = str(checkout)
    gate = sh(checkout, scripts[1], env)
    assert gate.returncode == 0, gate.stdout
    assert json.loads((checkout / "cass.sarif").read_text())["runs"][0]["results"] == []


def test_cass_version_and_the_changelog_follow_pyproject(capsys) -> None:
    import tomllib

    from cass.server.cli import main as cass_main

    version = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    assert cass_main(["version"]) == 0
    assert capsys.readouterr().out.strip() == version
    headings = re.findall(r"^## (.+)$", (REPO / "CHANGELOG.md").read_text(), re.MULTILINE)
    assert headings[0] == "Unreleased" and version in headings[1]
