"""A large module of several kernels is compiled in parts by concurrent opt-16 | llc-16 processes:
cut before opt-16 by the lifter (cass.models.lift.parts.partition, module.compile_parts) or, when
its kernels share a global, split after opt-16 by llvm-split-16 (module.codegen_parts). The joined
assembly keeps every part's local labels apart, one target directive, every kernel in the code
object metadata, and runs as the module compiled whole does."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.models.lift import module, pipeline
from cass.models.lift.parts import Unit, partition
from cass.models.lift.targets import AMDGCN, NVPTX
from cass.runner.diagnostics import WorkError

DATA = Path(__file__).parent / "data"
KERNELS = ["async_copy", "async_partial", "cg_copy", "generic_ptrs", "widths", "atomics", "atomics_wide", "strong",
           "device_vars", "constants", "grid_sync"]  # fmt: skip


def part(kernel: str, label_number: int = 0) -> str:
    """llc-16's output for a module of one kernel, in the shape it prints it."""
    return (
        '\t.text\n\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\n'
        f"\t.globl\t{kernel}\n{kernel}:\n"
        f".LBB{label_number}_1:\n\ts_cbranch_scc1 .LBB{label_number}_1\n"
        f"\ts_endpgm\n.Lfunc_end{label_number}:\n"
        f"\t.size\t{kernel}, .Lfunc_end{label_number}-{kernel}\n"
        '\t.ascii\t"a.Lb"\n'
        "\t.text\n\t.p2alignl 7, 3214868480\n\t.fill 96, 4, 3214868480\n"
        '\t.section\t".note.GNU-stack"\n'
        "\t.amdgpu_metadata\n---\namdhsa.kernels:\n"
        f"  - .name:           {kernel}\n    .symbol:         {kernel}.kd\n"
        "amdhsa.target:   amdgcn-amd-amdhsa--gfx1100\namdhsa.version:\n  - 1\n  - 1\n...\n\n"
        "\t.end_amdgpu_metadata\n"
    )


def test_parts_are_joined_with_their_labels_apart_and_one_metadata_block() -> None:
    merged = module.merge_assembly([part("a"), part("b")])
    assert merged.count(".amdgpu_metadata\n") == 1 and merged.count("amdhsa.kernels:") == 1
    assert "- .name:           a\n" in merged and "- .name:           b\n" in merged
    assert merged.count('\t.amdgcn_target "') == 1  # the second is commented out
    assert ".LBB0_1:" in merged and ".Lp1_BB0_1:" in merged and ".Lp1_func_end0-b" in merged
    assert merged.count('"a.Lb"') == 2  # data text is not label text
    assert merged.count(".fill 96, 4, 3214868480") == 1  # the padding once, after all the code


def test_a_part_without_a_kernel_is_dropped_and_disagreeing_metadata_is_an_error() -> None:
    empty = '\t.text\n\t.amdgcn_target "amdgcn-amd-amdhsa--gfx1100"\n'
    merged = module.merge_assembly([empty, part("b")])
    assert merged.count('\t.amdgcn_target "') == 1 and ".LBB0_1:" in merged
    other = part("c").replace("  - 1\n  - 1\n", "  - 1\n  - 2\n")
    with pytest.raises(WorkError, match="disagree"):
        module.merge_assembly([part("a"), other])


def test_only_large_gfx1100_modules_of_several_kernels_are_split(monkeypatch) -> None:
    monkeypatch.setattr(module, "cpu_count", lambda: 2)
    big = module.SPLIT_MIN
    assert module.split_jobs("", AMDGCN, 3, big) == 2
    assert module.split_jobs("", AMDGCN, 1, big) == 1
    assert module.split_jobs("", AMDGCN, 3, big - 1) == 1
    assert module.split_jobs("", NVPTX, 3, big) == 1
    assert module.split_jobs("call i64 @__ockl_printf_begin(i64 0)", AMDGCN, 3, big) == 1
    monkeypatch.setattr(module, "cpu_count", lambda: 1)
    assert module.split_jobs("", AMDGCN, 3, big) == 1


def test_kernels_are_grouped_by_size_with_the_globals_they_name() -> None:
    units = [Unit("k1", 'define void @k1() { load ptr @"dev" }', 100), Unit("k2", "define void @k2()", 900),
             Unit("k3", "define void @k3() { @tab }", 500)]  # fmt: skip
    globals_text = '@"dev" = global i32 0\n@tab = global i32 1\n@unread = global i32 2\n'
    parts = partition(globals_text, units, 2)
    assert parts is not None and [p.names for p in parts] == [("k2",), ("k3", "k1")]
    assert [p.largest_kernel for p in parts] == [900, 500]
    assert parts[0].texts[0] == "@unread = global i32 2\n"  # named by no kernel: the first part
    assert parts[1].texts[0] == '@"dev" = global i32 0\n@tab = global i32 1\n'
    assert parts[1].texts[1:] == (units[2].text, units[0].text)
    assert (
        partition(globals_text, units, 1) is None and partition(globals_text, units[:1], 2) is None
    )


