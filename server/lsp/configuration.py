"""Settings: from initializationOptions at start, then `workspace/configuration` (section
`cass`) after `initialized` and on every `workspace/didChangeConfiguration`."""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from cass.server.lsp.settings import parse_settings
from lsprotocol import types as lsp

if TYPE_CHECKING:
    from cass.server.lsp.server import CassServer

log = logging.getLogger(__name__)


def apply_settings(server: CassServer, raw: Any) -> None:
    """Merge `raw` into the server's settings; report each invalid value."""
    if isinstance(raw, dict) and isinstance(raw.get("cass"), dict):
        raw = raw["cass"]
    settings, problems = parse_settings(raw or {}, server.settings)
    if problems != server.settings_problems:  # the same mistake pulled twice is told once
        for problem in problems:
            server.tell(problem, lsp.MessageType.Warning)
    server.settings_problems = problems
    server.change_settings(settings)  # diagnostics refresh through their registered callback


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
