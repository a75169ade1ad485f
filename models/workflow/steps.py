"""The two calls the mirror workflow makes into the rest of cass: translate a source, verify a pair.

Translation goes through the engine registry (`cass.models.registry`), verification through the
runner (`cass.runner.verify`); both results come back in the workflow's own small terms.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from cass.models.engine import Engine, Translation, TranslationRequest
from cass.models.workflow.mirror import MirrorConfig
from cass.runner.diagnostics import CassError, WorkError

FAILING_VERDICTS = ("mismatch", "error")


@lru_cache(maxsize=8)
def engine_for(name: str) -> Engine:
    try:
        from cass.models.registry import get_engine
    except ImportError as exc:
        raise WorkError(
            f"this cass install has no engine registry ({exc}); reinstall cass"
        ) from None
    return get_engine(name)


def translate(source_text: str, source_rel: str, config: MirrorConfig) -> Translation:
    """Translate one CUDA source with the configured engine (located diagnostics included)."""
    request = TranslationRequest(
        level="source", text=source_text, path=source_rel, target=config.target
    )
    return engine_for(config.engine).translate(request)


@dataclass(frozen=True)
class Check:
    """A verification verdict, flattened for reports."""

    status: str  # "match" | "mismatch" | "error" | "unverifiable"
    message: str
    details: tuple[str, ...] = ()
    backends: str = ""

    @property
    def failed(self) -> bool:
        return self.status in FAILING_VERDICTS


def verify_pair(root: Path, source_rel: str, mirror_rel: str) -> Check:
    """Run the original and the mirror and compare them (the runner picks the backends)."""
    from cass.runner.verify import verify

    try:
        verdict = verify(root / source_rel, root / mirror_rel)
    except CassError as exc:
        return Check("error", exc.message, tuple(d.render() for d in exc.diagnostics))
    details = tuple(m.render() for m in verdict.mismatches)
    details += tuple(d.render() for d in verdict.diagnostics[:5])
    return Check(verdict.status, verdict.message, details, " vs ".join(verdict.backends))
