"""Every example and benchmark program, once ported, compiles for gfx1100 (host and device) with
clang-16 against Debian's HIP 5.2 headers; golden snippets are also compiled to objects."""

from __future__ import annotations

import concurrent.futures
import os
from pathlib import Path

import pytest
from cass.models.engine import Target
from cass.models.rules import port_unit
from cass.runner.diagnostics import Severity

ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = sorted((ROOT / "models" / "bench" / "tasks").rglob("*.cu")) + sorted(
    (ROOT / "examples").rglob("*.cu")
)
# Libraries Debian does not package (so nothing here can compile against them), and programs whose
# port is reported as needing a newer HIP than 5.2: the port must name the gap at its line.
NOT_PACKAGED = {"hipcub/hipcub.hpp": "hipCUB", "thrust/": "rocThrust"}
NEEDS_NEWER_HIP = {"unified_addressing_copies"}

pytestmark = pytest.mark.toolchain


def _port(path: Path, tmp: Path) -> tuple[Path, list]:
    unit = port_unit(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)), Target())
    out = tmp / (str(path.relative_to(ROOT)).replace(os.sep, "__")[:-3] + ".hip")
    out.write_text(unit.render(), encoding="utf-8", newline="")
    return out, [d for d in unit.diagnostics if d.severity is Severity.ERROR]


def _missing_library(text: str) -> str | None:
    return next(
        (lib for header, lib in NOT_PACKAGED.items() if f"#include <{header}" in text), None
    )


def test_every_program_ports_and_compiles_for_gfx1100(tmp_path, hip_compile):
    assert len(PROGRAMS) >= 5
    jobs, outcomes = [], {}
    for program in PROGRAMS:
        out, errors = _port(program, tmp_path)
        name = program.parent.name if program.name == "main.cu" else program.stem
        if name in NEEDS_NEWER_HIP:
            assert errors and {e.code for e in errors} <= {"CASS011"}, errors
            continue
        assert not errors, [e.render() for e in errors]
        library = _missing_library(out.read_text())
        if library:
            outcomes[name] = f"needs {library} (not packaged by Debian)"
            continue
        jobs.append((name, out))
    with concurrent.futures.ThreadPoolExecutor(max_workers=2) as pool:
        results = dict(
            zip([n for n, _ in jobs], pool.map(lambda j: hip_compile(j[1], "-fsyntax-only"), jobs))
        )
    failures = {n: r.stderr[-1500:] for n, r in results.items() if r.returncode != 0}
    assert not failures, failures
    compiled = len(results)
    assert compiled >= 0.9 * len(PROGRAMS), (compiled, outcomes)


GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.cu"))


@pytest.mark.parametrize("source", GOLDEN, ids=lambda p: p.stem)
def test_golden_port_builds_an_object_for_gfx1100(source, tmp_path, hip_compile):
    out = tmp_path / (source.stem + ".hip")
    out.write_text((source.with_suffix(".hip")).read_text())
    result = hip_compile(out, "-O1", "-c", "-o", str(tmp_path / (source.stem + ".o")))
    assert result.returncode == 0, result.stderr[-2000:]
