"""When the emulator compiles translated code (engine `jit`): a code object is translated only
once the interpreter has spent CASS_EMULATOR_JIT_HOT_S of CPU in its kernels (a short program
never pays the compiler), then compiled in the background while the interpreter goes on; the
library is cached by code-object hash, so the next run uses it from its first launch."""

from __future__ import annotations

import os

import numpy as np
import pytest
from cass.runner.emulator import build_hip_program, run_program
from cass.runner.emulator.jit import native
from cass.runner.emulator.jit.engine import JitEngine
from cass.runner.emulator.snippet import Snippet

pytestmark = pytest.mark.toolchain

LOOP = [  # s4 counts down from 3000: ~9,000 interpreter steps
    "s_movk_i32 s4, 0xbb8",
    "v_add_nc_u32 v1, v1, v0",
    "s_sub_u32 s4, s4, 1",
    "s_cmp_lg_u32 s4, 0",
    "s_cbranch_scc1 -4",
]


def _machine(hot_s: float):
    m = Snippet(LOOP, vgpr={0: np.arange(32), 1: 0}).machine()
    m.jit = JitEngine(m.program, background=True, hot_s=hot_s)
    return m


def _hot_run_to_the_baseline(cache, monkeypatch):
    """A run of LOOP hot after 0.005 s, both tiers made, waited for: its baseline is loaded."""
    monkeypatch.setenv("CASS_CACHE_DIR", str(cache))
    monkeypatch.delenv("CASS_EMULATOR_JIT_TIERS", raising=False)
    m = _machine(hot_s=0.005)
    m.jit.launch_begins()
    m.run()
    m.jit.launch_ends()
    m.jit.wait()
    return m


def _libraries(cache) -> list:
    return sorted(cache.glob("jit-*/kernels.so"))


def test_a_cold_code_object_is_never_compiled(tmp_path, monkeypatch):
    monkeypatch.setenv("CASS_CACHE_DIR", str(tmp_path))
    m = _machine(hot_s=3600)
    m.jit.launch_begins()
    m.run()
    m.jit.launch_ends()
    assert not m.jit.started and m.jit.translation is None
    assert m.jit.native_instructions == 0 and m.jit.warmup == m.wave_instructions > 9000
    assert int(m.st.V[1, 0, 5]) == 5 * 3000
    assert _libraries(tmp_path) == []


def test_a_hot_code_object_is_compiled_while_it_runs_and_cached_for_the_next(tmp_path, monkeypatch):
    monkeypatch.setenv("CASS_CACHE_DIR", str(tmp_path))
    m = _machine(hot_s=0.005)
    m.jit.launch_begins()
    m.run()  # becomes hot after 0.005 s of CPU: the compile starts in the background
    m.jit.launch_ends()
    assert m.jit.started and m.jit.interp_cpu_s >= 0.005
    m.jit.wait()
    assert m.jit.error == "" and m.jit.entries
    assert len(_libraries(tmp_path)) == 1
    again = _machine(hot_s=3600)  # cached: translated from the first instruction on
    assert not again.jit.entries  # nothing is loaded before a launch of the kernel begins
    again.jit.launch_begins()
    assert again.jit.entries and again.jit.started
    again.run()
    assert again.jit.warmup == 0 and again.jit.native_instructions == again.wave_instructions
    assert np.array_equal(again.st.V[1, 0], m.st.V[1, 0])
    assert int(again.st.V[1, 0, 7]) == 7 * 3000


def test_a_short_program_under_jit_runs_interpreted_and_says_so(tmp_path):
    programs = os.path.join(os.path.dirname(__file__), "programs")
    exe = build_hip_program(
        os.path.join(programs, "reduction.hip"), tmp_path / "reduction", extra_args=["-O2"]
    )
    env = {**os.environ, "CASS_EMULATOR_ENGINE": "jit", "CASS_CACHE_DIR": str(tmp_path / "c")}
    env.pop("CASS_EMULATOR_JIT_WAIT", None)
    env.pop("CASS_EMULATOR_JIT_HOT_S", None)
    run = run_program(exe, timeout_s=240, env=env)
    assert run.exit_code == 0, run.stderr
    assert "reduction: PASS" in run.stdout
    s = run.stats
    assert s.engine == "jit" and s.cold_code_objects == 1
    assert s.native_instructions == 0 and s.compile_s == 0
    assert "are not translated" in s.summary()
    assert _libraries(tmp_path / "c") == []


