"""The `cass` command line: one Typer app; each command group lives in its own module.

Every module in `COMMAND_MODULES` defines `register(app: typer.Typer) -> None`. User mistakes
raise `CassError` and are printed as one clear line (no traceback); the exit status follows from
the error's class (`cass.server.cli.errors.exit_status`).
"""

from __future__ import annotations

import importlib
import importlib.util
import signal
import sys
import threading

import typer
from cass.runner.diagnostics import CassError
from cass.server.cli.errors import exit_status
from rich.console import Console
from rich.markup import escape

# The explicit registry of command modules (no plugin discovery).
COMMAND_MODULES = (
    "doctor",  # cass doctor, cass setup
    "compile",  # cass compile
    "port",  # cass port
    "verify",  # cass verify
    "record",  # cass record
    "emulate",  # cass emulate, cass run-hip
    "translate",  # cass translate-sass
    "bench",  # cass bench ...
    "model",  # cass model ...
    "ci",  # cass ci
    "serve",  # cass serve
    "dataset",  # cass dataset ...
    "tables",  # cass tables generate, cass tables docs
)

err_console = Console(emoji=False, stderr=True)


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


class _Stopped(BaseException):
    """SIGINT or SIGTERM arrived (not a KeyboardInterrupt: click would print "Aborted!")."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _on_stop_signal(signum: int, _frame: object) -> None:
    """Ctrl-C / SIGTERM: kill every program the runner is running (whole trees, any thread),
    then unwind the command."""
    from cass.runner.process import stop_all_runs

    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, signal.SIG_IGN)  # a second Ctrl-C while stopping changes nothing
    stop_all_runs()
    raise _Stopped(signum)


def _install_stop_handlers() -> dict[int, object]:
    if threading.current_thread() is not threading.main_thread():
        return {}
    return {sig: signal.signal(sig, _on_stop_signal) for sig in (signal.SIGINT, signal.SIGTERM)}


def main(argv: list[str] | None = None) -> int:
    app = build_app()
    previous = _install_stop_handlers()
    try:
        return _run_app(app, argv)
    except _Stopped as stop:
        what = "interrupted" if stop.signum == signal.SIGINT else "terminated"
        err_console.print(f"{what}: stopped the running program and its processes", highlight=False)
        return 128 + stop.signum
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)  # type: ignore[arg-type]


def _run_app(app: typer.Typer, argv: list[str] | None) -> int:
    try:
        app(args=argv, prog_name="cass")  # standalone: usage errors print and exit 2
    except CassError as exc:
        err_console.print(
            f"[bold red]error:[/] {escape(exc.message)}", highlight=False, soft_wrap=True
        )
        for d in exc.diagnostics:
            err_console.print(d.render(), highlight=False, soft_wrap=True, markup=False)
        return exit_status(exc)
    except SystemExit as exc:
        return exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
    except KeyboardInterrupt:
        err_console.print("interrupted")
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
