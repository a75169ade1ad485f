"""`cass serve`: stdio is covered by the other tests (python -m cass.server); here TCP, and a bad
address as a clear error."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import sys
from pathlib import Path

import pytest
from cass.runner.diagnostics import CassError
from cass.server.lsp import parse_address
from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient

CASS = [sys.executable, "-m", "cass.server.cli"]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


async def connect(port: int, deadline_s: float = 60) -> LanguageClient:
    client = LanguageClient("test", "1")
    loop = asyncio.get_running_loop()
    end = loop.time() + deadline_s
    while True:
        try:
            await client.start_tcp("127.0.0.1", port)
            return client
        except OSError:
            if loop.time() > end:
                raise
            await asyncio.sleep(0.1)


@pytest.mark.asyncio
async def test_serve_over_tcp(tmp_path: Path) -> None:
    port = free_port()
    server = subprocess.Popen(
        [*CASS, "serve", "--tcp", f"127.0.0.1:{port}"], stderr=subprocess.PIPE
    )
    try:
        client = await connect(port)
        result = await client.initialize_async(
            lsp.InitializeParams(capabilities=lsp.ClientCapabilities())
        )
        assert result.server_info.name == "cass"
        assert "cass.portFile" in result.capabilities.execute_command_provider.commands
        assert result.capabilities.code_action_provider.resolve_provider
        source = tmp_path / "k.cu"
        source.write_text("void f(float* p) { cudaMalloc(&p, 4); }\n")
        client.text_document_did_open(
            lsp.DidOpenTextDocumentParams(
                lsp.TextDocumentItem(
                    uri=source.as_uri(), language_id="cuda-cpp", version=1, text=source.read_text()
                )
            )
        )
        hover = await client.text_document_hover_async(
            lsp.HoverParams(
                text_document=lsp.TextDocumentIdentifier(source.as_uri()),
                position=lsp.Position(0, 22),
            )
        )
        assert "`hipMalloc`" in hover.contents.value
        await client.shutdown_async(None)
        client.exit(None)
        await client.stop()
        assert server.wait(timeout=30) == 0
    finally:
        server.kill()
        server.wait(timeout=30)


@pytest.mark.parametrize("address", ["localhost", "127.0.0.1:http", ":2087", "127.0.0.1:70000"])
def test_bad_tcp_addresses(address: str) -> None:
    with pytest.raises(CassError, match="expected HOST:PORT such as 127.0.0.1:2087"):
        parse_address(address)


def test_good_tcp_addresses() -> None:
    assert parse_address("127.0.0.1:2087") == ("127.0.0.1", 2087)
    assert parse_address("[::1]:2087") == ("::1", 2087)


def test_bad_tcp_address_is_a_clear_error_from_the_cli() -> None:
    done = subprocess.run(
        [*CASS, "serve", "--tcp", "localhost"], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 2
    assert "expected HOST:PORT such as 127.0.0.1:2087" in done.stderr
    assert "Traceback" not in done.stderr and done.stdout == ""
