import { strict as assert } from "node:assert";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, it } from "node:test";

import { EDITOR_COMMANDS, followUp, INSTALL_SPEC, missingServer, serverLaunch, serverSettings } from "../src/launch";

describe("serverLaunch", () => {
  it("prefers the configured interpreter", () => {
    assert.deepEqual(serverLaunch("/opt/py/bin/python", "/usr/bin/python3", "linux"), {
      command: "/opt/py/bin/python",
      args: ["-m", "cass.server"],
    });
  });
  it("falls back to the Python extension, then python3", () => {
    assert.equal(serverLaunch("  ", "/venv/bin/python", "linux").command, "/venv/bin/python");
    assert.equal(serverLaunch("", undefined, "linux").command, "python3");
    assert.equal(serverLaunch(undefined, undefined, "win32").command, "python");
  });
});

describe("serverSettings", () => {
  it("drops client-only settings", () => {
    const sent = serverSettings({ engine: "rules", server: { pythonPath: "x" }, trace: { server: "off" } });
    assert.deepEqual(sent, { engine: "rules" });
  });
});

describe("followUp", () => {
  it("opens ported text in a new document", () => {
    assert.deepEqual(followUp({ status: "ok", text: "hipMalloc();", languageId: "hip" }), {
      kind: "openDocument",
      content: "hipMalloc();",
      language: "cpp",
    });
  });
  it("does nothing for errors, edits and foreign values", () => {
    assert.deepEqual(followUp({ status: "error", message: "not CUDA" }), { kind: "nothing" });
    assert.deepEqual(followUp({ status: "ok", message: "Ported" }), { kind: "nothing" });
    assert.deepEqual(followUp(null), { kind: "nothing" });
    assert.deepEqual(followUp("ok"), { kind: "nothing" });
  });
});

describe("package.json", () => {
  const manifest = JSON.parse(readFileSync(join(__dirname, "..", "..", "package.json"), "utf8"));
  it("contributes every editor command", () => {
    const contributed = manifest.contributes.commands.map((c: { command: string }) => c.command);
    for (const name of Object.keys(EDITOR_COMMANDS)) {
      assert.ok(contributed.includes(name), `${name} missing from contributes.commands`);
    }
  });
  it("gives every setting a default", () => {
    for (const [key, value] of Object.entries(manifest.contributes.configuration.properties)) {
      assert.ok("default" in (value as object), `${key} has no default`);
    }
  });
});

describe("missingServer", () => {
  it("names the interpreter, the last line of its error, and an install command", () => {
    const told = missingServer("/opt/my py/bin/python", "Traceback ...\nModuleNotFoundError: No module named 'cass'\n");
    assert.match(told.message, /\/opt\/my py\/bin\/python cannot start the cass language server \(ModuleNotFoundError: No module named 'cass'\)/);
    assert.match(told.message, /cass\.server\.pythonPath/);
    assert.equal(told.install, `"/opt/my py/bin/python" -m pip install "${INSTALL_SPEC}"`);
    assert.match(INSTALL_SPEC, /^cass @ git\+https:\/\/github\.com\/cass-project\/cass@[0-9a-f]{40}$/);
  });
});
