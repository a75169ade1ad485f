"""The explicit engine registry: engine name -> factory. No plugin discovery.

Other engines (`lift`, `model`) add their line to `ENGINES` when they land.
"""

from __future__ import annotations

from collections.abc import Callable

from cass.models.engine import Engine
from cass.runner.diagnostics import CassError


def _rules() -> Engine:
    from cass.models.rules import RulesEngine

    return RulesEngine()


ENGINES: dict[str, Callable[[], Engine]] = {
    "rules": _rules,
}


def get_engine(name: str) -> Engine:
    """A new engine instance by name; CassError naming the known engines otherwise."""
    factory = ENGINES.get(name)
    if factory is None:
        known = ", ".join(sorted(ENGINES))
        raise CassError(f"unknown engine '{name}' (known: {known})")
    return factory()
