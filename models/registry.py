"""The explicit engine registry: engine name -> factory. No plugin discovery.

Other engines add their line to `ENGINES` when they land.
"""

from __future__ import annotations

from collections.abc import Callable

from cass.models.engine import Engine
from cass.models.llm.catalog import resolve_model
from cass.runner.diagnostics import CassError


def _rules() -> Engine:
    from cass.models.rules import RulesEngine

    return RulesEngine()


def _model(model: str = "") -> Engine:
    from cass.models.llm.engine import ModelEngine

    return ModelEngine(resolve_model(model))


def _lift() -> Engine:
    from cass.models.lift.engine import LiftEngine

    return LiftEngine()


def _auto(model: str = "") -> Engine:
    from cass.models.llm.engine import AutoEngine

    return AutoEngine(resolve_model(model))


ENGINES: dict[str, Callable[..., Engine]] = {
    "rules": _rules,
    "model": _model,  # a CASS model: model=PATH.gguf | CHECKPOINT_DIR | http(s)://URL
    "auto": _auto,  # rules first, the model for what the rules engine could not port
    "lift": _lift,  # SASS -> gfx1100 by binary translation (assembly level)
}
MODEL_ENGINES = frozenset({"model", "auto"})  # engines that take model=PATH_OR_URL
SOURCE_ENGINES = (
    "rules",
    "model",
    "auto",
)  # the engines that port CUDA source (the editor's cass.engine)


def get_engine(name: str, model: str = "") -> Engine:
    """A new engine instance by name; CassError naming the known engines otherwise."""
    factory = ENGINES.get(name)
    if factory is None:
        known = ", ".join(sorted(ENGINES))
        raise CassError(f"unknown engine '{name}' (known: {known})")
    if name in MODEL_ENGINES:
        if not resolve_model(model) and name == "model":
            raise CassError(
                "the model engine needs a model: --model PATH.gguf, a checkpoint directory, "
                "or an http:// URL (or set CASS_MODEL)"
            )
        return factory(model)
    return factory()
