"""Set-up planning and the doctor's findings, on this machine's real packages and tools."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest
from cass.runner import setup as runner_setup
from cass.runner import toolchain
from cass.runner.diagnostics import CassError, WorkError

ROOT = Path(__file__).resolve().parents[2]


def test_debian_package_list_holds_both_compiler_stacks():
    stack = [
        "clang-16",
        "lld-16",
        "llvm-16",
        "clang-tools-16",
        "libamdhip64-dev",
        "rocm-device-libs",
    ]
    packages = runner_setup.debian_packages()
    assert packages[: len(stack)] == stack
    assert all(p and not p.startswith("#") and " " not in p for p in packages)


def test_makefile_installs_debian_packages_before_the_venv_from_the_same_list():
    makefile = (ROOT / "Makefile").read_text()
    assert "runner/debian-packages.txt" in makefile
    assert re.search(
        r"^\$\(VENV\)/\.installed: pyproject\.toml \| system-packages$", makefile, re.M
    )
    assert re.search(r"^setup: system-packages \$\(VENV\)/\.installed$", makefile, re.M)
    ci_lines = [line.strip() for line in (ROOT / ".ci" / "run").read_text().splitlines()]
    assert "make test" in ci_lines, "CI must run the README's test command"


@pytest.mark.toolchain
def test_installed_packages_are_not_planned_again():
    assert runner_setup.missing_debian_packages(runner_setup.debian_packages()) == []
    assert runner_setup.missing_debian_packages(["cass-no-such-package"]) == [
        "cass-no-such-package"
    ]
    plan = runner_setup.plan_setup()
    assert [step.what for step in plan] == ["device-library folder for gfx1100"]


def test_missing_packages_plan_apt_then_install(monkeypatch):
    monkeypatch.setattr(runner_setup, "missing_debian_packages", lambda pkgs: ["lld-16"])
    monkeypatch.setattr(runner_setup, "missing_pypi_packages", lambda: ["nvidia-cuda-nvdisasm"])
    steps = runner_setup.plan_setup()
    argv = [step.argv for step in steps]
    assert argv[0][-2:] == ("apt-get", "update")
    assert argv[1][-4:] == ("apt-get", "install", "-y", "lld-16")
    assert argv[2] == (sys.executable, "-m", "pip", "install", "-q", "nvidia-cuda-nvdisasm")
    assert steps[1].env["DEBIAN_FRONTEND"] == "noninteractive"


def test_pypi_packages_follow_missing_tools(monkeypatch):
    real = toolchain.find_tool

    def fake(name):
        return toolchain.MissingTool(name, "x") if name == "nvdisasm" else real(name)

    monkeypatch.setattr(toolchain, "find_tool", fake)
    assert runner_setup.missing_pypi_packages() == ["nvidia-cuda-nvdisasm"]


def test_a_failing_step_names_its_command():
    step = runner_setup.SetupStep(
        "demo step", (sys.executable, "-c", "import sys; sys.exit('boom')"), 30
    )
    with pytest.raises(CassError, match="demo step failed: boom") as info:
        runner_setup.run_step(step)
    assert "command:" in info.value.message and isinstance(info.value, WorkError)


def test_a_step_that_hangs_is_stopped():
    step = runner_setup.SetupStep(
        "slow step", (sys.executable, "-c", "import time; time.sleep(30)"), 0.5
    )
    with pytest.raises(WorkError, match="slow step did not finish within 0.5 s and was stopped"):
        runner_setup.run_step(step)


@pytest.mark.toolchain
def test_check_environment_on_this_machine():
    env = runner_setup.check_environment()
    assert env.core_complete, env.missing_core
    backends = {b.name: b for b in env.backends}
    assert backends["recorded"].available
    assert backends["nvidia"].available == any(g.vendor == "nvidia" for g in env.gpus)


def test_missing_core_tool_makes_the_environment_incomplete(monkeypatch):
    real = toolchain.all_tools

    def without_nvdisasm():
        return [toolchain.MissingTool(t.name, "x") if t.name == "nvdisasm" else t for t in real()]

    monkeypatch.setattr(toolchain, "all_tools", without_nvdisasm)
    env = runner_setup.check_environment()
    assert not env.core_complete and env.missing_core == ["nvdisasm"]
