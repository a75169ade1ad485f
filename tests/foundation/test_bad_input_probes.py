"""Bad input at every user-facing command: each probe ends in one line naming the path and what
to do, never a Python traceback and never a hang; plus the smaller bad-input reports (SASS that
is not SASS, an sm_75 cubin, a corrupted disassembly cache entry, a program killed by a signal,
messages that advise options the CLI does not have)."""

from __future__ import annotations

import ast
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CASS = Path(sys.executable).with_name("cass")
VADD_SASS = ROOT / "tests" / "lsp" / "data" / "vadd.sass"


def cass(*args: str, cwd: Path, stdin=subprocess.DEVNULL) -> subprocess.CompletedProcess:
    env = {**os.environ, "COLUMNS": "300"}
    return subprocess.run([str(CASS), *args], capture_output=True, text=True, timeout=120, cwd=cwd,
                          env=env, stdin=stdin)  # fmt: skip


@pytest.fixture
def probes(tmp_path: Path) -> Path:
    (tmp_path / "x.cu").write_text("__global__ void k(int *p) { p[0] = 1; }\n")
    (tmp_path / "notes.txt").write_text("not a program\n")
    (tmp_path / "data.bin").write_bytes(b"\x00\x01\x02 not an ELF")
    (tmp_path / "folder").mkdir()
    os.mkfifo(tmp_path / "pipe.cu")
    return tmp_path


# (argv, the path the one line must name)
PROBES = [
    (("port", "x.cu", "-o", "x.cu/y.hip"), "x.cu/y.hip"),
    (("port", "x.cu", "-o", "/sys/y.hip"), "/sys/y.hip"),
    (("port", "/proc/self/mem"), "/proc/self/mem"),
    (("port", "pipe.cu"), "pipe.cu"),
    (("port", "/dev/zero"), "/dev/zero"),
    (("port", "folder"), "folder"),
    (("port", "missing.cu"), "missing.cu"),
    (("emulate", "notes.txt"), "notes.txt"),
    (("emulate", "folder"), "folder"),
    (("emulate", "data.bin"), "data.bin"),
    (("emulate", "/dev/zero"), "/dev/zero"),
    (("run-hip", "pipe.cu"), "pipe.cu"),
    (("run-hip", "folder"), "folder"),
    (("run-hip", "x.cu", "-o", "x.cu/y"), "x.cu/y"),
    (("compile", "pipe.cu"), "pipe.cu"),
    (("compile", "/proc/self/mem"), "/proc/self/mem"),
    (("compile", "x.cu", "-o", "x.cu/y"), "x.cu/y"),
    (("translate-sass", "/proc/self/mem"), "/proc/self/mem"),
    (("translate-sass", "pipe.cu"), "pipe.cu"),
    (("translate-sass", "folder"), "folder"),
    (("translate-sass", "notes.txt"), "notes.txt:1"),
    (("verify", "/proc/self/mem"), "/proc/self/mem"),
    (("verify", "pipe.cu"), "pipe.cu"),
    (("verify", "folder"), "folder"),
]


@pytest.mark.parametrize(("argv", "path"), PROBES, ids=[" ".join(a) for a, _ in PROBES])
def test_no_traceback_one_line(probes: Path, argv: tuple[str, ...], path: str) -> None:
    proc = cass(*argv, cwd=probes)
    output = proc.stdout + proc.stderr
    assert "Traceback" not in output and "Error:" not in output.replace("error:", "")
    assert proc.returncode in (1, 2), output
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"error: {path}"), output


def test_endless_stdin_is_refused_at_the_cap(probes: Path) -> None:
    with open("/dev/zero", "rb") as zero:
        proc = cass("port", "-", cwd=probes, stdin=zero)
    assert (
        proc.returncode == 1
        and proc.stderr.strip() == "error: <stdin>: larger than 64 MiB; split it and try again"
    )


# ------------------------------------------------------------------ translate-sass reads only SASS


def test_a_line_that_is_not_sass_is_a_located_error(probes: Path) -> None:
    (probes / "g.sass").write_text("hello world\n        /*0000*/                   MOV R1, R2 ;\n")
    proc = cass("translate-sass", "g.sass", cwd=probes)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "g.sass:1: cannot read this line as SASS: 'hello world'" in proc.stderr
    assert "sm_80, sm_86, sm_89, sm_90" in proc.stderr


def test_real_listings_still_translate(probes: Path) -> None:
    proc = cass("translate-sass", str(VADD_SASS), "--emit", "ll", cwd=probes)
    assert proc.returncode == 0, proc.stderr
    assert "define" in proc.stdout


def test_a_directory_is_named_as_one(probes: Path) -> None:
    proc = cass("translate-sass", "folder", cwd=probes)
    assert proc.returncode == 2 and "folder: is a directory" in proc.stderr


