"""Helpers for the rules-engine tests: port a snippet, and compile HIP with clang-16 for gfx1100."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cass.models.engine import Target
from cass.models.rules import port_unit


def port(text: str, hip_version: str = "5.2", arch: str = "gfx1100", **options):
    """(output text, {code: [diagnostics]}) for a CUDA snippet; `options` are Target fields."""
    unit = port_unit(text, "t.cu", Target(gfx_arch=arch, hip_version=hip_version, **options))
    codes: dict[str, list] = {}
    for d in unit.diagnostics:
        codes.setdefault(d.code, []).append(d)
    return unit.render(), codes


def hip_compile(path: Path, *flags: str, timeout: float = 300) -> subprocess.CompletedProcess:
    """clang++-16 for gfx1100 against Debian's HIP 5.2 headers (host and device)."""
    from cass.runner.toolchain import hip_clang_command

    return subprocess.run(
        [*hip_clang_command("gfx1100"), *flags, str(path)],
        check=False,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


@pytest.fixture
def port_snippet():
    return port


@pytest.fixture(name="hip_compile")
def hip_compile_fixture():
    return hip_compile
