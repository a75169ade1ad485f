// The cass VS Code extension: starts `python -m cass.server` and forwards commands to it.
// Everything that decides something lives in launch.ts (pure, unit-tested); this file only wires.
import * as vscode from "vscode";
import {
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  TransportKind,
} from "vscode-languageclient/node";

import { EDITOR_COMMANDS, followUp, serverLaunch, serverSettings } from "./launch";

let client: LanguageClient | undefined;

const DOCUMENTS = [
  { scheme: "file", language: "cuda-cpp" },
  { scheme: "untitled", language: "cuda-cpp" },
  { scheme: "file", language: "nvidia-sass" },
  { scheme: "file", pattern: "**/*.{cu,cuh,sass}" },
];

async function pythonFromExtension(): Promise<string | undefined> {
  const python = vscode.extensions.getExtension("ms-python.python");
  if (!python) {
    return undefined;
  }
  try {
    const api = python.isActive ? python.exports : await python.activate();
    return api?.environments?.getActiveEnvironmentPath?.()?.path;
  } catch {
    return undefined;
  }
}

async function openResult(result: unknown): Promise<void> {
  const next = followUp(result);
  if (next.kind === "openDocument") {
    const doc = await vscode.workspace.openTextDocument({ content: next.content, language: next.language });
    await vscode.window.showTextDocument(doc, vscode.ViewColumn.Beside);
  }
}

async function startClient(context: vscode.ExtensionContext): Promise<void> {
  const config = vscode.workspace.getConfiguration("cass");
  const launch = serverLaunch(config.get<string>("server.pythonPath"), await pythonFromExtension(), process.platform);
  const serverOptions: ServerOptions = { ...launch, transport: TransportKind.stdio };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENTS,
    initializationOptions: serverSettings(JSON.parse(JSON.stringify(config))),
    outputChannelName: "cass",
    // tell the server when a cass setting changes; it then pulls them (workspace/configuration)
    synchronize: { configurationSection: "cass" },
    middleware: {
      executeCommand: async (command, args, next) => {
        const result = await next(command, args);
        await openResult(result);
        return result;
      },
    },
  };
  client = new LanguageClient("cass", "cass language server", serverOptions, clientOptions);
  context.subscriptions.push(client);
  await client.start();
}

function registerEditorCommands(context: vscode.ExtensionContext): void {
  for (const [name, target] of Object.entries(EDITOR_COMMANDS)) {
    context.subscriptions.push(
      vscode.commands.registerTextEditorCommand(name, async (editor) => {
        if (!client) {
          return;
        }
        const uri = editor.document.uri.toString();
        const range = client.code2ProtocolConverter.asRange(editor.selection);
        const args = target.selection && !editor.selection.isEmpty ? [uri, range] : [uri];
        const result = await client.sendRequest("workspace/executeCommand", { command: target.server, arguments: args });
        await openResult(result);
      }),
    );
  }
  context.subscriptions.push(
    vscode.commands.registerCommand("cass.editor.restartServer", async () => {
      await client?.restart();
    }),
  );
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  registerEditorCommands(context);
  await startClient(context);
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration(async (event) => {
      if (event.affectsConfiguration("cass.server.pythonPath")) {
        await client?.stop();
        await startClient(context);
      }
    }),
  );
}

export async function deactivate(): Promise<void> {
  await client?.stop();
}
