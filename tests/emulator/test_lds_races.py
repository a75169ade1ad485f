"""CASS_EMULATOR_RACE_CHECK: waves of a workgroup that touch the same LDS bytes between the same
barriers, one writing, are reported (kernel, workgroup, wave, pc, LDS offset) by the interpreter
and by the translated code alike; a barrier between, a wave's own lanes, atomics and other
workgroups' blocks are not races. Rodinia's leukocyte showed why it matters: its tracking kernel
races and its port differed from the H200 with nothing to say why."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from cass.runner.emulator import build_hip_program, run_program
from cass.runner.emulator.races import LdsRaces
from cass.runner.recorded import write_record
from cass.runner.results import RunResult
from cass.runner.spec import RunSpec, load_run_spec
from cass.runner.verify import verify

PROGRAM = Path(__file__).parent / "programs" / "lds_races.hip"
EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "verify"
RACY = ("_Z10shift_racyPi", "_Z10pairs_racyPi")


def _access(races: LdsRaces, wave: int, offsets: list[int], write: bool, pc: int = 0x100) -> int:
    before = int(races.report[0])
    wave_wg = np.array([0, 0, 1, 1])  # two workgroups of two waves
    races.note(np.full(len(offsets), wave), wave_wg, np.array(offsets), 4, write, pc)
    return int(races.report[0]) - before


def test_the_shadow_tells_races_from_ordered_accesses():
    races = LdsRaces(waves=4, groups=2, stride=64)
    assert _access(races, 0, [0, 4], write=True) == 0
    assert _access(races, 0, [0], write=False) == 0  # its own write
    assert _access(races, 1, [4], write=False) == 4  # another wave's write: 4 bytes
    assert list(races.report[1:]) == [1, 0, 0x100, 4, 0]  # wave 1 read wave 0's write at 4
    assert _access(races, 2, [0, 4], write=True) == 0  # the other workgroup's block
    races.passed_barrier(np.array([0, 1]))
    assert _access(races, 1, [0], write=True) == 0  # after a barrier: ordered
    assert _access(races, 0, [8], write=False) == 0
    assert _access(races, 1, [8], write=False) == 0  # readers never race with readers
    assert _access(races, 0, [8], write=True) == 4  # but a write after another wave's read does
    assert "racing with a write by wave 0" in races.line("k", "(0,0,0)", 2)
    races.passed_barrier(np.array([0, 1]))
    _access(races, 0, [12], write=False)
    _access(races, 1, [12], write=False)
    races.report[:] = 0
    assert _access(races, 0, [12], write=True) == 4
    assert races.report[2] == -1  # read by several waves
    assert "racing with reads by several waves" in races.line("k", "(0,0,0)", 2)


@pytest.fixture(scope="module")
def program(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("races")
    return Path(build_hip_program(PROGRAM, work / "lds_races", extra_args=["-O2"]))


ENGINES = {
    "interp": {"CASS_EMULATOR_ENGINE": "interp"},
    # translated from the first launch on: the DS accesses run in translated code
    "jit": {
        "CASS_EMULATOR_ENGINE": "jit",
        "CASS_EMULATOR_JIT_WAIT": "1",
        "CASS_EMULATOR_JIT_HOT_S": "0",
    },  # fmt: skip
}


@pytest.mark.toolchain
@pytest.mark.parametrize("engine", ENGINES)
def test_racing_waves_are_reported_and_ordered_ones_are_not(program: Path, engine: str):
    env = {**os.environ, **ENGINES[engine], "CASS_EMULATOR_RACE_CHECK": "1"}
    run = run_program(program, timeout_s=300, env=env)
    assert run.exit_code == 0 and not run.fault_reports, run.stderr
    lines = [ln for ln in run.stderr.splitlines() if ln.startswith("cass-emulator: race ")]
    assert [ln.split()[2] for ln in lines] == [f"kernel={k}" for k in RACY], run.stderr
    assert "workgroup=(0,0,0)" in lines[0] and "lds_offset=0x80" in lines[0]
    assert "between the same barriers" in lines[0]
    assert sorted(run.stats.lds_races) == sorted(RACY)
    if engine == "jit":
        assert run.stats.native_instructions > 0  # the DS kernel ran translated
    for ordered in ("shift_synced 33024", "own_lanes 41856", "atomic_count 32768"):
        assert ordered in run.stdout
    assert "LDS races: _Z10shift_racyPi (" in run.stats.summary()


@pytest.mark.toolchain
def test_without_the_check_nothing_is_reported(program: Path):
    env = {k: v for k, v in os.environ.items() if k != "CASS_EMULATOR_RACE_CHECK"}
    run = run_program(program, timeout_s=300, env=env)
    assert run.exit_code == 0 and "cass-emulator: race" not in run.stderr
    assert run.stats.lds_races == {}


CASS = [sys.executable, "-m", "cass.server.cli"]


@pytest.mark.toolchain
def test_cass_emulate_race_check_reports_on_stderr(program: Path):
    proc = subprocess.run([*CASS, "emulate", str(program), "--race-check"], capture_output=True,
                          text=True, timeout=300, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("cass-emulator: race kernel=") == 2
    assert "LDS races: _Z10shift_racyPi" in proc.stderr  # the statistics line
    both = subprocess.run([*CASS, "emulate", str(program), "--race-check", "--engine", "both"],
                          capture_output=True, text=True, timeout=120, check=False)  # fmt: skip
    assert both.returncode != 0 and "not both" in both.stderr
    assert "Traceback" not in both.stderr


@pytest.mark.toolchain
def test_a_mismatch_on_the_emulator_names_the_ports_lds_race(tmp_path: Path):
    """What a verdict says when the port races: the outputs differ (mismatch), and a note names
    the race the emulator's check found in a second run of the port."""
    original = tmp_path / "races.cu"  # the recorded backend reads only its recording
    original.write_text(PROGRAM.read_text().replace("hip/hip_runtime.h", "cuda_runtime.h"))
    port = tmp_path / "races.hip"
    port.write_text(PROGRAM.read_text())
    # what no wave order prints: the test needs a mismatch, whichever order the emulator runs
    printed = "shift_racy 16512\npairs_racy -1\nshift_synced 33024\nown_lanes 41856\n"
    write_record(original, RunSpec(), RunResult("nvidia", 0, printed + "atomic_count 32768\n"))
    verdict = verify(original, port, RunSpec(), backends=("recorded", "emulator"))
    assert verdict.status == "mismatch", verdict.message
    [note] = [n for n in verdict.notes if "races in LDS" in n]
    assert "kernel=_Z10shift_racyPi" in note and "2 report(s)" in note
    wrong = verify(EXAMPLES / "saxpy.cu", EXAMPLES / "saxpy_wrong.hip",
                   backends=("recorded", "emulator"))  # fmt: skip
    assert wrong.status == "mismatch"  # a wrong port without a race: no such note
    assert not [n for n in wrong.notes if "races in LDS" in n]