def test_the_threshold_grows_with_what_compiling_would_cost(monkeypatch, capsys):
    from cass.runner.emulator.jit import kernels as engine

    monkeypatch.delenv("CASS_EMULATOR_JIT_HOT_S", raising=False)
    for tier in (engine.BASELINE, engine.OPTIMISED):  # a small code object: the floor
        assert engine.hot_threshold(10, tier) == engine.HOT_CPU_S[tier]
    big = engine.hot_threshold(30_000)  # a library's code object: minutes of clang++ -O2
    per = engine.COMPILE_CPU_PER_INSTRUCTION_S
    assert big == pytest.approx(30_000 * per[engine.OPTIMISED]) and big > 60
    baseline = engine.hot_threshold(30_000, engine.BASELINE)
    assert baseline == pytest.approx(30_000 * per[engine.BASELINE]) and baseline < big
    monkeypatch.setenv("CASS_EMULATOR_JIT_HOT_S", "0")
    assert engine.hot_threshold(30_000) == engine.hot_threshold(30_000, engine.BASELINE) == 0.0
    monkeypatch.setenv("CASS_EMULATOR_JIT_HOT_S", "soon")
    assert engine.hot_threshold(10) == engine.HOT_CPU_S[engine.OPTIMISED]
    err = capsys.readouterr().err
    assert "CASS_EMULATOR_JIT_HOT_S='soon' is not a number of seconds" in err


def test_the_tiers_made_are_chosen_by_name_and_a_wrong_choice_is_one_line(monkeypatch, capsys):
    from cass.runner.emulator.jit import kernels as engine

    monkeypatch.delenv(engine.TIERS_ENV, raising=False)
    assert engine.tiers() == (1, 2)
    for raw, chosen in (("2", (2,)), ("1", (1,)), (" 2, 1 ", (1, 2))):
        monkeypatch.setenv(engine.TIERS_ENV, raw)
        assert engine.tiers() == chosen
    monkeypatch.setenv(engine.TIERS_ENV, "fast")
    assert engine.tiers() == (1, 2)
    assert "CASS_EMULATOR_JIT_TIERS='fast' is not a list of tiers (1, 2)" in capsys.readouterr().err


def test_a_hot_kernel_gets_the_baseline_first_then_the_optimised_tier(tmp_path, monkeypatch):
    """The baseline (-O0) is made once the kernel is hot on the interpreter; the optimised
    (-O2) once it has run its threshold on the baseline, and replaces it; both are cached."""
    m = _hot_run_to_the_baseline(tmp_path, monkeypatch)
    (k,) = m.jit.kernels.values()
    assert k.error == "" and k.tier == 1 and list(k.builders) == [1]
    assert [p.parent.name[-2:] for p in _libraries(tmp_path)] == ["t1"]
    second = Snippet(LOOP, vgpr={0: np.arange(32), 1: 0}).machine()
    second.jit = m.jit  # the same code object's next launch runs the baseline natively
    m.jit.launch_begins()
    second.run()
    m.jit.launch_ends()
    m.jit.wait()
    assert k.tier == 2 and sorted(k.builders) == [1, 2]
    assert [p.parent.name[-2:] for p in _libraries(tmp_path)] == ["t1", "t2"]
    assert m.jit.native_instructions >= second.wave_instructions > 9000
    assert m.jit.baseline_instructions > 0  # the baseline ran while the optimised compiled
    assert np.array_equal(second.st.V[1, 0], m.st.V[1, 0])
    assert int(second.st.V[1, 0, 7]) == 7 * 3000
    again = _machine(hot_s=3600)  # a new run loads the highest tier cached
    again.jit.launch_begins()
    (cached,) = again.jit.kernels.values()
    assert cached.tier == 2 and not cached.builders