@pytest.mark.toolchain
def test_sm_75_cubins_are_refused_naming_the_supported_archs(probes: Path) -> None:
    from cass.runner.toolchain import find_tool

    nvcc = find_tool("nvcc")
    if nvcc is None:
        pytest.skip("nvcc is not installed")
    subprocess.run([str(nvcc.path), "-cubin", "-arch=sm_75", "-o", "k.cubin", "x.cu"], cwd=probes,
                   check=True, capture_output=True, timeout=300)  # fmt: skip
    proc = cass("translate-sass", "k.cubin", cwd=probes)
    assert proc.returncode == 2
    assert (
        "k.cubin: SASS for sm_75; the lifter reads sm_80, sm_86, sm_89, sm_90 SASS" in proc.stderr
    )


# ------------------------------------------------------------------ the disassembly cache


@pytest.mark.toolchain
def test_a_corrupted_disassembly_cache_entry_is_recomputed(tmp_path: Path) -> None:
    from cass.runner.compile import compile_file
    from cass.runner.emulator.decode import disassemble_text

    hsaco = compile_file(
        ROOT / "examples" / "vector_add.hip", ["code-object"], out_dir=tmp_path
    ).artifacts["code-object"]
    elf = hsaco.read_bytes()
    cache = tmp_path / "cache"
    listing = disassemble_text(elf, cache)
    [entry] = cache.glob("disasm-*.txt")
    assert disassemble_text(elf, cache) == listing  # served from the cache
    fresh = instructions(disassemble_text(elf, None))
    assert fresh == instructions(listing) and "s_endpgm" in fresh
    for corrupt in (
        entry.read_text()[: len(entry.read_text()) // 2],
        entry.read_text().replace("s_", "x_"),
        "",
    ):
        entry.write_text(corrupt)
        assert instructions(disassemble_text(elf, cache)) == fresh
        assert instructions(entry.read_text()) == fresh


def instructions(listing: str) -> str:
    """The listing without its header lines (they name the temporary file objdump read)."""
    return "\n".join(
        line
        for line in listing.splitlines()
        if ".co:" not in line and "cass disassembly" not in line
    )


# ------------------------------------------------------------------ signal deaths


@pytest.mark.toolchain
def test_a_program_killed_by_a_signal_says_so_and_exits_128_plus_n(tmp_path: Path) -> None:
    (tmp_path / "abort.hip").write_text(
        "#include <hip/hip_runtime.h>\n#include <cstdlib>\nint main() { std::abort(); }\n"
    )
    proc = cass("run-hip", "abort.hip", "--no-stats", cwd=tmp_path)
    assert proc.returncode == 128 + 6, proc.stderr
    assert "killed by signal 6 (SIGABRT)" in proc.stderr and "Traceback" not in proc.stderr


# ------------------------------------------------------------------ advice names real options


def _cli_options() -> set[str]:
    import typer
    from cass.server.cli import build_app

    options: set[str] = {"--help"}

    def walk(command) -> None:
        for param in getattr(command, "params", ()):
            options.update(o for o in (*param.opts, *param.secondary_opts) if o.startswith("--"))
        for sub in getattr(command, "commands", {}).values():
            walk(sub)

    walk(typer.main.get_command(build_app()))
    return options


def _message_strings() -> list[tuple[str, str]]:
    """(file:line, text) of every string in a raise, print or write call of the front ends and
    library code: what a user reads."""
    found = []
    for folder in ("server", "hooks", "runner", "models"):
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in ast.walk(tree):
                if isinstance(node, (ast.Raise, ast.Call)):
                    for sub in ast.walk(node):
                        if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                            found.append((f"{path.relative_to(ROOT)}:{sub.lineno}", sub.value))
    return found


# Options of other programs that messages legitimately quote (compilers, pip, git, pytest).
FOREIGN = {"--offload-arch", "--rocm-path", "--rocm-device-lib-path", "--mcpu", "--version", "--sass",
           "--config-settings", "--extra-index-url", "--index-url", "--upgrade", "--no-deps", "--user",
           "--break-system-packages", "--prefix", "--target", "--quiet", "--arch", "--cuda-path",
           "--cuda-gpu-arch", "--no-cuda-version-check", "--hip-link", "--print-file-name",
           "--enable-shared"}  # fmt: skip
ADVICE = re.compile(
    r"(?:pass|use|with|add|give|raise|set|try|run)\s+(?:`[^`]*?)?(--[a-z][a-z0-9-]+)"
)


def test_messages_advise_only_options_that_exist() -> None:
    options = _cli_options() | FOREIGN
    advised = [(where, m) for where, text in _message_strings() for m in ADVICE.findall(text)]
    assert advised, "the scan found no advice at all: the pattern is broken"
    unknown = sorted({f"{where}: {option}" for where, option in advised if option not in options})
    assert not unknown, "messages advise options the CLI does not have:\n" + "\n".join(unknown)
