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