def test_a_module_whose_groups_share_a_global_or_a_kernel_is_not_cut() -> None:
    units = [
        Unit("k1", "define void @k1() { @tab }", 100),
        Unit("k2", "define void @k2() { @tab }", 900),
    ]
    assert partition("@tab = global i32 1\n", units, 2) is None
    tabs = [Unit(u.name, u.text.replace("@tab", "@tabs"), u.instructions) for u in units]
    assert partition("@tab = global i32 1\n", tabs, 2) is not None  # `@tabs` is not `@tab`
    calls = [Unit("k1", "define void @k1()", 100), Unit("k2", "call void @k1()", 900)]
    assert partition("", calls, 2) is None


@pytest.mark.parametrize("cut", ["before opt", "after opt"])
def test_memory_kernels_compiled_in_parts_match_their_cpu_reference(
    tmp_path: Path, build_lifted, monkeypatch, cut: str
) -> None:
    """Eleven kernels with `__device__` variables the host reads back by name and `__constant__`
    data, compiled in parts cut by the lifter (each global defined by the part that uses it) and
    split by llvm-split-16 (the globals one part defines, the others reference), in one assembly
    file."""
    from cass.runner.emulator import run_program

    monkeypatch.setattr(module, "SPLIT_MIN", 0)
    monkeypatch.setattr(module, "cpu_count", lambda: 2)
    calls: list[str] = []
    monkeypatch.setattr(
        module, "compile_parts", lambda *a, f=module.compile_parts: calls.append("cut") or f(*a)
    )
    if cut == "after opt":
        monkeypatch.setattr(pipeline, "partition", lambda *a: None)
    program = build_lifted(DATA / "mem_kernels.cu", "sm_90", tmp_path, defines=("-DMEM_KERNELS_NVCC",))  # fmt: skip
    assembly = (tmp_path / "device.s").read_text()
    assert ".Lp1_" in assembly, "the module was not compiled in parts"
    assert calls == (["cut"] if cut == "before opt" else [])
    run = run_program(program)
    assert run.stdout.splitlines() == [f"{name} ok" for name in KERNELS], run.stdout + run.stderr
    assert run.exit_code == 0


def _two_kernels() -> str:
    """A listing of two small sm_90 kernels (a load, a multiply-add, a store)."""
    body = ["S2R R0, SR_TID.X", "LDC.64 R2, c[0x0][0x210]", "ULDC.64 UR4, c[0x0][0x208]",
            "IMAD.WIDE R2, R0, 0x4, R2", "LDG.E R4, desc[UR4][R2.64]", "FFMA R4, R4, R4, 0.5",
            "STG.E desc[UR4][R2.64], R4", "EXIT"]  # fmt: skip
    lines = ["\tcode for sm_90"]
    for name in ("_Z1aPf", "_Z1bPf"):
        lines.append(f"\t\tFunction : {name}")
        lines += [f"        /*{16 * i:04x}*/                   {t} ;" for i, t in enumerate(body)]
    return "\n".join(lines) + "\n"


def _record_started_parts(monkeypatch) -> list[tuple[str, ...]]:
    """Every module is cut (two CPUs); the names of each part, in the order its compile starts."""
    monkeypatch.setattr(module, "SPLIT_MIN", 0)
    monkeypatch.setattr(module, "cpu_count", lambda: 2)
    started: list[tuple[str, ...]] = []
    submit = module.PartCompiler.submit
    monkeypatch.setattr(module.PartCompiler, "submit",
                        lambda self, k, part: started.append(part.names) or submit(self, k, part))  # fmt: skip
    return started


def test_parts_start_compiling_as_their_kernels_are_lifted(monkeypatch) -> None:
    """Each part's opt-16 and llc-16 start once its kernel is lifted (pipeline.EarlyParts), and
    the joined assembly is what compiling the cut module afterwards gives."""
    started = _record_started_parts(monkeypatch)
    result = pipeline.lift_sass(_two_kernels(), arch="sm_90")
    assert result.ok and [p.names for p in result.parts] == [("_Z1aPf",), ("_Z1bPf",)]
    assert started == [("_Z1aPf",), ("_Z1bPf",)]  # by EarlyParts, in lifting order
    assert ".Lp1_" in result.assembly and "_Z1bPf.kd" in result.assembly
    assert module.compile_parts(list(result.parts), AMDGCN) == result.assembly


def test_a_kernel_that_does_not_lift_drops_the_early_parts(monkeypatch) -> None:
    """The first kernel's part is started, the second kernel does not lift: the started part is
    waited for and dropped, the lift reports the error and no assembly."""
    started = _record_started_parts(monkeypatch)
    text = _two_kernels()
    at = text.rindex("FFMA R4, R4, R4, 0.5")
    text = text[:at] + "FOOBAR R4, R4" + text[at + len("FFMA R4, R4, R4, 0.5") :]
    result = pipeline.lift_sass(text, arch="sm_90")
    assert started == [("_Z1aPf",)]
    assert not result.ok and result.assembly == ""
    assert any("FOOBAR" in d.message for d in result.diagnostics)
