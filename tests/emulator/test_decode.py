"""The decoder: llvm-objdump text -> operands, checked against LLVM's own output on real
code objects (every instruction clang emits for the test programs parses, and each one the
emulator cannot execute is named), plus the bundle/ELF/metadata loader."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cass.runner.emulator import codeobject
from cass.runner.emulator.decode import disassemble_text, parse_listing, parse_operand, parse_text
from cass.runner.emulator.program import compile_instruction
from cass.runner.toolchain import hip_device_lib_dir, require_tool

pytestmark = pytest.mark.toolchain
PROGRAMS = Path(__file__).parent / "programs"

OPERANDS = [
    ("v5", ("v", 5, 1)),
    ("v[2:3]", ("v", 2, 2)),
    ("s[4:7]", ("s", 4, 4)),
    ("vcc_lo", ("s", 106, 1)),
    ("exec_lo", ("s", 126, 1)),
    ("null", ("s", 124, 1)),
    ("m0", ("s", 125, 1)),
    ("0x3f800000", ("int", 0, 1)),
    ("-16", ("int", 0, 1)),
    ("0.5", ("float", 0, 1)),
    ("src_shared_base", ("special", 0, 1)),
    ("off", ("off", 0, 1)),
]


@pytest.mark.parametrize("text,expect", OPERANDS, ids=[o[0] for o in OPERANDS])
def test_operand_kinds(text, expect):
    op = parse_operand(text)
    assert (op.kind, op.index if op.kind in "vs" else 0, op.count) == expect


def test_modifiers_and_source_modifiers():
    ins = parse_text("v_add_f64 v[2:3], v[2:3], -|v[15:16]|")
    assert ins.operands[2].neg and ins.operands[2].abs and ins.operands[2].index == 15
    ins = parse_text("global_load_b32 v1, v2, s[0:1] offset:16 glc")
    assert ins.modifiers == {"offset": "16", "glc": ""} and len(ins.operands) == 3
    ins = parse_text("v_pk_add_f16 v0, v1, v2 op_sel:[1,0] op_sel_hi:[0,1]")
    assert ins.modifiers["op_sel"] == "[1,0]" and len(ins.operands) == 3
    ins = parse_text("v_dual_mul_f32 v0, v1, v2 :: v_dual_add_f32 v3, v4, v5")
    assert ins.mnemonic == "v_dual_mul_f32" and ins.second.mnemonic == "v_dual_add_f32"


@pytest.fixture(scope="module")
def code_objects(tmp_path_factory) -> list[bytes]:
    out = tmp_path_factory.mktemp("co")
    images = []
    for name, opt in (
        ("histogram", "-O0"),
        ("double_math", "-O3"),
        ("warp_ops", "-O2"),
        ("device_printf", "-O2"),
    ):
        target = out / f"{name}{opt}.co"
        subprocess.run(
            [
                str(require_tool("clang++-16")),
                "-x",
                "hip",
                "--offload-arch=gfx1100",
                "--rocm-path=/usr",
                f"--rocm-device-lib-path={hip_device_lib_dir()}",
                opt,
                "--cuda-device-only",
                "-o",
                str(target),
                str(PROGRAMS / f"{name}.hip"),
            ],
            check=True,
            capture_output=True,
            timeout=300,
        )
        images.append(target.read_bytes())
    return images


def test_every_emitted_instruction_decodes_and_compiles(code_objects, tmp_path):
    unsupported = set()
    total = 0
    for image in code_objects:
        co = codeobject.load(image)
        listing = parse_listing(disassemble_text(co.elf, tmp_path))
        total += len(listing)
        for ins in listing.values():
            assert ins.mnemonic != "<unparsed>", ins.text
            handler = compile_instruction(ins)
            if handler.__qualname__.startswith("_unsupported"):
                unsupported.add(ins.op)
    assert total > 1000
    assert unsupported <= {"s_code_end"}, sorted(unsupported)


def test_code_object_loader_reads_kernels_and_metadata(code_objects):
    co = codeobject.load(code_objects[0])  # histogram -O0: bundle -> ELF
    assert co.version == 4  # clang-16's default code object version
    kernel = co.kernels["_Z9histogramPKhiPj"]
    assert kernel.descriptor.user_sgpr_count == 13  # -O0 asks for every user SGPR input
    kinds = [a[".value_kind"] for a in kernel.args]
    assert kinds[:3] == ["global_buffer", "by_value", "global_buffer"]
    assert kernel.descriptor.group_segment_size == 64 * 4  # the shared histogram, nothing else
    assert co.function_name_at(kernel.entry) == "_Z9histogramPKhiPj"  # its first instruction
    assert co.function_name_at(kernel.entry + 4) == "_Z9histogramPKhiPj"  # and one inside it


def test_bundle_without_gfx1100_is_a_clear_error():
    bundle = (
        codeobject.BUNDLE_MAGIC
        + (1).to_bytes(8, "little")
        + (64).to_bytes(8, "little")
        + (0).to_bytes(8, "little")
        + (len(b"hipv4-amdgcn-amd-amdhsa--gfx90a")).to_bytes(8, "little")
        + b"hipv4-amdgcn-amd-amdhsa--gfx90a"
    )
    with pytest.raises(codeobject.CodeObjectError, match="gfx1100"):
        codeobject.load(bundle)
