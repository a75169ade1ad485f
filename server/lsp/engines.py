"""Adapters from the editor's settings to cass.models: engines, hover data, diagnostic codes.

Everything that names an engine or a table of cass.models sits here, so the handlers stay thin
and a missing or failing engine becomes one clear CassError (shown as a message in the editor).
cass.models is imported on first use, not when the server starts (the rules tables and the
toolchain cost more to import than the server needs to answer `initialize`).
"""

from __future__ import annotations

import threading
from dataclasses import replace
from typing import TYPE_CHECKING

from cass.runner.diagnostics import CassError
from cass.server.lsp.documents import sass_arch_of
from cass.server.lsp.settings import Settings

if TYPE_CHECKING:
    from cass.models.engine import Engine, Target, Translation, TranslationRequest
    from cass.models.rules import MappingEntry

# The published documentation: docs/ of the repository on its default branch (pyproject's
# Repository URL; a test keeps them equal). A link works from any install, not only a checkout.
DOCS_BASE = "https://github.com/cass-project/cass/blob/main/"


def target_of(settings: Settings, sass_arch: str | None = None) -> Target:
    from cass.models.engine import Target

    return Target(gfx_arch=settings.gfx_arch, hip_version=settings.hip_version, sass_arch=sass_arch)


# Engines made in this process, kept: tables and models load once, not once per keystroke.
_instances: dict[tuple[str, str], Engine] = {}
_lock = threading.Lock()


def get_engine(name: str, model: str = "") -> Engine:
    """The engine `name` from the registry (model engines get `model`, a GGUF path or a server
    URL, when one is set), or a CassError saying what is wrong."""
    from cass.models import registry

    known = registry.ENGINES
    if name not in known:
        available = ", ".join(sorted(known)) or "none"
        raise CassError(
            f"no engine named {name!r} is available in this cass (available: {available})"
        )
    if name == "model" and not model:
        raise CassError(
            "the model engine needs a model: set cass.model.path (a .gguf file or a checkpoint "
            "folder) or cass.model.serverUrl, or choose the rules engine (cass.engine)"
        )
    key = (name, model if name in registry.MODEL_ENGINES else "")
    with _lock:
        if key in _instances:
            return _instances[key]
    try:
        engine = registry.get_engine(name, model=model) if key[1] else registry.get_engine(name)
    except CassError:
        raise
    except Exception as exc:  # a model that fails to load, a missing optional dependency
        raise CassError(f"the {name} engine could not start: {type(exc).__name__}: {exc}") from exc
    with _lock:
        return _instances.setdefault(key, engine)


def model_of(settings: Settings) -> str:
    """The model the settings name: a local file first, else a server URL, else $CASS_MODEL or
    the model bundled with cass."""
    from cass.models.llm.catalog import resolve_model

    return resolve_model(settings.model_path or settings.model_server_url)


def source_engine_name(settings: Settings) -> str:
    return settings.engine


def translate_source(
    text: str,
    path: str,
    settings: Settings,
    engine: str | None = None,
    target: Target | None = None,
) -> Translation:
    """CUDA -> HIP with the configured engine and target (or the given ones)."""
    from cass.models.engine import TranslationRequest

    chosen = get_engine(engine or source_engine_name(settings), model_of(settings))
    request = TranslationRequest("source", text, path, target or target_of(settings))
    return _run(chosen, request)


def translate_assembly(
    text: str, path: str, settings: Settings, target: Target | None = None
) -> Translation:
    """NVIDIA SASS -> RDNA3 assembly with the `lift` engine. The SASS architecture comes from
    `target`, else from the text's "code for sm_NN" line."""
    target = target or target_of(settings)
    if target.sass_arch is None:
        target = replace(target, sass_arch=sass_arch_of(text))
    from cass.models.engine import TranslationRequest

    request = TranslationRequest(level="assembly", text=text, path=path, target=target)
    return _run(get_engine("lift"), request)


def engine_version(name: str, model: str = "") -> str:
    return get_engine(name, model).version


def _run(engine: Engine, request: TranslationRequest) -> Translation:
    try:
        return engine.translate(request)
    except CassError:
        raise
    except Exception as exc:  # the engine's own bug must not take the server down
        raise CassError(
            f"{request.path}: the {getattr(engine, 'name', 'engine')} engine failed: "
            f"{type(exc).__name__}: {exc}"
        ) from exc


def lookup(name: str) -> MappingEntry | None:
    """The rules engine's mapping entry for a CUDA name (None when unknown)."""
    from cass.models.rules import lookup as rules_lookup

    return rules_lookup(name)


def diagnostic_docs() -> dict[str, str]:
    """Diagnostic code -> documentation URL, from the rules engine's code table."""
    from cass.models.rules import DIAGNOSTIC_CODES

    docs = {}
    for code, info in DIAGNOSTIC_CODES.items():
        anchor = info.anchor
        uri = anchor if "://" in anchor else _docs_uri(anchor)
        if uri:
            docs[code] = uri
    return docs


def _docs_uri(anchor: str) -> str:
    page, _, fragment = anchor.lstrip("/").partition("#")
    return DOCS_BASE + page + (f"#{fragment}" if fragment else "")
