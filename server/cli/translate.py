"""`cass translate-sass`: SASS (text, cubin or binary) -> RDNA3 gfx1100 assembly by the lifter.

    cass translate-sass k.sass -o k.s                 gfx1100 assembly
    cass translate-sass k.cubin --emit ptx            the NVPTX cross-check build
    cass translate-sass k.sass --host main.hip -o a   a HIP program (emulator executable) whose
                                                      device code object is the translated one
Exit status: 0 translated, 1 unsupported instructions (each reported at its line), 2 usage errors.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from cass.runner.diagnostics import CassError, Severity, WorkError
from cass.runner.outputs import check_output, install_file, write_atomic
from cass.runner.toolchain import DEFAULT_GFX_ARCH
from rich.console import Console

err = Console(emoji=False, stderr=True, highlight=False, soft_wrap=True)
EMITS = ("asm", "ll", "ptx", "code-object")


def translate_sass(
    file: Annotated[
        Path,
        typer.Argument(help="SASS text (cuobjdump -sass / nvdisasm), a cubin, fatbin or binary."),
    ],
    output: Annotated[
        Path | None, typer.Option("-o", "--output", help="Output file (default: stdout).")
    ] = None,
    arch: Annotated[
        str | None,
        typer.Option(
            "--arch",
            help="SASS architecture (sm_80, sm_86, sm_89, sm_90); default: from the listing.",
        ),
    ] = None,  # noqa: E501
    emit: Annotated[
        str,
        typer.Option(
            "--emit",
            help="asm (gfx1100 .s), ll (lifted LLVM IR), ptx (NVPTX cross-check), code-object.",
        ),
    ] = "asm",  # noqa: E501
    host: Annotated[
        Path | None,
        typer.Option(
            "--host",
            help="HIP host program: build an emulator executable around the translated device code.",
        ),
    ] = None,  # noqa: E501
    force: Annotated[
        bool, typer.Option("--force", help="Overwrite an existing output file.")
    ] = False,
) -> None:
    """Translate NVIDIA SASS to AMD RDNA3 (gfx1100) by binary translation through LLVM."""
    from cass.models.lift.inputs import cubin_info_for, read_sass_input
    from cass.models.lift.pipeline import lift_sass

    if emit not in EMITS:
        raise CassError(f"--emit must be one of {', '.join(EMITS)}, not '{emit}'")
    inputs = [file, *([host] if host is not None else [])]
    destination = _destination(file, output, emit, host)
    if destination is not None:
        check_output(destination, inputs=inputs, force=force)
    text = read_sass_input(file, arch)
    target = "nvptx" if emit == "ptx" else DEFAULT_GFX_ARCH
    with err.status(f"lifting {file}"):
        cubin = cubin_info_for(file, arch)
        result = lift_sass(
            text, path=str(file), arch=arch, target=target, compile=emit != "ll", cubin=cubin
        )
    for d in result.diagnostics:
        err.print(d.render(), markup=False)
    if not result.ok:
        errors = sum(d.severity is Severity.ERROR for d in result.diagnostics)
        raise WorkError(f"{file}: {errors} instruction(s) could not be translated; nothing written")
    if host is not None and destination is not None:
        _build_program(host, result.assembly, destination)
        return
    if emit == "code-object" and destination is not None:
        _write_code_object(result.assembly, destination)
        return
    payload = result.llvm_ir if emit == "ll" else result.assembly
    if output is None:
        typer.echo(payload, nl=False)
    else:
        write_atomic(output, payload)
        err.print(f"wrote {output} ({len(result.kernels)} kernel(s))", markup=False)


def _destination(file: Path, output: Path | None, emit: str, host: Path | None) -> Path | None:
    """The file this run writes: -o, else the default name of a program or code object; None
    when the text goes to stdout."""
    if host is not None:
        return output or Path(host.stem + ".gfx1100.emu")
    if emit == "code-object":
        return output or Path(file.stem + ".hsaco")
    return output


def _write_code_object(assembly: str, output: Path) -> None:
    import tempfile

    from cass.runner.compile import compile_file

    with tempfile.TemporaryDirectory(prefix="cass-lift-") as work:
        s = Path(work) / f"{output.stem}.s"
        s.write_text(assembly, encoding="utf-8")
        produced = compile_file(s, ["code-object"], out_dir=Path(work) / "out").artifacts[
            "code-object"
        ]
        install_file(produced, output)
    err.print(f"wrote {output}", markup=False)


def _build_program(host: Path, assembly: str, output: Path) -> None:
    import tempfile

    from cass.models.bench.assembly import build_with_device_code
    from cass.models.bench.mixed import uses_hip_libraries

    with tempfile.TemporaryDirectory(prefix="cass-lift-") as work:
        s = Path(work) / "device.s"
        s.write_text(assembly, encoding="utf-8")
        with err.status(f"building {output} around {host}"):
            libraries = uses_hip_libraries(host.read_text(encoding="utf-8", errors="replace"))
            exe = build_with_device_code(host, s, Path(work), library_kernels=libraries)
        install_file(exe, output)
    err.print(f"wrote {output} (run it with `cass run-hip` or directly)", markup=False)


def register(app: typer.Typer) -> None:
    app.command("translate-sass")(translate_sass)
