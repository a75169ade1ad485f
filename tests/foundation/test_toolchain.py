"""Tool discovery, the gfx device-library folder, GPU detection parsers: on the real toolchain."""

from __future__ import annotations

import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from cass.runner import toolchain
from cass.runner.diagnostics import CassError


@pytest.fixture
def fresh_tools():
    toolchain.forget_tools()
    yield
    toolchain.forget_tools()


@pytest.mark.toolchain
@pytest.mark.parametrize("name", toolchain.CORE_TOOLS)
def test_core_tools_are_found_with_a_version(name):
    tool = toolchain.find_tool(name)
    assert isinstance(tool, toolchain.Tool), tool
    assert tool.path.is_file()
    assert tool.version[:1].isdigit()


@pytest.mark.toolchain
def test_llvm_tools_report_version_16():
    assert toolchain.find_tool("clang++-16").version.startswith("16.")
    assert toolchain.find_tool("llvm-mc-16").version.startswith("16.")


@pytest.mark.toolchain
def test_versioned_bundler_name_is_an_alias():
    assert toolchain.find_tool("clang-offload-bundler-16") == toolchain.find_tool(
        "clang-offload-bundler"
    )


@pytest.mark.toolchain
def test_cuobjdump_found_in_the_pypi_wheel_or_path():
    tool = toolchain.find_tool("cuobjdump")
    assert isinstance(tool, toolchain.Tool), tool
    on_path = shutil.which("cuobjdump")  # PATH comes first; else the wheel's bin folder
    if on_path:
        assert tool.path == Path(on_path)
    else:
        assert tool.path.parent in toolchain.wheel_bin_dirs() + [
            Path(d) for d in toolchain.CUDA_DIRS
        ]
        assert tool.path.name == "cuobjdump"


def test_missing_tool_is_a_typed_result_with_its_fix(monkeypatch, fresh_tools):
    spec = toolchain.ToolSpec(("cass-no-such-tool",), "apt-get install -y cass-no-such-tool")
    monkeypatch.setitem(toolchain.TOOL_SPECS, "cass-no-such-tool", spec)
    tool = toolchain.find_tool("cass-no-such-tool")
    assert tool == toolchain.MissingTool(
        "cass-no-such-tool", "apt-get install -y cass-no-such-tool"
    )
    assert not tool.found
    with pytest.raises(CassError, match="cass-no-such-tool is not installed: run `apt-get install"):
        toolchain.require_tool("cass-no-such-tool")


def test_missing_tool_when_path_is_empty(monkeypatch, fresh_tools):
    monkeypatch.setenv("PATH", "")
    monkeypatch.setitem(
        toolchain.TOOL_SPECS,
        "ld.lld-16",
        toolchain.ToolSpec(("ld.lld-16",), "apt-get install -y lld-16"),
    )
    tool = toolchain.find_tool("ld.lld-16")
    assert isinstance(tool, toolchain.MissingTool) and tool.fix == "apt-get install -y lld-16"


def test_unknown_tool_name_is_a_clear_error():
    with pytest.raises(CassError, match="unknown tool 'gcc-99'"):
        toolchain.find_tool("gcc-99")


@pytest.mark.parametrize(
    "text, version",
    [
        ("Debian clang version 16.0.6 (15~deb12u1)", "16.0.6"),
        ("Debian LLD 16.0.6 (compatible with GNU linkers)", "16.0.6"),
        ("Cuda compilation tools, release 13.0, V13.0.88", "13.0"),
        ("no version here", ""),
    ],
)
def test_parse_version(text, version):
    assert toolchain.parse_version(text) == version


@pytest.mark.parametrize(
    "arch, value",
    [
        ("gfx1100", 11000),
        ("gfx1101", 11001),
        ("gfx1102", 11002),
        ("gfx90a", 9010),
        ("gfx940", 9400),
    ],
)
def test_isa_version_value(arch, value):
    assert toolchain.isa_version_value(arch) == value


