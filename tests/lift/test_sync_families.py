"""Block synchronisation beyond `__syncthreads`, one kernel per family (data/sync_kernels.cu):
named barriers with thread counts and arrive-only warps, `__syncthreads_count/and/or`, a cp.async
pipeline (LDGSTS/LDGDEPBAR/DEPBAR), `cuda::barrier` + `memcpy_async` (mbarrier: ATOMS.ARRIVE and
ARRIVES.LDGSTSBAR on sm_80, SYNCS on sm_90) and raw mbarrier phases with transaction counts.
Lifted from sm_80 and sm_90 SASS, run on the RDNA3 emulator, checked against a Python model."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cass.models.lift.cfg import polled_loads
from cass.models.lift.parse import parse_listing
from cass.models.lift.pipeline import lift_sass

DATA = Path(__file__).parent / "data"
N = 1024
IN = [(i * 37 + 11) % 101 - (5 if i % 9 == 0 else 0) for i in range(N)]


def named() -> list[int]:
    out = []
    for b in range(2):
        base = b * 128
        groups = []
        for g, rounds in ((0, 3), (1, 5)):
            acc = IN[base + 64 * g : base + 64 * g + 64]
            for r in range(rounds):
                acc = [acc[k] + acc[(k + r + 1) % 64] for k in range(64)]
            groups.append(acc)
        out += groups[0]
        out += [IN[base + 127 - t] * 3 + t + groups[1][t - 64] * 7 for t in range(64, 128)]
    return out


def reductions() -> list[int]:
    out = []
    for b in range(4):
        v = IN[b * 128 : (b + 1) * 128]
        out += [sum(x > 50 for x in v), int(all(x >= 0 for x in v)), int(any(x == 77 for x in v))]
    return out


def pipelined(tiles: int = 6) -> list[int]:
    return [sum(IN[k * 128 + (t + k) % 128] * (k + 1) for k in range(tiles)) for t in range(128)]


def barriered() -> list[int]:
    out = []
    for b in range(2):
        smem = IN[b * 256 : (b + 1) * 256]
        res = [smem[255 - t] + smem[t] for t in range(128)]
        for r in range(3):
            smem[:128] = [smem[t] * 2 + r for t in range(128)]
            res = [res[t] + smem[(t + 1) % 128] for t in range(128)]
        out += res
    return out


def phases() -> list[int]:
    return [(127 - t) * (p + 1) + p for _ in range(2) for p in range(4) for t in range(128)]


def expected_lines() -> list[str]:
    parts = [("named", named()), ("reductions", reductions()), ("pipelined", pipelined()),
             ("barriered", barriered()), ("phases", phases())]  # fmt: skip
    return [" ".join([name, *map(str, values)]) for name, values in parts]


def test_spin_wait_loads_are_found() -> None:
    text = "\tFunction : k\n" + "\n".join(f"/*{a:04x}*/ {t} ;" for a, t in [
        (0x00, "LDS R2, [0x4]"), (0x10, "LOP3.LUT P0, RZ, R2, 0x80000000, RZ, 0xc0, !PT"), (0x20, "@!P0 BRA 0x0"),
        (0x30, "LDS R3, [R4]"), (0x40, "STS [R4], R3"), (0x50, "@!P0 BRA 0x30"), (0x60, "EXIT")])  # fmt: skip
    assert polled_loads(parse_listing(text, "k.sass").functions[0]) == {
        0x00
    }  # the second loop stores


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_sync_families_run_as_the_source_says(arch: str, tmp_path: Path, build_lifted) -> None:
    from cass.models.lift.inputs import disassemble
    from cass.runner.emulator import run_program

    program = build_lifted(DATA / "sync_kernels.cu", arch, tmp_path, host=DATA / "sync_host.hip")
    sass = disassemble(tmp_path / "sync_kernels.cubin", None)
    for form in (
        "BAR.ARV",
        "BAR.SYNC.DEFER_BLOCKING 0x3, 0x40",
        "BAR.RED.POPC",
        "LDGSTS",
        "DEPBAR",
        *(
            ("SYNCS.ARRIVE", "SYNCS.PHASECHK")
            if arch == "sm_90"
            else ("ATOMS.ARRIVE.64", "ARRIVES.LDGSTSBAR")
        ),
    ):
        assert form in sass, form
    run = run_program(program, timeout_s=240)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines() == expected_lines()


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_sync_families_build_for_nvptx(arch: str, tmp_path: Path, build_lifted) -> None:
    from cass.models.lift.elfinfo import read_cubin
    from cass.models.lift.inputs import disassemble
    from cass.runner.toolchain import find_tool

    cubin = tmp_path / "k.cubin"
    subprocess.run([str(find_tool("nvcc").path), "-cubin", "-O3", f"-arch={arch}", "-o", str(cubin),
                    str(DATA / "sync_kernels.cu")], check=True, capture_output=True, timeout=300)  # fmt: skip
    result = lift_sass(
        disassemble(cubin, None), arch=arch, target="nvptx", cubin=read_cubin(cubin.read_bytes())
    )
    assert result.ok, [d.render() for d in result.diagnostics]
    assert "barrier.arrive" in result.assembly and "barrier.sync" in result.assembly
