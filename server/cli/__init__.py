"""The `cass` command line: one Typer app; each command group lives in its own module.

Every module in `COMMAND_MODULES` defines `register(app: typer.Typer) -> None`. User mistakes
raise `CassError` and are printed as one clear line (no traceback) with the error's exit code.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys

import typer
from rich.console import Console
from rich.markup import escape

from cass.runner.diagnostics import CassError

# The explicit registry of command modules (no plugin discovery).
COMMAND_MODULES = (
    "doctor",  # cass doctor, cass setup
    "compile",  # cass compile
    "port",  # cass port
    "verify",  # cass verify
    "emulate",  # cass emulate, cass run-hip
    "translate",  # cass translate-sass
    "bench",  # cass bench ...
    "model",  # cass model ...
    "ci",  # cass ci
    "serve",  # cass serve
    "dataset",  # cass dataset ...
)

err_console = Console(stderr=True)


def build_app() -> typer.Typer:
    app = typer.Typer(
        name="cass",
        help="Port NVIDIA CUDA code to AMD GPUs and prove every port by running it.",
        no_args_is_help=True,
        add_completion=False,
        pretty_exceptions_enable=False,
    )

    @app.callback()
    def root() -> None:
        """Port NVIDIA CUDA code to AMD GPUs and prove every port by running it."""

    @app.command()
    def version() -> None:
        """Print the cass version."""
        from importlib.metadata import version as dist_version

        print(dist_version("cass"))

    for name in COMMAND_MODULES:
        qualified = f"{__name__}.{name}"
        if importlib.util.find_spec(qualified) is None:
            continue
        importlib.import_module(qualified).register(app)
    return app


def main(argv: list[str] | None = None) -> int:
    app = build_app()
    try:
        app(args=argv, prog_name="cass")  # standalone: usage errors print and exit 2
    except CassError as exc:
        err_console.print(f"[bold red]error:[/] {escape(exc.message)}", highlight=False, soft_wrap=True)
        for d in exc.diagnostics:
            err_console.print(d.render(), highlight=False, soft_wrap=True, markup=False)
        return exc.exit_code
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except KeyboardInterrupt:
        err_console.print("interrupted")
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
