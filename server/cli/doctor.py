"""`cass doctor` (what this machine has and can do) and `cass setup` (install what is missing)."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from cass.runner import setup as runner_setup
from cass.runner.toolchain import DEFAULT_GFX_ARCH, MissingTool
from rich.console import Console
from rich.markup import escape
from rich.table import Table

console = Console(emoji=False, highlight=False)


def tools_table(env: runner_setup.Environment) -> Table:
    table = Table(title="Tools")
    for column in ("tool", "status", "version"):
        table.add_column(column, no_wrap=True)
    table.add_column("path or fix", overflow="fold")
    for tool in env.tools:
        if isinstance(tool, MissingTool):
            table.add_row(tool.name, "[red]missing[/]", "", escape(f"run: {tool.fix}"))
        else:
            table.add_row(tool.name, "[green]found[/]", tool.version, escape(str(tool.path)))
    return table


def gpus_table(env: runner_setup.Environment) -> Table:
    table = Table(title="GPUs")
    for column in ("vendor", "name", "arch", "driver"):
        table.add_column(column)
    for gpu in env.gpus:
        table.add_row(gpu.vendor, escape(gpu.name), gpu.arch, escape(gpu.driver))
    if not env.gpus:
        table.add_row("-", "no GPU found", "-", "-")
    return table


def backends_table(env: runner_setup.Environment) -> Table:
    table = Table(title="Verification backends")
    for column in ("backend", "available", "why"):
        table.add_column(column)
    for b in env.backends:
        table.add_row(b.name, "[green]yes[/]" if b.available else "[yellow]no[/]", escape(b.reason))
    return table


def environment_json(env: runner_setup.Environment) -> dict:
    return {
        "tools": [
            {
                "name": t.name,
                "found": t.found,
                "version": getattr(t, "version", ""),
                "path": str(getattr(t, "path", "")),
                "fix": getattr(t, "fix", ""),
            }
            for t in env.tools
        ],
        "gpus": [gpu.__dict__ for gpu in env.gpus],
        "backends": [b.__dict__ for b in env.backends],
        "device_libs": env.device_libs,
        "rocm_libs": {"installed": env.rocm_libs_found, "detail": env.rocm_libs},
        "rocm_api_headers": {"installed": env.api_headers_found, "detail": env.api_headers},
        "core_complete": env.core_complete,
        "missing_core": env.missing_core,
    }


RocmLibsOption = Annotated[
    str,
    typer.Option(
        "--rocm-libs",
        metavar="PATH_OR_URL",
        help="Install rocPRIM, hipCUB and rocThrust (Thrust and CUB ports) from this archive, "
        "folder or URL (default: $CASS_ROCM_LIBS).",
    ),
]
ApiHeadersOption = Annotated[
    str,
    typer.Option(
        "--rocm-api-headers",
        metavar="PATH_OR_URL",
        help="Install the hipBLAS, hipFFT and hipSOLVER API headers (cuBLAS, cuFFT and cuSOLVER "
        "ports) from this archive, folder or URL (default: $CASS_ROCM_API_HEADERS).",
    ),
]


def cmake_toolchain(
    arch: Annotated[
        str, typer.Option("--arch", help="AMD GPU arch to build for.")
    ] = DEFAULT_GFX_ARCH,
) -> None:
    """Print the path of a CMake toolchain file that builds HIP projects (a ported CMake
    project) for ARCH with clang-16 and this machine's ROCm:
    `cmake -S hip -B build -DCMAKE_TOOLCHAIN_FILE=$(cass cmake-toolchain)`. Programs it builds
    run on the emulator with `cass emulate`."""
    from cass.runner.cmake_toolchain import cmake_toolchain as toolchain_file

    typer.echo(str(toolchain_file(arch)))


def register(app: typer.Typer) -> None:
    app.command("cmake-toolchain")(cmake_toolchain)

    @app.command()
    def doctor(
        as_json: Annotated[
            bool, typer.Option("--json", help="Print the findings as JSON.")
        ] = False,
    ) -> None:
        """List every tool (version, path, or the command that installs it), GPUs and backends.
        Exit 0 when the core toolchain is complete, 1 otherwise."""
        env = runner_setup.check_environment()
        if as_json:
            typer.echo(json.dumps(environment_json(env), indent=2))
        else:
            for table in (tools_table(env), gpus_table(env), backends_table(env)):
                console.print(table)
            console.print(f"device libraries (gfx1100): {env.device_libs}", markup=False)
            console.print(f"rocPRIM, hipCUB, rocThrust: {env.rocm_libs}", markup=False)
            console.print(f"hipBLAS, hipFFT, hipSOLVER headers: {env.api_headers}", markup=False)
            if env.core_complete:
                console.print("[green]core toolchain complete[/]")
            else:
                console.print(f"[red]missing:[/] {', '.join(env.missing_core)}: run `cass setup`")
        raise typer.Exit(0 if env.core_complete else 1)

    @app.command()
    def setup(
        dry_run: Annotated[
            bool, typer.Option("--dry-run", help="Only list what would be done.")
        ] = False,
        rocm_libs: RocmLibsOption = "",
        rocm_api_headers: ApiHeadersOption = "",
    ) -> None:
        """Install what is missing: Debian packages (as root), PyPI CUDA tools, device libraries,
        rocPRIM/hipCUB/rocThrust where --rocm-libs or $CASS_ROCM_LIBS names them, and the
        hipBLAS/hipFFT/hipSOLVER headers where --rocm-api-headers or $CASS_ROCM_API_HEADERS does."""
        if dry_run:
            for step in runner_setup.plan_setup(rocm_libs, rocm_api_headers):
                console.print(
                    f"- {step.what}" + (f": {' '.join(step.argv)}" if step.argv else ""),
                    markup=False,
                )
            return
        with console.status("checking what is installed") as status:
            for step in runner_setup.plan_setup(rocm_libs, rocm_api_headers):
                status.update(step.what)
                detail = runner_setup.run_step(step)
                console.print(
                    f"[green]ok[/] {escape(step.what)}: {escape(detail)}", highlight=False
                )
        env = runner_setup.check_environment()
        if not env.core_complete:
            console.print(f"[red]still missing:[/] {', '.join(env.missing_core)}")
            raise typer.Exit(1)
        console.print("[green]cass is set up[/]: `cass doctor` lists the tools")
