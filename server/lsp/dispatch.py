"""The action table and its dispatch: every code action and command cass offers, in one place.

`ACTIONS` lists them (command, title, kind, which documents, whether a selection is needed,
whether the result is an edit); `run_edit_action` computes the edit of an edit action (code
action resolve, and the commands), `run_action` computes what any command delivers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from cass.runner.diagnostics import CassError
from cass.server.lsp import actions, verification
from cass.server.lsp.progress import with_progress
from lsprotocol import types as lsp

if TYPE_CHECKING:
    from cass.server.lsp.server import CassServer


@dataclass(frozen=True)
class ActionSpec:
    command: str
    title: str
    kind: str
    document: str  # "cuda" | "sass"
    selection: bool | None  # True: needs a selection; False: whole file; None: either
    edit: bool  # True: resolves to a WorkspaceEdit; False: always runs as a command


ACTIONS = (
    ActionSpec("cass.portFile", "Port file to HIP", "source.cass.portFile", "cuda", None, True),
    ActionSpec(
        "cass.portSelection",
        "Port selection to HIP",
        "refactor.rewrite.cass.portSelection",
        "cuda",
        True,
        True,
    ),
    ActionSpec(
        "cass.portSelectionToNewDocument",
        "Port selection to HIP (new document)",
        "refactor.cass.portSelectionToNewDocument",
        "cuda",
        True,
        False,
    ),
    ActionSpec(
        "cass.portAndVerify", "Port and verify", "source.cass.portAndVerify", "cuda", None, False
    ),
    ActionSpec(
        "cass.translateSass",
        "Translate SASS to RDNA3",
        "source.cass.translateSass",
        "sass",
        None,
        True,
    ),
)
BY_COMMAND = {spec.command: spec for spec in ACTIONS}


def has_selection(selection: lsp.Range) -> bool:
    return selection.start != selection.end


def parse_range(raw: Any) -> lsp.Range | None:
    try:
        return lsp.Range(start=lsp.Position(**raw["start"]), end=lsp.Position(**raw["end"]))
    except (KeyError, TypeError):
        return None


async def run_edit_action(
    server: CassServer, spec: ActionSpec, uri: str, selection: lsp.Range | None
) -> actions.Outcome:
    if spec.command == "cass.portFile":
        return await actions.port_file(server, uri)
    if spec.command == "cass.translateSass":
        chosen = selection if selection is not None and has_selection(selection) else None
        return await actions.translate_sass(server, uri, chosen)
    if selection is None:
        raise CassError(f"{spec.title} needs a selection")
    return await actions.port_selection(
        server, uri, selection, replace=spec.command == "cass.portSelection"
    )


async def run_action(
    server: CassServer, spec: ActionSpec, uri: str, selection: lsp.Range | None
) -> actions.Outcome:
    """What the command of `spec` delivers: a verdict for "Port and verify" (which reports its
    own progress), else the edit action under a progress report."""
    if spec.command == "cass.portAndVerify":
        return await verification.port_and_verify(server, uri)
    return await with_progress(
        server, spec.title, lambda report: run_edit_action(server, spec, uri, selection)
    )
