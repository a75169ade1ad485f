"""Programs that include a CUDA math library get it linked on the NVIDIA side; on the emulator the
port gets cass's reference implementation, and a verdict says so."""

from pathlib import Path

from cass.runner import emulated_libraries
from cass.runner.backends.nvidia import library_link_flags
from cass.runner.verify import _reference_library_notes


def test_nvcc_links_the_libraries_a_program_includes(tmp_path: Path):
    source = tmp_path / "k.cu"
    source.write_text(
        '#include <cublas_v2.h>\n#  include "curand.h"\n// #include <cufft.h>\n#include <vector>\n'
    )
    assert library_link_flags(source) == ["-lcublas", "-lcurand"]
    source.write_text("#include <cuda_runtime.h>\n")
    assert library_link_flags(source) == []


def test_an_emulated_verdict_names_the_reference_implementations(tmp_path: Path):
    port = tmp_path / "k.hip"
    port.write_text("#include <hip/hip_runtime.h>\n#include <hipblas/hipblas.h>\n")
    notes = _reference_library_notes("emulator", port)
    assert notes == (f"hipBLAS ran as {emulated_libraries.TITLE}, not AMD's library",)
    assert emulated_libraries.TITLE == "cass's reference implementations for emulated verification"
    assert _reference_library_notes("rocm", port) == ()
    port.write_text("#include <hip/hip_runtime.h>\n")
    assert _reference_library_notes("emulator", port) == ()


def test_cudnn_is_linked_from_nvidias_wheel_when_installed(tmp_path: Path, monkeypatch):
    from cass.runner.backends import nvidia

    source = tmp_path / "k.cu"
    source.write_text("#include <cudnn.h>\n#include <cublas_v2.h>\n")
    monkeypatch.setattr(nvidia, "_wheel_root", lambda package: None)
    assert library_link_flags(source) == ["-lcublas", "-lcudnn"]  # a toolkit install
    wheel = tmp_path / "nvidia" / "cudnn"  # nvidia-cudnn-cu13 holds only the versioned library
    (wheel / "lib").mkdir(parents=True)
    for name in ("libcudnn.so.9", "libcudnn_ops.so.9"):
        (wheel / "lib" / name).write_bytes(b"")
    monkeypatch.setattr(nvidia, "_wheel_root", lambda package: wheel if package else None)
    lib = (wheel / "lib").resolve()
    assert library_link_flags(source) == [
        "-lcublas", f"-I{wheel / 'include'}", f"-L{lib}", "-Xlinker", f"-rpath={lib}",
        "-l:libcudnn.so.9",
    ]  # fmt: skip
    (wheel / "lib" / "libcudnn.so").write_bytes(b"")
    assert library_link_flags(source)[-1] == "-lcudnn"
