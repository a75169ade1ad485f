"""Bound texture references (`texture<T, dim, mode>` + cudaBindTexture*, data/texture_refs.cu)
through the lifter. CUDA 12 removed them, so nvcc 11.x built the committed cubins and their
cuobjdump text (data/texture_refs.sm_80/sm_90.*): ptxas reads each reference's handle from a c[0x0]
word after the parameters that the loader patches (sm_80 `TLD.SCR.LZ ..., 0x0, 0x5b`; sm_90
`ULDC URx, c[0x0][0x21c]` then `TLD.LZ ..., URx`). The lift reads the HIP textureReference global
of the same name, which the rules engine's host port binds (every reference of the module gets
one, read by a kernel or not); the program runs on the emulator and prints what a Python model of
the CUDA program says. With CUDA 11's nvcc (CASS_LEGACY_NVCC: its
toolkit folder or the nvcc path; benchmarks/legacy_cuda.sh assembles one) the source is compiled
afresh too."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from cass.models.lift.elfinfo import read_cubin
from cass.models.lift.pipeline import lift_sass

DATA = Path(__file__).parent / "data"
SOURCE = DATA / "texture_refs.cu"
N, W, H = 96, 20, 6
SLOTS = {"sm_80": 0x170, "sm_90": 0x220}  # c[0x0] byte of read_chars' reference (t_chars)


def expected() -> dict[str, list[float]]:
    line = [(i * 7 % 31) - 9.5 for i in range(N)]
    chars = [i * 13 % 100 - 40 for i in range(W * H)]
    return {
        "bind_unread": [0],
        "scale_line": [line[N - 1 - i] * 1.5 for i in range(N)],
        "mix_quads": [
            i + 2 * (3 * i + 1) + 3 * (1000 - i) + 4 * (i % 5) + int(i * 0.5 + 2 * (i % 7) + 1)
            for i in range(N)
        ],
        "read_chars": [chars[y * W + x] * 3 + x for y in range(H) for x in range(W)],
    }


def parse_output(text: str) -> dict[str, list[float]]:
    return {
        name: [float(v) for v in values]
        for name, *values in (line.split() for line in text.splitlines() if line.strip())
    }


def _run(cubin: Path, sass: str, arch: str, work: Path) -> dict[str, list[float]]:
    from cass.models.bench.assembly import build_with_device_code
    from cass.models.workflow.porting import translate_source
    from cass.runner.emulator import run_program

    result = lift_sass(sass, path=str(cubin), arch=arch, cubin=read_cubin(cubin.read_bytes()))
    assert result.ok, [d.render() for d in result.diagnostics]
    assembly = work / "device.s"
    assembly.write_text(result.assembly)
    host = work / "main.hip"
    host.write_text(translate_source(SOURCE, "rules").text)
    assert "hipBindTexture(" in host.read_text()  # the port binds the references itself
    run = run_program(build_with_device_code(host, assembly, work), timeout_s=240)
    assert run.exit_code == 0, run.stderr
    return parse_output(run.stdout)


def test_cubin_names_the_texture_in_each_slot() -> None:
    """Each slot is a c[0x0] word just after the kernel's parameters."""
    names = {"_Z10scale_linePfif": ["t_line"], "_Z9mix_quadsPji": ["t_quads", "t_vecs"],
             "_Z10read_charsPiii": ["t_chars"]}  # fmt: skip
    for arch in ("sm_80", "sm_90"):
        info = read_cubin((DATA / f"texture_refs.{arch}.cubin").read_bytes())
        assert {k: sorted(v.values()) for k, v in info.texrefs.items()} == names
        assert sorted(info.textures) == ["t_chars", "t_line", "t_quads", "t_unread", "t_vecs"]
        for kernel, slots in info.texrefs.items():
            base = 0x160 if arch == "sm_80" else 0x210  # the parameters' first byte
            end = base + max(offset + size for offset, size in info.params[kernel])
            assert min(slots) >= end and max(slots) < end + 16, (arch, kernel, slots)


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_bound_references_lower_to_the_hip_texture_reference(arch: str) -> None:
    sass = (DATA / f"texture_refs.{arch}.sass").read_text()
    word = f"0x0, {SLOTS[arch] // 4:#x}, 1D" if arch == "sm_80" else f"c[0x0][{SLOTS[arch]:#x}]"
    assert word in sass
    cubin = read_cubin((DATA / f"texture_refs.{arch}.cubin").read_bytes())
    result = lift_sass(sass, path="texture_refs.sass", arch=arch, cubin=cubin, compile=False)
    assert result.ok, [d.render() for d in result.diagnostics]
    ir = result.llvm_ir
    for name in ("t_line", "t_quads", "t_vecs", "t_chars", "t_unread"):  # what the host binds
        assert f'@"{name}" = protected addrspace(1) externally_initialized global [88 x i8]' in ir
    for name in ("t_line", "t_quads", "t_vecs", "t_chars"):
        # the bound object: textureReference.textureObject (byte 72), the image descriptor
        assert f'getelementptr i8, ptr addrspace(1) @"{name}", i64 72' in ir
    assert ir.count("@__ockl_image_load_1Db(") >= 3  # tex1Dfetch: buffer loads
    assert "@__ockl_image_sample_2D(" in ir  # tex2D on the cudaArray


