"""A single-source HIP program is built with the HIP headers precompiled and its device and host
sides compiled at once: only where that cannot change what the program means, into the same
device code as the one plain clang++ command, and any failure of that path falls back to it."""

from __future__ import annotations

import subprocess

import pytest
from cass.runner.emulator import build_hip_program, precompiled_build, run_program

pytestmark = pytest.mark.toolchain

PROGRAM = """// a comment first, then standard headers, then HIP
#include <cstdio>
#include <vector>  // the host side's
/* a block comment
   #define NOT_A_DIRECTIVE 1 */
#include <hip/hip_runtime.h>

__global__ void square(int* x) { x[threadIdx.x] *= x[threadIdx.x]; }

int main() {
  std::vector<int> h(64);
  for (int i = 0; i < 64; i++) h[i] = i;
  int* d;
  hipMalloc(&d, 64 * sizeof(int));
  hipMemcpy(d, h.data(), 64 * sizeof(int), hipMemcpyHostToDevice);
  square<<<1, 64>>>(d);
  hipMemcpy(h.data(), d, 64 * sizeof(int), hipMemcpyDeviceToHost);
  printf("%d %d\\n", h[3], h[63]);
  return 0;
}
"""


@pytest.fixture
def header_cache(tmp_path, monkeypatch):
    """The precompiled headers in a folder of the test's own (the runtime stays where it is)."""
    folder = tmp_path / "cache"
    monkeypatch.setattr(precompiled_build, "cache_dir", lambda: folder)
    monkeypatch.delenv("CASS_PRECOMPILED_HEADERS", raising=False)
    return folder


@pytest.mark.parametrize(
    "text, extra, qualifies",
    [
        (PROGRAM, (), True),
        (PROGRAM, ("-O3", "-DN=4", "-Wall", "-g", "-Iinclude"), True),
        ('#include "hip/hip_runtime.h"\n', (), True),
        ("#define __HIP_DISABLE_CPP_FUNCTIONS__\n#include <hip/hip_runtime.h>\n", (), False),
        ("#include <cstdio>\n#include <hip/hip_runtime.h>\n", ("-include", "x.h"), False),
        ('#include "helpers.h"\n#include <hip/hip_runtime.h>\n', (), False),
        ("#include <hipcub/hipcub.hpp>\n#include <hip/hip_runtime.h>\n", (), False),
        ("#include <cstdio>\nint main() { return 0; }\n", (), False),
        ("#if 1\n#include <hip/hip_runtime.h>\n#endif\n", (), False),
    ],
)
def test_only_programs_that_precompiling_cannot_change_qualify(tmp_path, text, extra, qualifies):
    source = tmp_path / "p.hip"
    assert precompiled_build.qualifies(source, text, extra) is qualifies


def test_a_quoted_include_that_finds_a_file_beside_the_source_does_not_qualify(tmp_path):
    (tmp_path / "hip").mkdir()
    (tmp_path / "hip" / "hip_runtime.h").write_text("#define MINE 1\n")
    text = '#include "hip/hip_runtime.h"\n'
    assert not precompiled_build.qualifies(tmp_path / "p.hip", text, ())


def _section(exe, name: str) -> bytes:
    out = exe.with_name(exe.name + name)
    subprocess.run(["objcopy", "-O", "binary", f"--only-section={name}", exe, out], check=True)
    return out.read_bytes()


def test_a_program_builds_precompiled_into_the_plain_builds_device_code(
    tmp_path, header_cache, monkeypatch
):
    source = tmp_path / "square.hip"
    source.write_text(PROGRAM)
    fast = build_hip_program(source, tmp_path / "fast", extra_args=["-O2"])
    (folder,) = header_cache.glob("hip-pch-*")
    assert sorted(p.name for p in folder.iterdir()) == ["device.pch", "host.pch"]
    monkeypatch.setenv("CASS_PRECOMPILED_HEADERS", "0")
    plain = build_hip_program(source, tmp_path / "plain", extra_args=["-O2"])
    for section in (".hip_fatbin", ".text", ".rodata"):
        assert _section(fast, section) == _section(plain, section), section
    run = run_program(fast, timeout_s=120)
    assert run.exit_code == 0, run.stderr
    assert run.stdout.split() == ["9", "3969"]


