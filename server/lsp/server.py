"""The cass language server object: settings, client capabilities, documents, messages.

This module holds only the state every feature shares. Features live in their own modules, each
with one `setup(server)` that registers its handlers, and import this module for typing only;
`cass.server.lsp.create_server()` lists them in order. A feature that must react to new settings
registers a callback with `on_settings_change`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import unquote, urlparse

from cass.runner.diagnostics import CassError
from cass.server.lsp.documents import Snapshot
from cass.server.lsp.settings import Settings
from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol

if TYPE_CHECKING:
    from cass.models.engine import Target, Translation

log = logging.getLogger(__name__)


def _version() -> str:
    try:
        return version("cass")
    except PackageNotFoundError:
        return "0"


class CassProtocol(LanguageServerProtocol):
    """pygls's protocol, plus: `$/cancelRequest` also cancels the task of a running command.

    (pygls cancels the future it answers through; a command's coroutine runs on behind a
    generator, so without this a cancelled verification would run to its end.)"""

    def _handle_cancel_notification(self, msg_id: str | int) -> None:
        super()._handle_cancel_notification(msg_id)
        running = getattr(self._server, "running", {}).get(msg_id)
        if running is not None:
            running.cancel()


class CassServer(LanguageServer):
    """pygls server plus what every cass feature needs: settings, snapshots, capability checks,
    diagnostics kept per producer (rules findings and verdicts are published together)."""

    def __init__(self) -> None:
        super().__init__(
            "cass",
            _version(),
            text_document_sync_kind=lsp.TextDocumentSyncKind.Incremental,
            protocol_cls=CassProtocol,
        )
        self.running: dict[object, asyncio.Task[object]] = {}  # request id -> command task
        self.engine_versions: dict[str, str] = {}  # engines that ran in child processes
        self.settings = Settings()
        self.settings_problems: list[str] = []  # the last invalid values reported
        self.diagnostic_sets: dict[str, dict[str, list[lsp.Diagnostic]]] = {}
        self.notified: set[str] = set()  # one-time messages already shown (by key)
        self.diagnostic_timers: dict[str, asyncio.Task[None]] = {}  # debounced updates per URI
        self.diagnostic_threads: dict[str, asyncio.Future[Any]] = {}  # findings being computed
        self._rules_cache: dict[str, tuple[Snapshot, Target, Translation]] = {}  # last per URI
        self._settings_listeners: list[Callable[[CassServer], None]] = []

    # --- settings -----------------------------------------------------------------------------

    def on_settings_change(self, callback: Callable[[CassServer], None]) -> None:
        """Call `callback(server)` whenever the settings change."""
        self._settings_listeners.append(callback)

    def change_settings(self, settings: Settings) -> None:
        """Take new settings; the registered callbacks run when they differ from the old."""
        changed = settings != self.settings
        self.settings = settings
        if changed:
            for callback in self._settings_listeners:
                callback(self)

    # --- client capabilities ------------------------------------------------------------------

    @property
    def _caps(self) -> lsp.ClientCapabilities:
        return self.client_capabilities or lsp.ClientCapabilities()

    def supports_resolve(self) -> bool:
        action = self._caps.text_document and self._caps.text_document.code_action
        resolve = action and action.resolve_support
        return bool(resolve and "edit" in resolve.properties)

    def supports_create(self) -> bool:
        edit = self._caps.workspace and self._caps.workspace.workspace_edit
        ops = (edit and edit.resource_operations) or []
        return bool(edit and edit.document_changes) and lsp.ResourceOperationKind.Create in ops

    def supports_document_changes(self) -> bool:
        edit = self._caps.workspace and self._caps.workspace.workspace_edit
        return bool(edit and edit.document_changes)

    def supports_progress(self) -> bool:
        return bool(self._caps.window and self._caps.window.work_done_progress)

    def supports_show_document(self) -> bool:
        show = self._caps.window and self._caps.window.show_document
        return bool(show and show.support)

    def supports_code_description(self) -> bool:
        publish = self._caps.text_document and self._caps.text_document.publish_diagnostics
        return bool(publish and publish.code_description_support)

    def supports_configuration(self) -> bool:
        return bool(self._caps.workspace and self._caps.workspace.configuration)

    @property
    def encoding(self) -> str:
        """The negotiated position encoding: "utf-8", "utf-16" or "utf-32"."""
        chosen = self.workspace.position_encoding or "utf-16"
        return str(getattr(chosen, "value", chosen))

    # --- documents ----------------------------------------------------------------------------

    def open_snapshot(self, uri: str) -> Snapshot | None:
        """The document as the editor has it now, or None when it is not open."""
        if uri not in self.workspace.text_documents:
            return None
        doc = self.workspace.get_text_document(uri)
        return Snapshot(uri=uri, version=doc.version, text=doc.source, language_id=doc.language_id)

    def snapshot(self, uri: str) -> Snapshot:
        """The open document, else the file on disk; CassError when neither exists."""
        snap = self.open_snapshot(uri)
        if snap is not None:
            return snap
        parsed = urlparse(uri)
        path = Path(unquote(parsed.path)) if parsed.scheme == "file" else None
        if path is None or not path.is_file():
            raise CassError(f"{uri} is neither open in the editor nor a file on disk")
        try:
            return Snapshot(uri=uri, version=None, text=path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise CassError(f"{path}: cannot read it as UTF-8 text ({exc})") from exc

    def remember_rules(self, snap: Snapshot, target: Target, translation: Translation) -> None:
        """Keep the rules engine's translation of this document version (one per document)."""
        self._rules_cache[snap.uri] = (snap, target, translation)

    def recall_rules(self, snap: Snapshot, target: Target) -> Translation | None:
        """The kept translation when it is of exactly this text, path and target."""
        kept = self._rules_cache.get(snap.uri)
        if kept is None or kept[0] != snap or kept[1] != target:
            return None
        return kept[2]

    def workspace_roots(self) -> list[Path]:
        roots = [Path(unquote(urlparse(f.uri).path)) for f in self.workspace.folders.values()]
        if not roots and self.workspace.root_path:
            roots.append(Path(self.workspace.root_path))
        return roots

    # --- messages and diagnostics -------------------------------------------------------------

    def tell(self, message: str, kind: lsp.MessageType = lsp.MessageType.Info) -> None:
        log.info("%s", message)
        self.window_show_message(lsp.ShowMessageParams(type=kind, message=message))

    def tell_once(
        self, key: str, message: str, kind: lsp.MessageType = lsp.MessageType.Warning
    ) -> None:
        if key not in self.notified:
            self.notified.add(key)
            self.tell(message, kind)

    def publish(
        self, uri: str, producer: str, diagnostics: list[lsp.Diagnostic], version: int | None = None
    ) -> None:
        """Replace `producer`'s diagnostics for `uri` and publish the union of all producers."""
        sets = self.diagnostic_sets.setdefault(uri, {})
        sets[producer] = diagnostics
        merged = [d for items in sets.values() for d in items]
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=merged, version=version)
        )

    def forget(self, uri: str) -> None:
        self.diagnostic_sets.pop(uri, None)
        self._rules_cache.pop(uri, None)
        self.diagnostic_threads.pop(uri, None)
        self.text_document_publish_diagnostics(
            lsp.PublishDiagnosticsParams(uri=uri, diagnostics=[])
        )