def test_text_alone_is_a_located_error() -> None:
    """Without the cubin the slot cannot be named: one located line, not a wrong program."""
    sass = (DATA / "texture_refs.sm_90.sass").read_text()
    result = lift_sass(sass, path="texture_refs.sass", arch="sm_90", compile=False)
    errors = [d for d in result.diagnostics if d.severity.value == "error"]
    assert errors and all(d.line > 1 for d in errors)
    assert any("bound texture or surface reference" in d.message and "lift the cubin" in d.message
               for d in errors)  # fmt: skip


def test_surface_references_are_located_errors() -> None:
    """HIP has no surface references: SULD/SUST on one name it and say what to use instead."""
    cubin = read_cubin((DATA / "surface_ref.sm_90.cubin").read_bytes())
    assert list(cubin.surfrefs["_Z4bumpi"].values()) == ["s_grid"] and not cubin.textures
    sass = (DATA / "surface_ref.sm_90.sass").read_text()
    result = lift_sass(sass, path="surface_ref.sass", arch="sm_90", cubin=cubin, compile=False)
    errors = [d for d in result.diagnostics if d.severity.value == "error"]
    assert any("SULD" in d.message for d in errors) and any("SUST" in d.message for d in errors)
    assert all("'s_grid' is a surface reference" in d.message and "surface object" in d.message
               and d.line > 1 for d in errors)  # fmt: skip
    assert len(errors) == 2


@pytest.mark.parametrize("arch", ["sm_80", "sm_90"])
def test_committed_sass_runs_on_the_emulator(arch: str, tmp_path: Path) -> None:
    got = _run(DATA / f"texture_refs.{arch}.cubin",
               (DATA / f"texture_refs.{arch}.sass").read_text(), arch, tmp_path)  # fmt: skip
    assert got == expected()


def test_fresh_compile_with_cuda11_nvcc(tmp_path: Path, legacy_nvcc: str) -> None:
    from cass.models.lift.inputs import disassemble

    nvcc = legacy_nvcc
    cubin = tmp_path / "texture_refs.cubin"
    subprocess.run([nvcc, "-allow-unsupported-compiler", "-w", "-cubin", "-O3", "-arch=sm_90",
                    "-o", str(cubin), str(SOURCE)], check=True, capture_output=True, timeout=300)  # fmt: skip
    assert (
        read_cubin(cubin.read_bytes()).texrefs
        == read_cubin((DATA / "texture_refs.sm_90.cubin").read_bytes()).texrefs
    )
    assert _run(cubin, disassemble(cubin, None), "sm_90", tmp_path) == expected()
