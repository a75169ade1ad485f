"""The actions behind code actions and commands: each computes an `Outcome` (an edit, text for
a new document, a file to write, a message) from the current document. Shared by
`codeAction/resolve` and `workspace/executeCommand`, so both give the same result."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from cass.runner.diagnostics import CassError
from cass.server.lsp import engines, mirrors
from cass.server.lsp.bridge import (
    LineIndex,
    fix_edit,
    fix_from_data,
    line_ending,
    minimal_edits,
    with_line_ending,
)
from cass.server.lsp.documents import Snapshot, require_kind, require_size, sass_arch_of
from cass.server.lsp.jobs import run_in_child
from cass.server.lsp.progress import on_current_text
from lsprotocol import types as lsp

if TYPE_CHECKING:
    from cass.models.engine import Target, Translation
    from cass.server.lsp.server import CassServer


@dataclass
class Outcome:
    message: str
    kind: lsp.MessageType = lsp.MessageType.Info
    edit: lsp.WorkspaceEdit | None = None
    text: str | None = None  # for a new untitled document
    language_id: str | None = None
    write: tuple[Path, str] | None = None  # a new file, for clients that cannot create files


async def translate(
    server: CassServer, level: str, text: str, path: str, engine: str, target: Target | None = None
) -> Translation:
    """Run an engine off the event loop: the rules engine in a thread (milliseconds), the lifter
    and models in a child process that cancellation kills."""
    settings = server.settings
    target = target or engines.target_of(settings)
    if level == "source" and engine == "rules":
        return await asyncio.to_thread(
            engines.translate_source, text, path, settings, engine, target
        )
    translation, version = await run_in_child(
        "cass.server.lsp.work:translate",
        level,
        text,
        path,
        settings,
        engine,
        target,
        timeout_s=settings.timeout_s,
        what=f"translating {Path(path).name} with {engine}",
    )
    server.engine_versions[engine] = version
    return translation


async def translate_document(
    server: CassServer, snap: Snapshot, engine: str, target: Target
) -> Translation:
    """A whole document's translation; the rules engine's is shared with the diagnostics,
    which computed it already for this version of the document."""
    if engine == "rules":
        cached = server.recall_rules(snap, target)
        if cached is not None:
            return cached
    translation = await translate(server, "source", snap.text, snap.name, engine, target)
    if engine == "rules":
        server.remember_rules(snap, target, translation)
    return translation


def _checked(server: CassServer, uri: str, kind: str, selection: bool = False) -> Snapshot:
    """The document (open, or else on disk), checked to be of `kind` and not too big. A
    selection belongs to an open document: without one there is nothing to port."""
    snap = server.snapshot(uri)
    if selection and snap.version is None:
        raise CassError(
            f"{snap.name} is not open in the editor (closed meanwhile?): the selection belonged "
            "to it; nothing was changed"
        )
    require_kind(snap, kind)
    require_size(snap, server.settings.max_file_bytes)
    return snap


def _findings(translation: Translation) -> str:
    count = len(translation.diagnostics)
    return "no findings" if not count else f"{count} finding{'s' if count > 1 else ''} to review"


# --- Port file to HIP -------------------------------------------------------------------------


async def port_file(server: CassServer, uri: str) -> Outcome:
    snap = _checked(server, uri, "cuda")
    source = snap.path
    if source is None:
        raise CassError(
            f"{snap.name} is not saved yet: save it inside the project so cass knows where its "
            'mirror goes, or use "Port selection to HIP"'
        )
    root, target, config = mirrors.mirror_location(
        source, server.workspace_roots(), server.settings
    )

    async def compute(current: Snapshot) -> Translation:
        return await translate_document(server, current, config.engine, config.target)

    snap, translation = await on_current_text(server, uri, compute, "porting it")
    opened = server.open_snapshot(target.as_uri())
    current = mirrors.read_current(target, opened.text if opened else None)
    version = server.engine_versions.get(config.engine)
    if version is None:
        version = await asyncio.to_thread(engines.engine_version, config.engine)
    plan = mirrors.plan_mirror(
        source, snap.text, root, config, target, current, translation, version
    )
    outcome = file_outcome(server, target, plan.old_text, plan.new_text, opened)
    shown = _shown(target, root)
    outcome.message = (
        f"Ported {source.name} to {shown} with {translation.engine}: {_findings(translation)}"
    )
    if outcome.edit is None and outcome.write is None:
        outcome.message = f"{shown} is up to date with {source.name}"
    from cass.models.workflow import mirror

    if not mirror.is_mirrored(source, root, config):
        outcome.message += (
            f" (note: the project's mirror rule excludes {source.name}, so the git hooks will "
            "not keep this mirror in step)"
        )
    return outcome


def _shown(path: Path, root: Path) -> str:
    try:
        return path.relative_to(root).as_posix()
    except ValueError:
        return str(path)


def file_outcome(
    server: CassServer, target: Path, old: str | None, new: str, opened: Snapshot | None
) -> Outcome:
    """An edit creating `target` with `new`, or updating it from `old` with minimal edits.
    Clients that cannot create files get the file to write instead."""
    uri = target.as_uri()
    if old is None:
        if not server.supports_create():
            return Outcome("", write=(target, new))
        insert = lsp.TextEdit(range=LineIndex("").whole(), new_text=new)
        changes: list = [
            lsp.CreateFile(
                uri=uri, options=lsp.CreateFileOptions(overwrite=False, ignore_if_exists=True)
            ),
            lsp.TextDocumentEdit(
                text_document=lsp.OptionalVersionedTextDocumentIdentifier(uri=uri, version=None),
                edits=[insert],
            ),
        ]
        return Outcome("", edit=lsp.WorkspaceEdit(document_changes=changes))
    edits = minimal_edits(old, new, server.encoding)
    if not edits:
        return Outcome("")
    if not server.supports_document_changes():
        return Outcome("", edit=lsp.WorkspaceEdit(changes={uri: edits}))
    identifier = lsp.OptionalVersionedTextDocumentIdentifier(
        uri=uri, version=opened.version if opened else None
    )
    return Outcome(
        "",
        edit=lsp.WorkspaceEdit(
            document_changes=[lsp.TextDocumentEdit(text_document=identifier, edits=edits)]
        ),
    )


# --- Port selection to HIP --------------------------------------------------------------------


def _selection(snap: Snapshot, selection: lsp.Range, encoding: str) -> tuple[int, int]:
    index = LineIndex(snap.text, encoding)
    start, end = index.offset(selection.start), index.offset(selection.end)
    if not snap.text[start:end].strip():
        raise CassError(f"{snap.name}: select the code to translate first (the selection is empty)")
    return start, end


HIP_RUNTIME_INCLUDE = "#include <hip/hip_runtime.h>\n"


def as_fragment(ported: str, original: str) -> str:
    """A ported selection without the runtime include the engine adds to whole files (the file
    around the selection has its own includes)."""
    if "#include" in original:
        return ported
    return ported.replace(HIP_RUNTIME_INCLUDE, "", 1)


async def port_selection(
    server: CassServer, uri: str, selection: lsp.Range, replace: bool
) -> Outcome:
    _checked(server, uri, "cuda", selection=True)
    spans: dict[int | None, tuple[int, int]] = {}

    async def compute(current: Snapshot) -> Translation:
        start, end = spans[current.version] = _selection(current, selection, server.encoding)
        return await translate(
            server, "source", current.text[start:end], current.name, server.settings.engine
        )

    snap, translation = await on_current_text(server, uri, compute, "porting the selection")
    start, end = spans[snap.version]
    message = f"Ported the selection with {translation.engine}: {_findings(translation)}"
    text = with_line_ending(
        as_fragment(translation.text, snap.text[start:end]), line_ending(snap.text)
    )
    if not replace:
        return Outcome(message, text=text, language_id="hip")
    index = LineIndex(snap.text, server.encoding)
    edit = lsp.TextEdit(range=index.range(start, end), new_text=text)
    identifier = lsp.OptionalVersionedTextDocumentIdentifier(uri=uri, version=snap.version)
    if server.supports_document_changes():
        workspace_edit = lsp.WorkspaceEdit(
            document_changes=[lsp.TextDocumentEdit(text_document=identifier, edits=[edit])]
        )
    else:
        workspace_edit = lsp.WorkspaceEdit(changes={uri: [edit]})
    return Outcome(message, edit=workspace_edit)


# --- Translate SASS to RDNA3 ------------------------------------------------------------------


ASSEMBLY_MARK = "; Generated by cass"  # first line of every .s cass writes ("; " comments)


async def translate_sass(server: CassServer, uri: str, selection: lsp.Range | None) -> Outcome:
    snap = _checked(server, uri, "sass", selection=selection is not None)
    target = snap.path.with_suffix(".s") if snap.path and selection is None else None
    if target is not None:
        _refuse_foreign_assembly(server, target)
    spans: dict[int | None, tuple[int, int]] = {}
    # a selection rarely holds cuobjdump's "code for sm_NN" line: take it from the whole file
    sass_target = engines.target_of(server.settings, sass_arch_of(snap.text))

    async def compute(current: Snapshot) -> Translation:
        span = (
            _selection(current, selection, server.encoding) if selection else (0, len(current.text))
        )
        spans[current.version] = span
        return await translate(
            server, "assembly", current.text[span[0] : span[1]], current.name, "lift", sass_target
        )

    snap, translation = await on_current_text(server, uri, compute, "translating it")
    message = (
        f"Translated {Path(snap.name).name} to RDNA3 ({server.settings.gfx_arch}) "
        f"with {translation.engine}: {_findings(translation)}"
    )
    if target is None:
        return Outcome(message, text=translation.text, language_id="amdgpu-asm")
    opened = server.open_snapshot(target.as_uri())
    current = mirrors.read_current(target, opened.text if opened else None)
    _refuse_foreign_assembly(server, target)
    version = server.engine_versions.get("lift", "")
    header = f"{ASSEMBLY_MARK} from {target.with_suffix('.sass').name} by {translation.engine}"
    new_text = f"{header} {version}; edit the SASS, not this file.\n{translation.text}"
    outcome = file_outcome(server, target, current, new_text, opened)
    outcome.message = message + (
        f"; updated {target.name}" if current is not None else f"; created {target.name}"
    )
    return outcome


def _refuse_foreign_assembly(server: CassServer, target: Path) -> None:
    """CassError when `target` exists (in the editor or on disk) and cass did not write it."""
    opened = server.open_snapshot(target.as_uri())
    current = mirrors.read_current(target, opened.text if opened else None)
    if current is not None and not current.startswith(ASSEMBLY_MARK):
        raise CassError(
            f"{target} exists and was not written by cass; nothing was changed: move it away, "
            "or translate a selection (it opens in a new document)"
        )


# --- Quick fixes ------------------------------------------------------------------------------


def fix_outcome(server: CassServer, uri: str, data: object) -> Outcome:
    snap = server.snapshot(uri)
    fix = fix_from_data(data)
    if fix is None:
        raise CassError(f"{snap.name}: this diagnostic carries no fix")
    edit = fix_edit(fix, LineIndex(snap.text, server.encoding))
    return Outcome(fix.message, edit=lsp.WorkspaceEdit(changes={uri: [edit]}))