def test_a_kernel_below_its_highest_tier_carries_its_cpu_into_the_next_run(tmp_path, monkeypatch):
    """A kernel of a second per run would never reach the optimised tier's threshold in one run:
    the CPU it used is kept beside its baseline library and counts in the next run."""
    from cass.runner.emulator.jit.kernels import USAGE

    m = _hot_run_to_the_baseline(tmp_path, monkeypatch)
    m.jit.save_usage()
    (k,) = m.jit.kernels.values()
    assert k.tier == 1
    used = float((k.path(1) / USAGE).read_text())
    assert used == pytest.approx(k.interp_cpu_s, abs=1e-3) and used > 0.005
    later = _machine(hot_s=used / 2)  # the next run: the baseline is cached, its CPU counted
    later.jit.launch_begins()
    (again,) = later.jit.kernels.values()
    assert again.tier == 1 and again.interp_cpu_s >= used
    later.run()  # already past the threshold: the first native call starts the optimised tier
    later.jit.launch_ends()
    later.jit.wait()
    assert again.tier == 2 and sorted(again.builders) == [2]
    later.jit.save_usage()  # at the highest tier nothing more is kept
    assert float((k.path(1) / USAGE).read_text()) == used


def test_a_baseline_slower_than_the_interpreter_is_dropped_for_the_optimised_tier(
    tmp_path, monkeypatch
):
    """Uniform code over many waves is the interpreter's best case and -O0 code's worst (an FMA
    chain: 0.9 G lane-instructions/s interpreted, 0.14 G on the baseline): measured slower, the
    baseline gives the kernel back to the interpreter, the optimised tier is compiled at once,
    and later runs never load that baseline."""
    from cass.runner.emulator.jit import kernels

    m = _hot_run_to_the_baseline(tmp_path, monkeypatch)
    (k,) = m.jit.kernels.values()
    assert k.tier == 1 and m.jit.entries and not k.baseline_is_slower()
    k.warm_instructions, k.warm_cpu_s = 9_000_000, 1.0  # measured: 9 M per CPU second
    k.base_instructions, k.base_cpu_s = 500_000, 0.5  # the baseline: 1 M per CPU second
    assert k.baseline_is_slower()
    m.jit._drop_baseline(k)
    assert k.tier == 0 and k.run is None and k.dropped and not m.jit.entries
    assert (k.path(1) / kernels.SLOWER).exists()
    m.jit.wait()
    assert k.tier == 2 and m.jit.entries  # the optimised tier, compiled at once
    later = _machine(hot_s=3600)
    later.jit.launch_begins()
    assert next(iter(later.jit.kernels.values())).tier == 2
    (k.path(2) / native.LIBRARY).unlink()  # without the optimised library: not the baseline
    fresh = _machine(hot_s=3600)
    fresh.jit.launch_begins()
    assert next(iter(fresh.jit.kernels.values())).tier == 0 and not fresh.jit.entries


SPIN = r"""
#include <hip/hip_runtime.h>
#include <cstdio>
__global__ void spin(volatile unsigned* flag, unsigned* out) {
  unsigned n = 0;
  while (flag[0] == 0u) n++;
  out[threadIdx.x] = n;
}
int main() {
  unsigned *flag, *out;
  hipMalloc(&flag, 4);
  hipMalloc(&out, 256);
  hipMemset(flag, 0, 4);
  spin<<<1, 64>>>(flag, out);
  hipDeviceSynchronize();
  printf("never\n");
  return 0;
}
"""


def test_a_translated_endless_kernel_stops_at_its_budget_where_it_loops(tmp_path):
    source = tmp_path / "spin.hip"
    source.write_text(SPIN)
    exe = build_hip_program(source, tmp_path / "spin", extra_args=["-O2"])
    env = {**os.environ, "CASS_EMULATOR_ENGINE": "jit", "CASS_EMULATOR_JIT_WAIT": "1"}
    env["CASS_EMULATOR_KERNEL_TIMEOUT_S"] = "1"
    run = run_program(exe, timeout_s=240, env=env)
    assert run.exit_code == 70 and "never" not in run.stdout
    (fault,) = run.fault_reports
    assert fault["kind"] == "timeout" and "spin" in fault["kernel"]
    assert fault["instruction"] != "?", fault  # where the translated loop had reached
    s = run.stats
    assert s.native_instructions > 0.9 * s.instructions > 0


