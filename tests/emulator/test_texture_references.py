"""A CUDA program with texture references (1D linear memory, float and uchar4 read as normalized
floats; a 2D array; 2D pitched memory with normalized coordinates and wrap set on the reference
before binding), ported by the rules engine with `cass port` and run on the emulator: the program
checks every value against a host computation and prints CHECK PASS."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.server.cli import main

pytestmark = pytest.mark.toolchain

PROGRAM = Path(__file__).parent / "programs" / "texture_references.cu"


def test_texture_references_port_and_run_on_the_emulator(tmp_path, capsys):
    port = tmp_path / "texture_references.hip"
    assert main(["port", str(PROGRAM), "-o", str(port)]) == 0
    text = port.read_text()
    for call in ("hipBindTexture(&offset, lin", "hipBindTexture2D(0, wrapped",
                 "hipBindTextureToArray(img", "hipUnbindTexture(img)",
                 "hipGetTextureReference(&ref, &img)"):  # fmt: skip
        assert call in text
    assert "bytes(0, hipFilterModePoint, hipAddressModeClamp, hipCreateChannelDesc(8, 8, 8, 8, " \
        "hipChannelFormatKindUnsigned))" in text  # fmt: skip
    capsys.readouterr()
    assert main(["run-hip", str(port)]) == 0
    out = capsys.readouterr().out
    assert "offset 0, CHECK PASS" in out and "MISMATCH" not in out


def test_unregistered_reference_is_refused_with_a_reason(tmp_path, capfd):
    """Binding a textureReference that is not a `texture<>` variable fails with a one-line reason."""
    src = tmp_path / "loose.hip"
    src.write_text(
        "#include <hip/hip_runtime.h>\n#include <cstdio>\n"
        "int main() {\n  textureReference loose{};\n  float* p;\n  hipMalloc(&p, 64);\n"
        "  hipChannelFormatDesc d = hipCreateChannelDesc<float>();\n"
        "  hipError_t e = hipBindTexture(nullptr, &loose, p, &d, 64);\n"
        '  printf("bind %d\\n", (int)e);\n  return 0;\n}\n'
    )
    assert main(["run-hip", str(src)]) == 0
    captured = capfd.readouterr()
    assert "bind 1" in captured.out  # hipErrorInvalidValue
    assert "hipBindTexture: not a registered texture<> variable" in captured.err
