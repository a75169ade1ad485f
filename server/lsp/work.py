"""Work that runs in the child process of cass.server.lsp.jobs (picklable in, picklable out)."""

from __future__ import annotations

from typing import Any

from cass.models.engine import Target, Translation
from cass.server.lsp import engines
from cass.server.lsp.settings import Settings


def translate(
    level: str, text: str, path: str, settings: Settings, engine: str, target: Target
) -> tuple[Translation, str]:
    """The translation and the version of the engine that made it (for mirror headers)."""
    if level == "assembly":
        translation = engines.translate_assembly(text, path, settings, target)
        return translation, engines.engine_version("lift")
    translation = engines.translate_source(text, path, settings, engine, target)
    return translation, engines.engine_version(engine, engines.model_of(settings))


def verify_job(path: str, settings: Settings) -> dict[str, Any]:
    """Port `path` with the configured engine and verify the port (cass.models.workflow.porting, the
    orchestration the CLI and the hooks use); the verdict as plain data."""
    from cass.models.workflow.porting import port_and_verify_for_editor

    return port_and_verify_for_editor(path, settings)
