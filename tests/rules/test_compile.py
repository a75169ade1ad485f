"""Ported programs compile for gfx1100 (host and device) with clang-16 against Debian's HIP 5.2
headers. Every benchmark and example program is ported here (no error diagnostics except the
known gaps); a sample — the examples plus the first program of each benchmark domain — is
compiled, to keep the suite fast. `benchmarks/bench_rules_port_tasks.py` compiles all of them."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.models.bench.tasks import load_task
from cass.models.engine import Target
from cass.models.rules.corpus import port_and_check, port_program

ROOT = Path(__file__).resolve().parents[2]
TASKS = ROOT / "models" / "bench" / "tasks"
EXAMPLES = sorted((ROOT / "examples").rglob("*.cu"))
PROGRAMS = sorted(TASKS.rglob("*.cu")) + EXAMPLES
# Programs using APIs HIP 5.2 spells otherwise (cudaDeviceSetLimit(cudaLimitStackSize),
# cudaMemoryTypeManaged): always in the compiled sample.
HIP52_DIFFERENCES = ("tree_depth_recursion", "unified_addressing_copies")

pytestmark = pytest.mark.toolchain


def _sample() -> list[Path]:
    firsts = []
    for domain in sorted(p for p in TASKS.iterdir() if p.is_dir()):
        programs = sorted(domain.rglob("*.cu"))
        firsts += programs[:1]
    special = [p for p in PROGRAMS if p.parent.name in HIP52_DIFFERENCES]
    assert len(special) == len(HIP52_DIFFERENCES)
    return EXAMPLES + firsts + special


def _target(program: Path) -> Target:
    """The HIP version a bench task is ported for (its `[port] hip_version`), else the default."""
    if (program.parent / "task.toml").is_file():
        return Target(hip_version=load_task(program.parent).hip_version)
    return Target()


def test_every_program_ports_without_errors(tmp_path):
    assert len(PROGRAMS) >= 5
    failures = {}
    for program in PROGRAMS:
        _, errors = port_program(program, ROOT, tmp_path, _target(program))
        if errors:
            failures[str(program.relative_to(ROOT))] = errors
    assert not failures


def test_sampled_ports_compile_for_gfx1100(tmp_path, hip_compile):
    sample = _sample()
    outcomes = port_and_check(
        sample, ROOT, tmp_path, lambda path: hip_compile(path, "-fsyntax-only")
    )
    failed = {
        str(o.program.relative_to(ROOT)): o.detail
        for o in outcomes
        if o.status in ("compile-error", "reported")
    }
    assert not failed
    statuses = {o.program: o.status for o in outcomes}
    # the examples and the HIP 5.2 programs include no library: each of them really compiles
    no_library = EXAMPLES + [p for p in PROGRAMS if p.parent.name in HIP52_DIFFERENCES]
    assert {p: statuses[p] for p in no_library} == dict.fromkeys(no_library, "compiles")
    needs_library = [str(p.relative_to(ROOT)) for p, s in statuses.items() if s == "needs-library"]
    assert len(needs_library) <= 0.2 * len(sample), needs_library


GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.cu"))


@pytest.mark.parametrize("source", GOLDEN, ids=lambda p: p.stem)
def test_golden_port_builds_an_object_for_gfx1100(source, tmp_path, hip_compile):
    out = tmp_path / (source.stem + ".hip")
    out.write_text((source.with_suffix(".hip")).read_text())
    result = hip_compile(out, "-O1", "-c", "-o", str(tmp_path / (source.stem + ".o")))
    assert result.returncode == 0, result.stderr[-2000:]
