"""The cass language server (pygls): code actions, diagnostics, hover, commands, progress.

Modules, one per feature, each with `setup(server)`: configuration (settings), diagnostics
(rules findings as you type), mirror_state (the mirror's state on sources and mirrors),
hover (CUDA -> HIP names), code_actions (listing + resolve, quick fixes, fix all),
commands (executeCommand). Around them: server (the server object, imported by features for
typing only), dispatch (the action table and what each action runs), actions / verification
(what each action computes), mirrors (the hooks' mirror rule), bridge (engine results -> LSP
edits), engines (adapters to cass.models), jobs / worker / work (cancellable child processes),
progress, documents, settings.

Start it with `cass serve` or `python -m cass.server` (stdio; `--tcp HOST:PORT` for TCP).
"""

from __future__ import annotations

import logging
import sys

from cass.runner.diagnostics import CassError
from cass.server.lsp import (
    code_actions,
    commands,
    configuration,
    diagnostics,
    hover,
    mirror_state,
)
from cass.server.lsp.server import CassServer

__all__ = ["CassServer", "create_server", "serve", "parse_address"]


def create_server() -> CassServer:
    """A server with every feature registered (each feature module has one `setup(server)`)."""
    server = CassServer()
    for feature in (configuration, diagnostics, mirror_state, hover, code_actions, commands):
        feature.setup(server)
    return server


def parse_address(address: str) -> tuple[str, int]:
    """`HOST:PORT` -> (host, port); CassError saying what is wrong otherwise."""
    host, sep, port = address.rpartition(":")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise CassError(f"--tcp {address!r}: expected HOST:PORT such as 127.0.0.1:2087")
    return host.strip("[]"), int(port)


def serve(tcp: str | None = None, log_level: str = "WARNING") -> None:
    """Run the server until the client disconnects. Logs go to stderr, never stdout."""
    logging.basicConfig(
        stream=sys.stderr,
        level=log_level.upper(),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    server = create_server()
    if tcp:
        host, port = parse_address(tcp)
        server.start_tcp(host, port)
    else:
        protocol_channel = sys.stdout.buffer
        sys.stdout = sys.stderr  # a stray print() anywhere must not corrupt the protocol
        server.start_io(sys.stdin.buffer, protocol_channel)
