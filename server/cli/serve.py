"""`cass serve`: the language server for editors (stdio by default, or TCP).

The command hands its process over to the language server's own entry point
(`python -m cass.server`): the CLI and the language server are separate front ends, and neither
imports the other.
"""

from __future__ import annotations

import os
import sys

import typer


def server_argv(tcp: str | None, log_level: str) -> list[str]:
    """The command line that starts the language server with these options."""
    argv = [sys.executable, "-m", "cass.server", "--log-level", log_level]
    return argv + ["--tcp", tcp] if tcp else argv


def register(app: typer.Typer) -> None:
    @app.command()
    def serve(
        tcp: str = typer.Option(
            None, "--tcp", metavar="HOST:PORT", help="Listen on TCP instead of stdio."
        ),
        log_level: str = typer.Option(
            "WARNING", "--log-level", help="Log level of stderr logging."
        ),
    ) -> None:
        """Run the cass language server (code actions, diagnostics, hover) for editors."""
        argv = server_argv(tcp, log_level)
        sys.stdout.flush()
        sys.stderr.flush()
        os.execv(argv[0], argv)
