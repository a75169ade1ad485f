// The extension's client side against the real cass language server, in Node (VS Code itself
// cannot be downloaded on the machines that test this): the interpreter the extension picks
// (serverLaunch), its probe (PROBE_ARGS), the settings it sends (serverSettings of
// package.json's defaults), over the same JSON-RPC library vscode-languageclient uses.
// CASS_TEST_PYTHON names a Python with cass installed (pytest passes its own).
import { strict as assert } from "node:assert";
import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { after, before, describe, it } from "node:test";
import { createMessageConnection, MessageConnection, StreamMessageReader, StreamMessageWriter } from "vscode-jsonrpc/node";

import { missingServer, PROBE_ARGS, serverLaunch, serverSettings } from "../src/launch";

interface Diagnostic {
  code?: string;
  range: unknown;
  data?: unknown;
  codeDescription?: { href: string };
}

/** package.json's setting defaults as the nested object VS Code's configuration returns. */
function defaults(): Record<string, unknown> {
  const manifest = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8"));
  const nested: Record<string, unknown> = {};
  for (const [key, spec] of Object.entries(manifest.contributes.configuration.properties)) {
    const parts = key.split(".").slice(1);
    let node = nested;
    for (const part of parts.slice(0, -1)) {
      node = (node[part] ??= {}) as Record<string, unknown>;
    }
    node[parts[parts.length - 1]] = (spec as { default: unknown }).default;
  }
  return nested;
}

const SOURCE = `__global__ void fill(int *p) { p[threadIdx.x] = 1; }
__global__ void votes(int *out) {
  unsigned m = __ballot_sync(0xffffffff, threadIdx.x & 1);
  out[threadIdx.x] = __popc(m);
}
int main() {
  int *p;
  cudaMalloc(&p, 64 * sizeof(int));
  fill << < 1, 64 >> > (p);
  return 0;
}
`;

describe("the client against the real server", () => {
  const launch = serverLaunch(process.env.CASS_TEST_PYTHON, undefined, process.platform);
  let connection: MessageConnection;
  const published = new Map<string, Diagnostic[]>();
  const folder = mkdtempSync(join(tmpdir(), "cass-client-"));
  const file = join(folder, "launch.cu");
  const uri = pathToFileURL(file).toString();

  before(async () => {
    try {
      execFileSync(launch.command, PROBE_ARGS, { stdio: "pipe" });
    } catch (error) {
      assert.fail(missingServer(launch.command, String((error as { stderr?: unknown }).stderr ?? error)).message);
    }
    const server = spawn(launch.command, launch.args, { stdio: ["pipe", "pipe", "inherit"] });
    connection = createMessageConnection(new StreamMessageReader(server.stdout), new StreamMessageWriter(server.stdin));
    connection.onNotification("textDocument/publishDiagnostics", (params: { uri: string; diagnostics: Diagnostic[] }) => {
      published.set(params.uri, params.diagnostics);
    });
    connection.onRequest("workspace/configuration", () => [defaults()]);
    connection.onRequest("client/registerCapability", () => null);
    connection.onRequest("window/workDoneProgress/create", () => null);
    connection.listen();
    writeFileSync(file, SOURCE);
    await connection.sendRequest("initialize", {
      processId: process.pid,
      rootUri: pathToFileURL(folder).toString(),
      capabilities: {
        textDocument: {
          publishDiagnostics: { codeDescriptionSupport: true, dataSupport: true },
          codeAction: { resolveSupport: { properties: ["edit"] }, dataSupport: true },
        },
        workspace: { configuration: true, workspaceEdit: { documentChanges: true } },
      },
      initializationOptions: serverSettings({ ...defaults(), diagnostics: { enable: true, debounceMs: 50 } }),
    });
    await connection.sendNotification("initialized", {});
  });

  after(async () => {
    await connection.sendRequest("shutdown");
    await connection.sendNotification("exit");
    connection.dispose();
  });

  it("publishes findings with links to the published docs, and offers their fixes", async () => {
    await connection.sendNotification("textDocument/didOpen", {
      textDocument: { uri, languageId: "cuda-cpp", version: 1, text: SOURCE },
    });
    const deadline = Date.now() + 60_000;
    while (!(published.get(uri) ?? []).some((d) => d.code === "CASS081") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const found = published.get(uri) ?? [];
    const spaced = found.find((d) => d.code === "CASS081");
    assert.ok(spaced, `no CASS081 among ${JSON.stringify(found.map((d) => d.code))}`);
    assert.match(spaced.codeDescription?.href ?? "", /^https:\/\/github\.com\/cass-project\/cass\/blob\/main\/docs\/rules-diagnostics\.md#cass081$/);
    const fixes = (await connection.sendRequest("textDocument/codeAction", {
      textDocument: { uri },
      range: spaced.range,
      context: { diagnostics: [spaced], only: ["quickfix"] },
    })) as { title: string; edit: { changes: Record<string, { newText: string }[]> } }[];
    assert.equal(fixes.length, 1);
    assert.equal(fixes[0].edit.changes[uri][0].newText, "<<< 1, 64 >>>");
    const all = (await connection.sendRequest("textDocument/codeAction", {
      textDocument: { uri },
      range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } },
      context: { diagnostics: [], only: ["source.fixAll"] },
    })) as { kind: string; edit: { changes: Record<string, unknown[]> } }[];
    assert.deepEqual(all.map((a) => a.kind), ["source.fixAll.cass"]);
    assert.equal(all[0].edit.changes[uri].length, 2); // the launch brackets and the ballot
  });
});