@pytest.mark.toolchain
def test_cass_verify_race_check_notes_a_race_even_when_the_outputs_agree(tmp_path: Path):
    """With --race-check the port's run is checked whatever its verdict: here the racing
    kernels' lines are left out of the comparison (the spec's ignore_lines), the rest agrees."""
    original = tmp_path / "races.cu"
    original.write_text('// cass: ignore_lines = ["_racy "]\n' + PROGRAM.read_text())
    port = tmp_path / "races.hip"
    port.write_text(PROGRAM.read_text())
    spec = load_run_spec(original)
    printed = "shift_synced 33024\nown_lanes 41856\natomic_count 32768\n"
    write_record(original, spec, RunResult("nvidia", 0, printed))
    base = [*CASS, "verify", str(original), str(port), "-r", "recorded", "-p", "emulator", "--json"]
    checked = subprocess.run([*base, "--race-check"], capture_output=True, text=True,
                             timeout=300, check=False)  # fmt: skip
    verdict = json.loads(checked.stdout)
    assert checked.returncode == 0 and verdict["status"] == "match", checked.stdout
    assert any("races in LDS" in n and "shift_racyPi" in n for n in verdict["notes"])
    plain = subprocess.run(base, capture_output=True, text=True, timeout=300, check=False)
    assert json.loads(plain.stdout)["status"] == "match"
    assert not [n for n in json.loads(plain.stdout)["notes"] if "races in LDS" in n]


def test_a_mismatch_from_a_global_memory_race_is_named_by_the_wave_order(tmp_path: Path):
    """heartwall's class: waves race through global memory, which the LDS check does not see.
    The port run first as translated code (each wave to its next barrier alone) prints 528; the
    note comes from a second run with the waves in lock-step, which prints what the GPU did."""
    program = Path(__file__).parent / "programs" / "global_race.hip"
    original = tmp_path / "race.cu"
    original.write_text(program.read_text().replace("hip/hip_runtime.h", "cuda_runtime.h"))
    port = tmp_path / "race.hip"
    port.write_text(program.read_text())
    spec = RunSpec(env=(("CASS_EMULATOR_JIT_HOT_S", "0"), ("CASS_EMULATOR_JIT_WAIT", "1")))
    write_record(original, spec, RunResult("nvidia", 0, "sum 2080\n"))
    verdict = verify(original, port, spec, backends=("recorded", "emulator"))
    assert verdict.status == "mismatch" and "528" in verdict.message, verdict.message
    [note] = [n for n in verdict.notes if "changed with the order its waves run" in n]
    assert "in lock-step (the interpreter)" in note and "matches the original" in note
    assert not [n for n in verdict.notes if "races in LDS" in n]
    wrong = verify(EXAMPLES / "saxpy.cu", EXAMPLES / "saxpy_wrong.hip",
                   backends=("recorded", "emulator"))  # fmt: skip
    assert not [n for n in wrong.notes if "order its waves run" in n]  # wrong, not racing


def test_the_other_wave_order_of_each_engine():
    from cass.runner.emulator.kinds import Engine, other_wave_order

    assert other_wave_order("") == other_wave_order("jit") == Engine.INTERP  # the default: jit
    assert other_wave_order("interp") == Engine.JIT and other_wave_order("both") is None
