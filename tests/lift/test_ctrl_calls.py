"""Calls the lifter recovers from SASS: device-function pointers (`CALL.REL.NOINC Rx`, dispatched
over the subroutine entries) and non-tail recursion on the local-memory stack (return addresses
spilled with STL, `RET.REL.NODEC R20` through the return points). Lifted from sm_80 and sm_90,
run on the RDNA3 emulator, checked against a Python model of the kernels."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest
from cass.models.lift.cfg import build_cfg
from cass.models.lift.parse import parse_instruction, parse_listing
from cass.models.lift.pipeline import lift_sass

DATA = Path(__file__).parent / "data"
MASK64 = (1 << 64) - 1


def wrap64(v: int) -> int:
    v &= MASK64
    return v - (1 << 64) if v >> 63 else v


@cache
def tree(n: int, salt: int) -> int:
    if n < 2:
        return n + salt
    return tree(n - 1, salt) + 2 * tree(n - 2, salt + 1) % 1000


def expected_lines() -> list[str]:
    values = [(i * 37) % 101 for i in range(100)]
    pointers = [(v * 3 + 1, v ^ 0x55, v - 77)[v % 3] for v in values]
    recursion = [tree(v % 11, i & 7) for i, v in enumerate(values)]
    lines = []
    for name, out in (("fnptr", pointers), ("recurse", recursion)):
        h = 0
        for x in out:
            h = wrap64(h * 31 + x)
        lines.append(f"{name} {h}")
    return lines


def test_indirect_call_parses_and_dispatches_over_subroutine_entries() -> None:
    call = parse_instruction("CALL.REL.NOINC R6 0x0", 0x440)
    assert call.opcode == "CALL" and [getattr(o, "name", None) for o in call.operands] == ["R6"]
    text = "\n".join(f"/*{a:04x}*/ {t} ;" for a, t in [
        (0x00, "MOV R20, 0x30"), (0x10, "MOV R21, 0x0"), (0x20, "CALL.REL.NOINC R6 0x0"), (0x30, "EXIT"),
        (0x40, "IMAD R4, R4, 0x3, RZ"), (0x50, "RET.REL.NODEC R20 0x0"), (0x60, "LOP3.LUT R4, R4, 0x55, RZ, 0x3c, !PT"),
        (0x70, "RET.REL.NODEC R20 0x0"), (0x80, "BRA 0x80"), (0x90, "NOP")])  # fmt: skip
    fn = parse_listing("\tFunction : k\n" + text, "k.sass").functions[0]
    assert build_cfg(fn).entries == (0x40, 0x60, 0x80)
    assert build_cfg(fn).return_points == (0x30,)


LISTING = [  # kernel calls `leaf` twice and `rec` (recursive) once
    (0x00, "MOV R20, 0x20"), (0x10, "CALL.REL.NOINC 0x70"), (0x20, "MOV R20, 0x40"), (0x30, "CALL.REL.NOINC 0x70"),
    (0x40, "MOV R20, 0x60"), (0x50, "CALL.REL.NOINC 0x90"), (0x60, "EXIT"),
    (0x70, "IADD3 R4, R4, 0x1, RZ"), (0x80, "RET.REL.NODEC R20 0x0"),
    (0x90, "ISETP.GT.AND P0, PT, R4, 0x3, PT"), (0xa0, "@P0 RET.REL.NODEC R20 0x0"), (0xb0, "IADD3 R4, R4, 0x1, RZ"),
    (0xc0, "MOV R20, 0xe0"), (0xd0, "CALL.REL.NOINC 0x90"), (0xe0, "RET.REL.NODEC R20 0x0"),
]  # fmt: skip


def test_non_recursive_subroutines_are_inlined_per_call_site() -> None:
    text = "\tFunction : k\n" + "\n".join(f"/*{a:04x}*/ {t} ;" for a, t in LISTING)
    fn = parse_listing(text, "k.sass").functions[0]
    cfg = build_cfg(fn)
    assert cfg.inlining is not None and set(cfg.inlining.bodies) == {0x70}  # rec calls itself
    assert cfg.inlining.bodies[0x70] == (0x70, 0x80)
    ir = lift_sass(text, path="k.sass", arch="sm_90", compile=False).llvm_ir
    assert "c10.a0070:" in ir and "c30.a0070:" in ir  # one copy per call site
    assert (
        ir.count(", label %exit [ i32 96, label %a0060  i32 224, label %a00e0 ]") == 3
    )  # rec returns to its callers
    assert (
        "label %a0020  " not in ir and "label %a0040  " not in ir
    )  # inlined sites are not return points


def test_large_inlining_becomes_one_function_over_the_registers(monkeypatch) -> None:
    from cass.models.lift import outline

    text = "\tFunction : k\n" + "\n".join(f"/*{a:04x}*/ {t} ;" for a, t in LISTING)
    monkeypatch.setattr(outline, "OUTLINE_MIN", 4)  # 2 sites x 2 instructions of `leaf`
    ir = lift_sass(text, path="k.sass", arch="sm_90", compile=False).llvm_ir
    assert "c10.a0070:" not in ir and "c30.a0070:" not in ir  # no per-site copies
    assert ir.count('define internal { i32 } @"k.sub.70"(i32 %in.R4)') == 1  # reads, writes R4
    assert ir.count('call { i32 } @"k.sub.70"(') == 2
    assert ", label %exit [ i32 96, label %a0060  i32 224, label %a00e0 ]" in ir  # rec: shared
    monkeypatch.setattr(outline, "OUTLINE_MIN", 5)
    assert "k.sub.70" not in lift_sass(text, path="k.sass", arch="sm_90", compile=False).llvm_ir


@pytest.fixture(scope="module", params=["sm_80", "sm_90"])
def lifted_program(request, tmp_path_factory, build_lifted) -> Path:
    work = tmp_path_factory.mktemp(f"ctrl-{request.param}")
    return build_lifted(DATA / "ctrl_kernels.cu", request.param, work, host=DATA / "ctrl_host.hip")


def test_function_pointers_and_recursion_run_as_on_nvidia(lifted_program: Path) -> None:
    from cass.runner.emulator import run_program

    run = run_program(lifted_program)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.splitlines() == expected_lines()


def test_an_outlined_subroutine_takes_only_the_registers_live_at_its_entry(monkeypatch) -> None:
    from cass.models.lift import outline

    listing = [(0x00, "MOV R20, 0x20"), (0x10, "CALL.REL.NOINC 0x50"), (0x20, "MOV R20, 0x40"),
               (0x30, "CALL.REL.NOINC 0x50"), (0x40, "EXIT"),
               (0x50, "ISETP.GT.AND P0, PT, R4, 0x3, PT"),  # P0 written first: not passed
               (0x60, "@P0 IADD3 R5, R4, 0x1, RZ"),  # R5 written on one path: passed
               (0x70, "MOV R6, 0x7"),  # R6 always written first: not passed
               (0x80, "IADD3 R4, R6, R4, RZ"), (0x90, "RET.REL.NODEC R20 0x0")]  # fmt: skip
    text = "\tFunction : k\n" + "\n".join(f"/*{a:04x}*/ {t} ;" for a, t in listing)
    monkeypatch.setattr(outline, "OUTLINE_MIN", 1)
    ir = lift_sass(text, path="k.sass", arch="sm_90", compile=False).llvm_ir
    assert 'define internal { i1, i32, i32, i32 } @"k.sub.50"(i32 %in.R4, i32 %in.R5)' in ir
    assert ir.count('call { i1, i32, i32, i32 } @"k.sub.50"(i32 ') == 2


@pytest.fixture(scope="module")
def pow_runs(tmp_path_factory, build_lifted) -> dict[str, tuple[str, str]]:
    """pow_kernels.cu from sm_80 (its logarithm subroutine reads the literal pool c[0x2]), lifted
    with a copy of the subroutine per call site, as small kernels are, and outlined, as the
    calls of very large kernels are: (gfx1100 assembly, emulator output) of each."""
    from cass.models.lift import outline
    from cass.runner.emulator import run_program

    runs = {}
    for variant in ("inlined", "outlined"):
        work = tmp_path_factory.mktemp(f"pow-{variant}")
        with pytest.MonkeyPatch.context() as patch:
            if variant == "outlined":
                patch.setattr(outline, "OUTLINE_MIN", 0)
            program = build_lifted(DATA / "pow_kernels.cu", "sm_80", work)
        run = run_program(program)
        assert run.exit_code == 0, run.stderr
        runs[variant] = ((work / "device.s").read_text(), run.stdout)
    return runs


def test_a_subroutine_reading_the_literal_pool_is_outlined_and_computes_the_same(pow_runs) -> None:
    import math

    (inlined_asm, inlined), (outlined_asm, outlined) = pow_runs["inlined"], pow_runs["outlined"]
    assert "s_swappc_b64" not in inlined_asm and outlined_asm.count("s_swappc_b64") == 2
    assert outlined == inlined  # the same bits either way
    lines = outlined.splitlines()
    assert len(lines) == 64
    for line in lines:
        i, first, second = line.split()
        x, y = 0.03125 + int(i) * 0.37, -3.0 + int(i) * 0.11
        assert math.isclose(float.fromhex(first), x**y, rel_tol=1e-14), line
        assert math.isclose(float.fromhex(second), (y + 4.0) ** (x * 0.5), rel_tol=1e-14), line


def test_large_kernels_outline_from_fewer_copied_instructions() -> None:
    from cass.models.lift.outline import OUTLINE_MIN, OUTLINE_MIN_LARGE, outline_min
    from cass.models.lift.targets import LARGE_KERNEL

    assert (
        outline_min(LARGE_KERNEL - 1)
        == OUTLINE_MIN
        > outline_min(LARGE_KERNEL)
        == OUTLINE_MIN_LARGE
    )

    def kernel(instructions: int) -> str:  # 100 calls of a 10-instruction leaf: 1,000 copies
        calls = [
            t for k in range(100) for t in (f"MOV R20, {0x20 * k + 0x20:#x}", "CALL.REL.NOINC LEAF")
        ]
        body = calls + ["IADD3 R5, R5, 0x1, RZ"] * (instructions - 211) + ["EXIT"]
        leaf = ["IADD3 R4, R4, 0x3, RZ"] * 9 + ["RET.REL.NODEC R20 0x0"]
        lines = [*body, *leaf]
        at = {k: 16 * k for k in range(len(lines))}
        text = [t.replace("LEAF", f"{at[len(body)]:#x}") for t in lines]
        return "\tFunction : k\n" + "\n".join(f"/*{at[k]:04x}*/ {t} ;" for k, t in enumerate(text))

    small = lift_sass(kernel(LARGE_KERNEL - 1), path="k.sass", arch="sm_90", compile=False)
    large = lift_sass(kernel(LARGE_KERNEL), path="k.sass", arch="sm_90", compile=False)
    assert small.kernels[0].instructions == LARGE_KERNEL - 1 and '@"k.sub.' not in small.llvm_ir
    assert large.llvm_ir.count('call { i32 } @"k.sub.') == 100