def test_the_same_fault_under_both_engines_is_that_fault_not_a_mismatch():
    from cass.runner.emulator.kinds import FaultKind
    from cass.runner.emulator.oracle import run_compared
    from cass.runner.emulator.state import Fault

    data = np.zeros(16, np.uint32)
    lines = ["v_lshlrev_b32 v2, 4, v0", "global_store_b32 v2, v0, s[0:1]", "v_mov_b32 v3, 1"]
    sgpr = {0: data.ctypes.data & 0xFFFFFFFF, 1: data.ctypes.data >> 32}

    def machine(engine: str):
        return Snippet(lines, vgpr={0: np.arange(32)}, sgpr=sgpr, buffers=[data], engine=engine)

    translated = machine("jit").machine()
    with pytest.raises(Fault) as err:  # the interpreter's PC is past the store, the JIT's at it
        run_compared(translated, lambda: machine("interp").machine(), [])
    assert err.value.kind == FaultKind.MEMORY and err.value.lane == 4


THREE_KERNELS = r"""
#include <hip/hip_runtime.h>
#include <cstdio>
__global__ void scale(float* x, float k) { x[threadIdx.x] *= k; }
__global__ void shift(float* x, float k) { x[threadIdx.x] += k; }
__global__ void never(float* x) { x[threadIdx.x] = -1.0f; }
int main() {
  float h[64], *x;
  for (int i = 0; i < 64; i++) h[i] = i;
  hipMalloc(&x, sizeof h);
  hipMemcpy(x, h, sizeof h, hipMemcpyHostToDevice);
  scale<<<1, 64>>>(x, 2.0f);
  shift<<<1, 64>>>(x, 1.0f);
  scale<<<1, 64>>>(x, 0.5f);
  hipMemcpy(h, x, sizeof h, hipMemcpyDeviceToHost);
  printf("%g %g\n", h[0], h[63]);
  return 0;
}
"""


def test_only_the_kernels_a_program_launches_are_compiled_each_on_its_own(tmp_path):
    """A library's code object holds hundreds of kernels a program never launches: compiling
    them all made one launch wait minutes. Each launched kernel is its own library."""
    from cass.runner.emulator import codeobject
    from cass.runner.emulator.jit.kernels import kernel_code
    from cass.runner.emulator.program import Program
    from elftools.elf.elffile import ELFFile

    source = tmp_path / "three.hip"
    source.write_text(THREE_KERNELS)
    exe = build_hip_program(source, tmp_path / "three", extra_args=["-O2"])
    env = {**os.environ, "CASS_EMULATOR_ENGINE": "jit", "CASS_EMULATOR_JIT_WAIT": "1"}
    env["CASS_CACHE_DIR"] = str(tmp_path / "c")
    run = run_program(exe, timeout_s=240, env=env)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.split() == ["0.5", "63.5"]
    assert len(_libraries(tmp_path / "c")) == 2  # scale and shift; never is not compiled
    s = run.stats
    assert s.native_instructions == s.instructions > 0
    # each kernel's code is its own function's range: no other kernel's entry inside
    with open(exe, "rb") as handle:
        bundle = ELFFile(handle).get_section_by_name(".hip_fatbin").data()
    program = Program(codeobject.load(bundle), None)
    code = kernel_code(program)
    assert len(code) == 3
    for entry, instructions in code.items():
        assert entry in instructions and not (set(code) - {entry}) & set(instructions)


def test_staging_left_by_a_killed_compile_is_removed_once_old(tmp_path):
    """A compile killed mid-way (SIGKILL, Ctrl-C twice) leaves its `.jit-*` staging folder; the
    next compile into that cache removes the ones older than any compile can run."""
    from cass.runner.emulator.jit import native

    old, fresh = tmp_path / ".jit-old-abc", tmp_path / ".jit-new-def"
    for d in (old, fresh):
        d.mkdir()
        (d / "part0.cpp").write_text("// half written")
    os.utime(old, (0, 0))
    kept = tmp_path / "jit-0123-4567"
    kept.mkdir()
    os.utime(kept, (0, 0))
    assert native.remove_abandoned_staging(tmp_path) == 1
    assert not old.exists() and fresh.is_dir() and kept.is_dir()
