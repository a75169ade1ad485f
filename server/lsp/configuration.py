"""Settings: from initializationOptions at start, then `workspace/configuration` (section
`cass`) after `initialized` and on every `workspace/didChangeConfiguration`."""

from __future__ import annotations

import logging
from typing import Any

from lsprotocol import types as lsp

from .server import CassServer
from .settings import parse_settings

log = logging.getLogger(__name__)


def apply_settings(server: CassServer, raw: Any) -> None:
    """Merge `raw` into the server's settings; report each invalid value; refresh diagnostics."""
    if isinstance(raw, dict) and isinstance(raw.get("cass"), dict):
        raw = raw["cass"]
    settings, problems = parse_settings(raw or {}, server.settings)
    if problems != server.settings_problems:  # the same mistake pulled twice is told once
        for problem in problems:
            server.tell(problem, lsp.MessageType.Warning)
    server.settings_problems = problems
    changed = settings != server.settings
    server.settings = settings
    if changed:
        from .diagnostics import refresh_all

        refresh_all(server)


async def pull_configuration(server: CassServer) -> None:
    if not server.supports_configuration():
        return
    try:
        values = await server.workspace_configuration_async(
            lsp.ConfigurationParams(items=[lsp.ConfigurationItem(section="cass")])
        )
    except Exception as exc:  # a client that fails the request keeps the settings it gave
        log.warning("workspace/configuration failed: %s", exc)
        return
    if values:
        apply_settings(server, values[0])


def setup(server: CassServer) -> None:
    @server.feature(lsp.INITIALIZE)
    def initialize(params: lsp.InitializeParams) -> None:
        options = params.initialization_options
        if isinstance(options, dict):
            apply_settings(server, options.get("settings", options))

    @server.feature(lsp.INITIALIZED)
    async def initialized(params: lsp.InitializedParams) -> None:
        await pull_configuration(server)

    @server.feature(lsp.WORKSPACE_DID_CHANGE_CONFIGURATION)
    async def did_change_configuration(params: lsp.DidChangeConfigurationParams) -> None:
        if server.supports_configuration():
            await pull_configuration(server)
        else:
            apply_settings(server, params.settings)
