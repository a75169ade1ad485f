"""The interpreter as the oracle where wave order decides a result: a launch whose result
depends on which wave wins a race is counted schedule-dependent (the interpreter differs from
itself in two wave orders, the translated code equals it in its own), while a wrong translation
in that same racing kernel is still an engine mismatch."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from cass.runner.emulator import build_hip_program, run_program

pytestmark = pytest.mark.toolchain
PROGRAM = Path(__file__).parent / "programs" / "racing_cas.hip"

# Loaded by the emulator's Python (PYTHONPATH): v_fmac_f32 translated as v_mul_f32, into a
# library of its own (never the shared cache)
WRONG_TRANSLATION = """
import dataclasses, os
from pathlib import Path
from cass.runner.emulator.jit import native, translate

_body = translate._body


def _wrong(ins):
    if ins.op == "v_fmac_f32":
        ins = dataclasses.replace(ins, mnemonic=ins.mnemonic.replace("v_fmac", "v_mul"))
    return _body(ins)


translate._body = _wrong
native.library_path = lambda key, tier=2: Path(os.environ["WRONG_JIT_LIBRARY"]) / f"{key.hex()[:16]}-t{tier}"
"""


@pytest.fixture(scope="module")
def racing(tmp_path_factory) -> Path:
    work = tmp_path_factory.mktemp("racing")
    return Path(build_hip_program(PROGRAM, work / "racing_cas", extra_args=["-O2"]))


def test_a_racing_compare_and_swap_is_schedule_dependent_under_both(racing):
    run = run_program(racing, timeout_s=240, env={**os.environ, "CASS_EMULATOR_ENGINE": "both"})
    assert run.exit_code == 0 and not run.fault_reports, run.stderr
    assert "a wave claimed the slot: yes; last sum 76.000" in run.stdout
    s = run.stats
    assert s.compared_launches == 1
    assert list(s.schedule_dependent.values()) == [1]
    assert "claim" in next(iter(s.schedule_dependent))
    assert "0 launches identical under both engines, 1 schedule-dependent (_Z5claim" in s.summary()


def test_a_wrong_translation_in_the_racing_kernel_is_still_an_engine_mismatch(racing, tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "sitecustomize.py").write_text(WRONG_TRANSLATION)
    env = {
        **os.environ,
        "CASS_EMULATOR_ENGINE": "both",
        "PYTHONPATH": os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")])),
        "WRONG_JIT_LIBRARY": str(tmp_path / "wrong-jit"),
    }
    run = run_program(racing, timeout_s=240, env=env)
    assert list((tmp_path / "wrong-jit").glob("*/kernels.so"))  # the wrong translation was built
    reports = run.fault_reports
    assert [r.get("kind") for r in reports] == ["engine-mismatch"], run.stderr
    message = reports[0]["message"]
    assert "in the translated code's wave order" in message
    assert ": V[2, 0, " in message  # v2: the sum the wrong v_fmac_f32 computed
    assert not run.stats.schedule_dependent
