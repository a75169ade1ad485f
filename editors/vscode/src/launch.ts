// Pure helpers of the extension (no `vscode` import, so Node's test runner can load them).

/** How to start the language server: an interpreter and its arguments. */
export interface ServerLaunch {
  command: string;
  args: string[];
}

/**
 * The interpreter that runs `python -m cass.server`: the `cass.server.pythonPath` setting, else
 * the Python extension's active interpreter, else `python3` (`python` on Windows).
 */
export function serverLaunch(
  configured: string | undefined,
  pythonExtension: string | undefined,
  platform: string,
): ServerLaunch {
  const fallback = platform === "win32" ? "python" : "python3";
  const command = [configured, pythonExtension].map((p) => (p ?? "").trim()).find((p) => p !== "");
  return { command: command ?? fallback, args: ["-m", "cass.server"] };
}

/** The server's own settings (the client-only ones left out), as initializationOptions. */
export function serverSettings(all: Record<string, unknown>): Record<string, unknown> {
  const clientOnly = new Set(["server", "trace"]);
  return Object.fromEntries(Object.entries(all).filter(([key]) => !clientOnly.has(key)));
}

/** What a cass command answered (`workspace/executeCommand` result). */
export interface CommandResult {
  status: "ok" | "error" | "cancelled";
  message?: string;
  text?: string;
  languageId?: string;
}

/** What the client does with a command's answer. */
export type FollowUp =
  | { kind: "openDocument"; content: string; language: string }
  | { kind: "nothing" };

/** A new untitled document for answers carrying text (ported selections, translated SASS). */
export function followUp(result: unknown): FollowUp {
  if (!isCommandResult(result) || result.status !== "ok" || typeof result.text !== "string") {
    return { kind: "nothing" };
  }
  const language = result.languageId === "hip" ? "cpp" : (result.languageId ?? "plaintext");
  return { kind: "openDocument", content: result.text, language };
}

export function isCommandResult(value: unknown): value is CommandResult {
  if (typeof value !== "object" || value === null) {
    return false;
  }
  const status = (value as { status?: unknown }).status;
  return status === "ok" || status === "error" || status === "cancelled";
}

/** The server command behind each editor command, and whether it needs the selection. */
export const EDITOR_COMMANDS: Record<string, { server: string; selection: boolean }> = {
  "cass.editor.portFile": { server: "cass.portFile", selection: false },
  "cass.editor.portSelection": { server: "cass.portSelection", selection: true },
  "cass.editor.portSelectionToNewDocument": { server: "cass.portSelectionToNewDocument", selection: true },
  "cass.editor.portAndVerify": { server: "cass.portAndVerify", selection: false },
  "cass.editor.translateSass": { server: "cass.translateSass", selection: true },
};

/** What pip installs when the chosen Python lacks cass (the pin of the README's configurations). */
export const INSTALL_SPEC = "cass @ git+https://github.com/cass-project/cass@f7d39ca8824d42a7ffb6ebe2b372a277ad536bab";

/** Arguments that make the interpreter prove it can run the server (exit 0) before it starts. */
export const PROBE_ARGS = ["-c", "import cass.server.lsp"];

/** What the user is told, and the install command offered, when the interpreter lacks cass. */
export function missingServer(python: string, detail: string): { message: string; install: string } {
  const quoted = /[\s"'$]/.test(python) ? `"${python.replace(/"/g, '\\"')}"` : python;
  const why = detail.trim().split("\n").filter((line) => line.trim() !== "").pop() ?? "no details";
  return {
    message:
      `cass: ${python} cannot start the cass language server (${why}). Install cass into that ` +
      "Python, or set cass.server.pythonPath to a Python that has it.",
    install: `${quoted} -m pip install "${INSTALL_SPEC}"`,
  };
}
