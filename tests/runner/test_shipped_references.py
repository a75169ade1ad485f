"""Every reference output shipped with cass (benchmark tasks and examples) is one a verdict may
rest on: fresh for its source and the headers it includes, recorded on an NVIDIA GPU, from a run
that ended the way its spec expects, and ending in the program's own pass line where it has one."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.models.bench.tasks import discover_tasks
from cass.runner.recorded import SUFFIX, load_recorded, record_path
from cass.runner.spec import load_run_spec

ROOT = Path(__file__).resolve().parents[2]
PASS_LINE = "CHECK PASS"


def _shipped_programs() -> list[Path]:
    tasks = [task.source for task in discover_tasks()]
    examples = [
        p.with_name(p.name.removesuffix(SUFFIX)) for p in (ROOT / "examples").rglob(f"*{SUFFIX}")
    ]
    return sorted({*tasks, *examples})


PROGRAMS = _shipped_programs()


def test_every_task_and_recorded_example_is_checked():
    assert len(PROGRAMS) >= 255 + 7
    assert all(record_path(p).is_file() for p in PROGRAMS), [
        str(p) for p in PROGRAMS if not record_path(p).is_file()
    ]


@pytest.mark.parametrize("source", PROGRAMS, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_the_shipped_reference_can_carry_a_verdict(source: Path):
    spec = load_run_spec(source)
    result = load_recorded(source, spec)  # raises for a stale record: source or header changed
    assert "NVIDIA" in result.info.get("gpu", ""), (
        f"{source}: not recorded on an NVIDIA GPU: {result.info}"
    )
    assert result.finished and result.exit_code == spec.expected_exit_code, result.describe_end()
    if f'"{PASS_LINE}' in source.read_text(encoding="utf-8"):
        lines = result.stdout.strip().splitlines()
        assert lines and lines[-1].strip() == PASS_LINE, (
            f"{source}: the reference does not end in {PASS_LINE}"
        )
