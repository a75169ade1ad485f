"""Speed of the language server, measured over the protocol against the real server process.

    .venv/bin/python benchmarks/bench_lsp.py [--lines 2000] [--rounds 30]

Opens a generated CUDA file of about `--lines` lines in `python -m cass.server`, then times
(wall clock, client side, including JSON-RPC and pipes): the first diagnostics after opening,
`textDocument/codeAction` (target: under 50 ms), `codeAction/resolve` of "Port file to HIP"
with the rules engine (target: under 300 ms) both right after an edit (the rules engine runs)
and once the diagnostics have translated that version (their translation is reused), and
`textDocument/hover`. Prints a table.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from lsprotocol import types as lsp
from pygls.lsp.client import LanguageClient
from rich.console import Console
from rich.table import Table

KERNEL = """\
__global__ void __launch_bounds__(256) scale_{n}(float* data, float factor, int count) {{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < count) data[i] = data[i] * factor + {n}.0f;
}}

void run_scale_{n}(float* host, int count) {{
    float* device = nullptr;
    cudaMalloc(&device, count * sizeof(float));
    cudaMemcpy(device, host, count * sizeof(float), cudaMemcpyHostToDevice);
    scale_{n}<<<(count + 255) / 256, 256>>>(device, 2.0f, count);
    cudaDeviceSynchronize();
    cudaMemcpy(host, device, count * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(device);
}}

"""


def cuda_file(lines: int) -> str:
    """A CUDA file of about `lines` lines: many small kernels with their host launchers."""
    per = KERNEL.count("\n")
    body = "".join(KERNEL.format(n=n) for n in range(max(1, lines // per)))
    return "#include <cuda_runtime.h>\n\n" + body


async def timed(call: Callable[[], Awaitable[object]], rounds: int) -> list[float]:
    times = []
    for _ in range(rounds):
        start = time.perf_counter()
        await call()
        times.append((time.perf_counter() - start) * 1000)
    return times


async def measure(lines: int, rounds: int) -> list[tuple[str, list[float], float | None]]:
    folder = Path(tempfile.mkdtemp(prefix="cass-bench-lsp-"))
    (folder / ".git").mkdir()
    source = folder / "big.cu"
    source.write_text(cuda_file(lines))
    client = LanguageClient("bench", "1")
    published = asyncio.Event()
    client.feature(lsp.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(lambda params: published.set())
    client.feature(lsp.WINDOW_SHOW_MESSAGE)(lambda params: None)
    await client.start_io(sys.executable, "-m", "cass.server")
    caps = lsp.ClientCapabilities(
        text_document=lsp.TextDocumentClientCapabilities(
            code_action=lsp.CodeActionClientCapabilities(
                resolve_support=lsp.ClientCodeActionResolveOptions(properties=["edit"]),
                data_support=True,
            )
        ),
        workspace=lsp.WorkspaceClientCapabilities(
            workspace_edit=lsp.WorkspaceEditClientCapabilities(
                document_changes=True, resource_operations=[lsp.ResourceOperationKind.Create]
            )
        ),
    )
    await client.initialize_async(
        lsp.InitializeParams(
            capabilities=caps,
            root_uri=folder.as_uri(),
            initialization_options={"diagnostics": {"debounceMs": 5000}},
        )
    )
    client.initialized(lsp.InitializedParams())
    uri = source.as_uri()
    start = time.perf_counter()
    client.text_document_did_open(
        lsp.DidOpenTextDocumentParams(
            lsp.TextDocumentItem(
                uri=uri, language_id="cuda-cpp", version=1, text=source.read_text()
            )
        )
    )
    await asyncio.wait_for(published.wait(), 60)
    first_diagnostics = (time.perf_counter() - start) * 1000
    params = lsp.CodeActionParams(
        text_document=lsp.TextDocumentIdentifier(uri),
        range=lsp.Range(lsp.Position(900, 0), lsp.Position(900, 0)),
        context=lsp.CodeActionContext(diagnostics=[]),
    )
    actions = await client.text_document_code_action_async(params)
    port_file = next(
        a for a in actions if isinstance(a, lsp.CodeAction) and a.kind == "source.cass.portFile"
    )
    hover = lsp.HoverParams(
        text_document=lsp.TextDocumentIdentifier(uri), position=lsp.Position(9, 6)
    )
    version = [1]

    async def edit_then_resolve() -> object:
        version[0] += 1
        client.text_document_did_change(
            lsp.DidChangeTextDocumentParams(
                text_document=lsp.VersionedTextDocumentIdentifier(uri=uri, version=version[0]),
                content_changes=[
                    lsp.TextDocumentContentChangePartial(
                        range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)), text="// edit\n"
                    )
                ],
            )
        )
        return await client.code_action_resolve_async(port_file)

    resolved = await edit_then_resolve()
    if not isinstance(resolved, lsp.CodeAction) or resolved.edit is None:
        raise SystemExit(f"resolve gave no edit: {resolved}")  # timing nothing would mislead
    cold = await timed(edit_then_resolve, max(3, rounds // 3))
    rows = [
        ("first diagnostics after opening", [first_diagnostics], None),
        ('resolve "Port file to HIP" just after an edit', cold, 300.0),
        (
            "textDocument/codeAction",
            await timed(lambda: client.text_document_code_action_async(params), rounds),
            50.0,
        ),
        (
            'resolve "Port file to HIP", translation reused',
            await timed(lambda: client.code_action_resolve_async(port_file), rounds),
            300.0,
        ),
        (
            "textDocument/hover",
            await timed(lambda: client.text_document_hover_async(hover), rounds),
            None,
        ),
    ]
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    return rows


def report(rows: list[tuple[str, list[float], float | None]], lines: int) -> Table:
    table = Table(title=f"cass language server, {lines}-line CUDA file (ms, client side)")
    for column in ("request", "runs", "median", "p95", "max", "target", "meets"):
        table.add_column(column, justify="left" if column == "request" else "right")
    for name, times, target in rows:
        ordered = sorted(times)
        p95 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]
        median = statistics.median(ordered)
        meets = "" if target is None else ("yes" if median < target else "NO")
        table.add_row(
            name,
            str(len(times)),
            f"{median:.1f}",
            f"{p95:.1f}",
            f"{ordered[-1]:.1f}",
            "" if target is None else f"< {target:.0f}",
            meets,
        )
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--lines", type=int, default=2000)
    parser.add_argument("--rounds", type=int, default=30)
    args = parser.parse_args(argv)
    rows = asyncio.run(measure(args.lines, args.rounds))
    Console().print(report(rows, args.lines))
    return 0


if __name__ == "__main__":
    sys.exit(main())
