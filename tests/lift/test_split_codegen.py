"""A large module of several kernels is compiled in parts by concurrent llc-16 processes
(cass.models.lift.module.codegen_parts): the joined assembly keeps every part's local labels
apart, one target directive, every kernel in the code object metadata, and runs as the module
compiled whole does."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.models.lift import module
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


def test_memory_kernels_compiled_in_parts_match_their_cpu_reference(
    tmp_path: Path, build_lifted, monkeypatch
) -> None:
    """Eleven kernels with `__device__` variables the host reads back by name and `__constant__`
    data: the globals one part defines, the others reference, in one assembly file."""
    from cass.runner.emulator import run_program

    monkeypatch.setattr(module, "SPLIT_MIN", 0)
    monkeypatch.setattr(module, "cpu_count", lambda: 2)
    program = build_lifted(DATA / "mem_kernels.cu", "sm_90", tmp_path, defines=("-DMEM_KERNELS_NVCC",))  # fmt: skip
    assembly = (tmp_path / "device.s").read_text()
    assert ".Lp1_" in assembly, "the module was not compiled in parts"
    run = run_program(program)
    assert run.stdout.splitlines() == [f"{name} ok" for name in KERNELS], run.stdout + run.stderr
    assert run.exit_code == 0
