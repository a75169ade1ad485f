"""clang-16 code generation defects the emulator build avoids: the program runs at -O0 and -O3
and checks itself against a CPU reference (tests/emulator/programs/codegen_defects.hip)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.runner.emulator import build_hip_program, run_program
from cass.runner.emulator.build import CODEGEN_FIXES, O0_REGALLOC_FIX, hip_compile_command

pytestmark = pytest.mark.toolchain

PROGRAM = Path(__file__).parent / "programs" / "codegen_defects.hip"


def _flags(*extra: str) -> list[str]:
    return hip_compile_command(PROGRAM, Path("out"), "gfx1100", extra)


def test_every_build_avoids_the_exec_mask_fold_and_only_O0_changes_allocator():
    for level in ("-O0", "-O1", "-O3"):
        cmd = _flags(level)
        assert " ".join(CODEGEN_FIXES) in " ".join(cmd)
        assert (" ".join(O0_REGALLOC_FIX) in " ".join(cmd)) == (level == "-O0")
    assert " ".join(O0_REGALLOC_FIX) not in " ".join(_flags())  # default -O3
    assert " ".join(O0_REGALLOC_FIX) in " ".join(_flags("-O3", "-O0"))  # the last level counts


@pytest.mark.parametrize("level", ["-O0", "-O3"])
def test_program_is_right_at(tmp_path, level):
    exe = build_hip_program(PROGRAM, tmp_path / "codegen_defects", extra_args=[level])
    run = run_program(exe, timeout_s=240)
    assert run.exit_code == 0 and "codegen_defects: PASS" in run.stdout, run.stdout + run.stderr