@pytest.mark.toolchain
@pytest.mark.parametrize("arch", ["gfx1031", "gfx90a", "gfx90c", "gfx940", "gfx803"])
def test_isa_version_value_matches_debian_bitcode(arch):
    """The encoding is checked against the ISA-version files Debian ships."""
    bc = toolchain.debian_bitcode_dir() / f"oclc_isa_version_{arch[3:]}.bc"
    dis = subprocess.run(
        [str(toolchain.require_tool("llvm-dis-16")), str(bc), "-o", "-"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert dis.returncode == 0, dis.stderr
    assert f"constant i32 {toolchain.isa_version_value(arch)}" in dis.stdout


@pytest.mark.parametrize(
    "arch, message",
    [
        ("gfx942", "gfx942 is not supported by clang-16"),
        ("gfx1200", "gfx1200 is not supported by clang-16"),
        ("sm_80", "'sm_80' is not an AMD GPU arch name"),
        ("gfx", "not an AMD GPU arch name"),
    ],
)
def test_unsupported_gfx_arch_is_a_clear_error(arch, message):
    with pytest.raises(CassError, match=message):
        toolchain.check_gfx_arch(arch)


@pytest.mark.toolchain
def test_device_lib_dir_is_built_once(tmp_path, monkeypatch):
    monkeypatch.setenv("CASS_CACHE_DIR", str(tmp_path))
    first = toolchain.hip_device_lib_dir("gfx1100")
    assert first.is_relative_to(tmp_path)
    isa = first / "oclc_isa_version_1100.bc"
    assert isa.is_file() and (first / "ocml.bc").is_symlink()
    stamp = isa.stat().st_mtime_ns
    assert toolchain.hip_device_lib_dir("gfx1100") == first
    assert isa.stat().st_mtime_ns == stamp
    dis = subprocess.run(
        [str(toolchain.require_tool("llvm-dis-16")), str(isa), "-o", "-"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert dis.returncode == 0, dis.stderr
    assert "constant i32 11000" in dis.stdout


@pytest.mark.toolchain
def test_device_lib_dir_is_safe_under_concurrent_builders(tmp_path, monkeypatch):
    monkeypatch.setenv("CASS_CACHE_DIR", str(tmp_path))
    with ThreadPoolExecutor(6) as pool:
        folders = set(pool.map(lambda _: toolchain.hip_device_lib_dir("gfx1101"), range(6)))
    assert len(folders) == 1
    folder = folders.pop()
    assert (folder / "oclc_isa_version_1101.bc").is_file()
    leftovers = [p.name for p in folder.parent.iterdir() if p.name.startswith(".")]
    assert leftovers == []


@pytest.mark.toolchain
def test_device_lib_dir_reuses_debian_bitcode_where_it_exists(tmp_path, monkeypatch):
    monkeypatch.setenv("CASS_CACHE_DIR", str(tmp_path))
    folder = toolchain.hip_device_lib_dir("gfx90a")
    assert (folder / "oclc_isa_version_90a.bc").is_symlink()


def test_missing_device_libraries_name_the_package(monkeypatch, tmp_path):
    monkeypatch.setattr(toolchain, "BITCODE_DIRS", (str(tmp_path),))
    with pytest.raises(CassError, match="apt-get install -y rocm-device-libs"):
        toolchain.hip_device_lib_dir("gfx1100")


@pytest.mark.toolchain
def test_hip_clang_command_compiles_for_the_arch(tmp_path, monkeypatch):
    monkeypatch.setenv("CASS_CACHE_DIR", str(tmp_path))
    cmd = toolchain.hip_clang_command("gfx1100")
    assert cmd[:3] == [str(toolchain.require_tool("clang++-16")), "-x", "hip"]
    assert "--offload-arch=gfx1100" in cmd and "--rocm-path=/usr" in cmd
    assert any(a.startswith("--rocm-device-lib-path=") for a in cmd)


@pytest.mark.toolchain
def test_nvcc_command_runs():
    proc = subprocess.run(
        [*toolchain.nvcc_command(), "--version"], capture_output=True, text=True, timeout=60
    )
    assert proc.returncode == 0 and "Cuda compilation tools" in proc.stdout


def test_parse_nvidia_smi():
    csv = "NVIDIA H200, 9.0, 570.86.15\nNVIDIA A100-SXM4-80GB, 8.0, 535.1\n"
    gpus = toolchain.parse_nvidia_smi(csv)
    assert gpus == [
        toolchain.Gpu("nvidia", "NVIDIA H200", "sm_90", "570.86.15"),
        toolchain.Gpu("nvidia", "NVIDIA A100-SXM4-80GB", "sm_80", "535.1"),
    ]


ROCMINFO = """
*******
Agent 1
*******
  Name:                    AMD Ryzen 9 7950X
  Marketing Name:          AMD Ryzen 9 7950X
*******
Agent 2
*******
  Name:                    gfx1100
  Marketing Name:          Radeon RX 7900 XTX
  Device Type:             GPU
"""


def test_parse_rocminfo():
    assert toolchain.parse_rocminfo(ROCMINFO) == [
        toolchain.Gpu("amd", "Radeon RX 7900 XTX", "gfx1100")
    ]


@pytest.mark.parametrize(
    "value, arch", [(110000, "gfx1100"), (110001, "gfx1101"), (90010, "gfx90a"), (90402, "gfx942")]
)
def test_gfx_from_kfd_target_version(value, arch):
    assert toolchain.gfx_from_target_version(value) == arch


def test_default_cuda_arch_follows_the_local_gpu(monkeypatch):
    monkeypatch.setattr(
        toolchain, "detect_gpus", lambda: [toolchain.Gpu("nvidia", "NVIDIA H200", "sm_90")]
    )
    assert toolchain.default_cuda_arch() == "sm_90"
    monkeypatch.setattr(toolchain, "detect_gpus", lambda: [])
    assert toolchain.default_cuda_arch() == "sm_80"


def test_detect_gpus_joins_nvidia_smi_and_rocminfo_else_the_kfd_topology(monkeypatch):
    tools = {
        "nvidia-smi": toolchain.Tool("nvidia-smi", Path("/fake/nvidia-smi"), ""),
        "rocminfo": toolchain.Tool("rocminfo", Path("/fake/rocminfo"), ""),
    }
    outputs = {"/fake/nvidia-smi": "NVIDIA H200, 9.0, 570.86.15\n", "/fake/rocminfo": ROCMINFO}
    monkeypatch.setattr(
        toolchain, "find_tool", lambda name: tools.get(name) or toolchain.MissingTool(name, "x")
    )
    monkeypatch.setattr(toolchain, "_run_quiet", lambda argv, timeout=20: outputs[argv[0]])
    kfd = [toolchain.Gpu("amd", "gfx1101", "gfx1101")]
    monkeypatch.setattr(toolchain, "_kfd_gpus", lambda: kfd)
    detect = toolchain.detect_gpus.__wrapped__  # past the per-process cache
    h200 = toolchain.Gpu("nvidia", "NVIDIA H200", "sm_90", "570.86.15")
    assert detect() == [h200, toolchain.Gpu("amd", "Radeon RX 7900 XTX", "gfx1100")]
    del tools["rocminfo"]  # no rocminfo: the AMD GPUs come from /dev/kfd's topology
    assert detect() == [h200, *kfd]
    del tools["nvidia-smi"]
    outputs["/fake/rocminfo"] = ""
    assert detect() == kfd


def test_every_hip_build_turns_off_the_llvm16_exec_mask_fold():
    """Real-GPU builds (cass compile) and emulator builds share hip_clang_command: both avoid the
    backend defect that skips an inner loop (numerical_methods/gauss_legendre_newton)."""
    from cass.runner.toolchain import AMDGPU_BACKEND_FIXES, hip_clang_command

    argv = hip_clang_command("gfx1100")
    assert AMDGPU_BACKEND_FIXES
    for option in AMDGPU_BACKEND_FIXES:
        assert argv[argv.index(option) - 1] == "-mllvm"
