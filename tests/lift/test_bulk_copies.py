"""sm_90 bulk asynchronous copies (data/bulk_kernels.cu): cuda::memcpy_async into a block-scope
cuda::barrier (UBLKCP.S.G completing the mbarrier's transactions, two phases), inline-PTX
cp.async.bulk both ways, cp.reduce.async.bulk add, prefetch, commit and wait_group. Lifted from
real nvcc SASS, run on the RDNA3 emulator against a Python model and the H200's output of the
original (data/bulk_kernels.h200.txt, recorded with data/bulk_reference.cu); tensor-map copies are located
errors naming the instruction and the kernel."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cass.models.lift.parse import parse_instruction
from cass.models.lift.pipeline import lift_sass

DATA = Path(__file__).parent / "data"
N = 1024
IN = [(i * 37 + 11) % 101 - (5 if i % 9 == 0 else 0) for i in range(N)]


def barrier_copy() -> list[int]:
    out = [0] * N
    for b in range(2):
        for phase in range(2):
            base = b * 512 + phase * 256
            for t in range(256):
                out[base + t] = IN[base + 255 - t] * 3 + phase
    return out


def bulk_copy() -> tuple[list[int], list[int]]:
    tiles = [[IN[b * 256 + t] * 2 + t for t in range(256)] for b in range(4)]
    return [v for tile in tiles for v in tile], [sum(tile[t] for tile in tiles) for t in range(256)]


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_bulk_copies_run_as_the_source_says(arch: str, tmp_path: Path, build_lifted) -> None:
    from cass.models.lift.inputs import disassemble
    from cass.runner.emulator import run_program

    program = build_lifted(DATA / "bulk_kernels.cu", arch, tmp_path, host=DATA / "bulk_host.hip")
    sass = disassemble(tmp_path / "bulk_kernels.cubin", None)
    forms = (
        "UBLKCP.S.G",
        "UBLKCP.G.S",
        "UBLKRED.G.S.ADD.S32",
        "UBLKPF.L2",
        "UTMACMDFLUSH",
        "ELECT",
    )
    for form in forms if arch == "sm_90" else ("LDGSTS",):
        assert form in sass, form
    run = run_program(program, ["sm90"] if arch == "sm_90" else [], timeout_s=240)
    assert run.exit_code == 0, run.stderr
    lines = run.stdout.splitlines()
    assert lines[0] == " ".join(["bulk_barrier", *map(str, barrier_copy())])
    h200 = (DATA / "bulk_kernels.h200.txt").read_text().splitlines()  # data/bulk_reference.cu
    assert h200[-1] == "status cudaSuccess" and h200[0] == lines[0]
    if arch == "sm_90":
        assert lines[1:] == h200[1:3]
        copied, sums = bulk_copy()
        assert lines[1:] == [" ".join(["bulk_copy", *map(str, copied)]),
                             " ".join(["bulk_sums", *map(str, sums)])]  # fmt: skip


def test_tensor_map_copies_are_located_errors(tmp_path: Path, build_lifted) -> None:
    from cass.models.lift.elfinfo import read_cubin
    from cass.models.lift.inputs import disassemble
    from cass.runner.toolchain import find_tool

    cubin = tmp_path / "k.cubin"
    subprocess.run([str(find_tool("nvcc").path), "-cubin", "-O3", "-arch=sm_90", "-o", str(cubin),
                    str(DATA / "bulk_tensor.cu")], check=True, capture_output=True, timeout=300)  # fmt: skip
    result = lift_sass(disassemble(cubin, None), path="k.sass", arch="sm_90",
                       cubin=read_cubin(cubin.read_bytes()), compile=False)  # fmt: skip
    messages = [d.message for d in result.diagnostics]
    for opcode in ("UTMALDG.2D", "UTMASTG.2D", "UTMAPF.L2.2D"):
        hit = [m for m in messages if f"'{opcode} " in m]
        assert hit and hit[0].startswith("tma_copy at /*"), (opcode, messages)
        assert "CUtensorMap" in hit[0] and "cp.async.bulk" in hit[0]
    assert not result.ok and all(d.line > 1 for d in result.diagnostics)


def test_elect_and_bulk_forms_parse() -> None:
    ins = parse_instruction("UBLKRED.G.S.ADD.S32 [UR4], [UR6], UR7", 0x410)
    assert ins.opcode == "UBLKRED" and ins.mods == ("G", "S", "ADD", "S32")
    assert [o.reg.name for o in ins.operands[:2]] == ["UR4", "UR6"]  # type: ignore[union-attr]
