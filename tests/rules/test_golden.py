"""Golden files: each `golden/*.cu` ports to exactly the `.hip` beside it, and porting the `.hip`
again changes nothing. Regenerate after a deliberate change with CASS_UPDATE_GOLDEN=1."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cass.models.engine import Target
from cass.models.rules import port_unit

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.cu"))


def _target(text: str) -> Target:
    first = text.splitlines()[0]
    if first.startswith("// cass-target:"):
        arch, version = first.split(":", 1)[1].split()
        return Target(gfx_arch=arch, hip_version=version)
    return Target()


@pytest.mark.parametrize("source", GOLDEN, ids=lambda p: p.stem)
def test_golden(source):
    text = source.read_text()
    target = _target(text)
    unit = port_unit(text, source.name, target)
    expected_path = source.with_suffix(".hip")
    if os.environ.get("CASS_UPDATE_GOLDEN"):
        expected_path.write_text(unit.render(), newline="")
    assert unit.render() == expected_path.read_text()
    assert not [d for d in unit.diagnostics if d.severity.value == "error"]
    again = port_unit(unit.render(), expected_path.name, target).render()
    assert again == unit.render()


ROOT = Path(__file__).resolve().parents[2]
PROGRAMS = sorted((ROOT / "models" / "bench" / "tasks").rglob("*.cu")) + sorted(
    (ROOT / "examples").rglob("*.cu")
)


@pytest.mark.parametrize(
    "target",
    [Target(), Target(hip_version="6.2"), Target(gfx_arch="gfx942", hip_version="7.0")],
    ids=["gfx1100-5.2", "gfx1100-6.2", "gfx942-7.0"],
)
def test_porting_a_port_changes_nothing_for_every_program(target):
    changed = []
    for program in PROGRAMS:
        first = port_unit(program.read_text(), program.name, target).render()
        if port_unit(first, program.name, target).render() != first:
            changed.append(program.name)
    assert not changed