def test_a_program_that_does_not_qualify_is_built_the_plain_way(tmp_path, header_cache):
    source = tmp_path / "square.hip"
    source.write_text("#define SIDE 1\n" + PROGRAM)
    exe = build_hip_program(source, tmp_path / "square", extra_args=["-O2"])
    assert not list(header_cache.glob("hip-pch-*"))
    assert run_program(exe, timeout_s=120).stdout.split() == ["9", "3969"]


def test_a_broken_precompiled_header_falls_back_says_so_and_is_made_anew(
    tmp_path, header_cache, capsys
):
    source = tmp_path / "square.hip"
    source.write_text(PROGRAM)
    build_hip_program(source, tmp_path / "first", extra_args=["-O2"])
    (folder,) = header_cache.glob("hip-pch-*")
    (folder / "host.pch").write_bytes(b"not a precompiled header")
    exe = build_hip_program(source, tmp_path / "second", extra_args=["-O2"])
    err = capsys.readouterr().err
    assert f"cass: {source}: the precompiled HIP headers did not build it" in err
    assert not folder.exists()
    assert run_program(exe, timeout_s=120).stdout.split() == ["9", "3969"]
    build_hip_program(source, tmp_path / "third", extra_args=["-O2"])
    assert (folder / "host.pch").read_bytes()[:4] == b"CPCH"


def test_a_compile_error_is_reported_as_the_plain_command_reports_it(tmp_path, header_cache):
    from cass.runner.diagnostics import CassError

    source = tmp_path / "broken.hip"
    source.write_text(PROGRAM.replace("x[threadIdx.x] *= x[threadIdx.x];", "x[threadIdx.x] *= y;"))
    with pytest.raises(CassError) as err:
        build_hip_program(source, tmp_path / "broken", extra_args=["-O2"])
    assert "broken.hip:8:" in err.value.message and "use of undeclared identifier 'y'" in (
        err.value.message
    )


def test_only_the_most_recently_used_sets_of_headers_are_kept(tmp_path, header_cache):
    import os

    header_cache.mkdir()
    for i in range(precompiled_build.KEPT + 2):
        old = header_cache / f"hip-pch-old{i}"
        old.mkdir()
        os.utime(old, (1_000_000 + i, 1_000_000 + i))
    source = tmp_path / "square.hip"
    source.write_text(PROGRAM)
    build_hip_program(source, tmp_path / "square", extra_args=["-O2"])
    kept = sorted(p.name for p in header_cache.glob("hip-pch-*"))
    assert len(kept) == precompiled_build.KEPT
    assert "hip-pch-old0" not in kept and "hip-pch-old1" not in kept and "hip-pch-old2" not in kept
    assert f"hip-pch-old{precompiled_build.KEPT + 1}" in kept


def test_a_compile_past_the_time_limit_is_one_error_not_a_second_plain_try(
    tmp_path, header_cache, monkeypatch
):
    from cass.runner.diagnostics import CassError
    from cass.runner.emulator import build

    source = tmp_path / "square.hip"
    source.write_text(PROGRAM)
    build_hip_program(source, tmp_path / "first", extra_args=["-O2"])  # headers made
    monkeypatch.setattr(build, "BUILD_TIMEOUT_S", 0.05)
    calls = []
    plain = build.run_compiler
    monkeypatch.setattr(build, "run_compiler", lambda *a, **k: calls.append(a) or plain(*a, **k))
    with pytest.raises(CassError) as err:
        build_hip_program(source, tmp_path / "second", extra_args=["-O2"])
    assert f"{source}: clang took longer than" in err.value.message
    assert calls == []  # the plain command was not started after the precompiled one timed out
