"""The rules engine: deterministic CUDA -> HIP source translation on a real C++ lexer.

Public API:
- `RulesEngine().translate(TranslationRequest(level="source", ...)) -> Translation`
  (or `cass.models.registry.get_engine("rules")`);
- `lookup(name) -> MappingEntry | None`: what cass knows about a CUDA name (HIP name, support
  status, HIP version that introduced it, API family) — for hover and docs;
- `DIAGNOSTIC_CODES`: code -> DiagnosticCode(title, severity, explanation, anchor).
"""

from cass.models.rules.codes import DIAGNOSTIC_CODES, DiagnosticCode
from cass.models.rules.engine import RulesEngine, port_unit
from cass.models.rules.tables import FAMILIES, MappingEntry, lookup

__all__ = [
    "DIAGNOSTIC_CODES",
    "FAMILIES",
    "DiagnosticCode",
    "MappingEntry",
    "RulesEngine",
    "lookup",
    "port_unit",
]
