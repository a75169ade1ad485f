"""Code actions: cheap to list, expensive only when chosen.

`textDocument/codeAction` only names the actions that fit the document (CUDA or SASS, with or
without a selection) and builds quick fixes from diagnostics that carry a fix. Clients that
resolve code actions get the edit from `codeAction/resolve`; the others get a command
(`workspace/executeCommand`), which computes the edit and applies it with `workspace/applyEdit`.
The actions themselves (the table and what each runs) are `dispatch`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from cass.runner.diagnostics import CassError
from cass.server.lsp.bridge import RULES_PRODUCER, LineIndex, fix_edit, fix_from_data
from cass.server.lsp.dispatch import (
    ACTIONS,
    BY_COMMAND,
    ActionSpec,
    has_selection,
    parse_range,
    run_edit_action,
)
from cass.server.lsp.mirror_state import RESOLUTIONS, RESOLVE_COMMAND
from lsprotocol import types as lsp

if TYPE_CHECKING:
    from cass.server.lsp.server import CassServer


def _wanted(kind: str, only: list[str] | None) -> bool:
    return not only or any(kind == want or kind.startswith(want + ".") for want in only)


def _action(server: CassServer, spec: ActionSpec, uri: str, selection: lsp.Range) -> lsp.CodeAction:
    with_range = spec.selection or (spec.selection is None and has_selection(selection))
    arguments: list[Any] = [uri, selection] if with_range else [uri]
    if spec.edit and server.supports_resolve() and server.supports_create():
        return lsp.CodeAction(
            title=spec.title,
            kind=spec.kind,
            data={
                "command": spec.command,
                "uri": uri,
                "range": {
                    "start": {"line": selection.start.line, "character": selection.start.character},
                    "end": {"line": selection.end.line, "character": selection.end.character},
                },
            },
        )
    return lsp.CodeAction(
        title=spec.title,
        kind=spec.kind,
        command=lsp.Command(title=spec.title, command=spec.command, arguments=arguments),
    )


def quick_fixes(
    server: CassServer, uri: str, diagnostics: Sequence[lsp.Diagnostic]
) -> list[lsp.CodeAction]:
    snap = server.open_snapshot(uri)
    if snap is None:
        return []
    index = LineIndex(snap.text, server.encoding)
    fixes = []
    for diagnostic in diagnostics:
        if diagnostic.code in RESOLUTIONS:  # the mirror's state: run the hooks' resolution
            mode, title = RESOLUTIONS[str(diagnostic.code)]
            fixes.append(
                lsp.CodeAction(
                    title=title,
                    kind=lsp.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic],
                    command=lsp.Command(
                        title=title, command=RESOLVE_COMMAND, arguments=[uri, mode]
                    ),
                )
            )
            continue
        fix = fix_from_data(diagnostic.data)
        if fix is None:
            continue
        fixes.append(
            lsp.CodeAction(
                title=fix.message,
                kind=lsp.CodeActionKind.QuickFix,
                diagnostics=[diagnostic],
                is_preferred=True,
                edit=lsp.WorkspaceEdit(changes={uri: [fix_edit(fix, index)]}),
            )
        )
    return fixes


FIX_ALL_KIND = "source.fixAll.cass"


def fix_all(server: CassServer, uri: str) -> lsp.CodeAction | None:
    """Every fix the document's current findings carry, as one edit (overlaps skipped)."""
    snap = server.open_snapshot(uri)
    published = server.diagnostic_sets.get(uri, {}).get(RULES_PRODUCER, [])
    fixes = [f for f in (fix_from_data(d.data) for d in published) if f is not None]
    if snap is None or not fixes:
        return None
    index = LineIndex(snap.text, server.encoding)
    edits: list[lsp.TextEdit] = []
    for fix in sorted(fixes, key=lambda f: (f.line, f.column)):
        edit = fix_edit(fix, index)
        if edits and _before(edit.range.start, edits[-1].range.end):
            continue
        edits.append(edit)
    title = f"Fix all cass findings ({len(edits)})"
    return lsp.CodeAction(
        title=title, kind=FIX_ALL_KIND, edit=lsp.WorkspaceEdit(changes={uri: edits})
    )


def _before(a: lsp.Position, b: lsp.Position) -> bool:
    return (a.line, a.character) < (b.line, b.character)


def list_actions(server: CassServer, params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
    uri, selection = params.text_document.uri, params.range
    only = [str(getattr(k, "value", k)) for k in params.context.only or ()] or None
    found = (
        quick_fixes(server, uri, params.context.diagnostics) if _wanted("quickfix", only) else []
    )
    snap = server.open_snapshot(uri)
    if snap is None or snap.kind is None:
        return found
    every = fix_all(server, uri) if snap.kind == "cuda" and _wanted(FIX_ALL_KIND, only) else None
    if every is not None:
        found.append(every)
    for spec in ACTIONS:
        if spec.document != snap.kind or not _wanted(spec.kind, only):
            continue
        if spec.selection is True and not has_selection(selection):
            continue
        found.append(_action(server, spec, uri, selection))
    return found


async def resolve(server: CassServer, action: lsp.CodeAction) -> lsp.CodeAction:
    data = action.data if isinstance(action.data, dict) else {}
    spec = BY_COMMAND.get(str(data.get("command")))
    if spec is None or not isinstance(data.get("uri"), str):
        return action
    selection = parse_range(data.get("range"))
    try:
        outcome = await run_edit_action(server, spec, data["uri"], selection)
    except CassError as exc:
        server.tell(f"cass: {exc.message}", lsp.MessageType.Error)
        return action
    action.edit = outcome.edit
    if outcome.message:
        server.tell(outcome.message)
    return action


def setup(server: CassServer) -> None:
    kinds = sorted({spec.kind for spec in ACTIONS} | {lsp.CodeActionKind.QuickFix, FIX_ALL_KIND})

    @server.feature(
        lsp.TEXT_DOCUMENT_CODE_ACTION,
        lsp.CodeActionOptions(code_action_kinds=kinds, resolve_provider=True),
    )
    def code_action(params: lsp.CodeActionParams) -> list[lsp.CodeAction]:
        return list_actions(server, params)

    @server.feature(lsp.CODE_ACTION_RESOLVE)
    async def code_action_resolve(action: lsp.CodeAction) -> lsp.CodeAction:
        return await resolve(server, action)
