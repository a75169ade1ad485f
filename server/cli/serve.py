"""`cass serve`: the language server for editors (stdio by default, or TCP)."""

from __future__ import annotations

import typer


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
        from cass.server.lsp import serve as run

        run(tcp, log_level)
