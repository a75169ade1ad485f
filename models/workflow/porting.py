"""Port, then verify: the one orchestration every front end (CLI, editor, hooks) calls.

    outcome = port_and_verify(Path("saxpy.cu"))            # rules engine, port in a temp folder
    outcome.verdict.status, outcome.port_path, outcome.translation.diagnostics

The port is written to `output` when given (an existing, different file there is never
overwritten unless `overwrite=True`), else to a private temporary folder that the caller may
keep or remove (`outcome.cleanup()`).
"""

from __future__ import annotations

import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from cass.models.engine import Target, Translation, TranslationRequest
from cass.models.registry import MODEL_ENGINES
from cass.runner.diagnostics import CassError, WorkError
from cass.runner.spec import RunSpec
from cass.runner.toolchain import DEFAULT_GFX_ARCH
from cass.runner.verify import Verdict, verify

DEFAULT_ENGINE = "rules"


@dataclass(frozen=True)
class PortOutcome:
    translation: Translation
    port_path: Path
    verdict: Verdict
    temporary: bool  # the port lives in a temp folder cass made
    attempts: tuple[
        Any, ...
    ] = ()  # model/auto engines: every candidate (cass.models.llm.verified.Attempt)
    notes: tuple[str, ...] = ()

    def cleanup(self) -> None:
        """Remove the temporary port (nothing is removed when the caller chose `output`)."""
        if self.temporary:
            shutil.rmtree(self.port_path.parent, ignore_errors=True)

    def to_dict(self) -> dict[str, Any]:
        return {
            **self.verdict.to_dict(),
            "port_path": str(self.port_path),
            "engine": self.translation.engine,
            "translation_diagnostics": [d.to_dict() for d in self.translation.diagnostics],
            "attempts": [a.to_dict() for a in self.attempts],
            "engine_notes": list(self.notes),
        }


def translate_source(
    original: Path, engine: str = DEFAULT_ENGINE, target: Target | None = None
) -> Translation:
    """CUDA source -> HIP source with the named engine (from the engine registry)."""
    from cass.models.registry import get_engine
    from cass.runner.inputs import read_input_text

    text = read_input_text(original)
    request = TranslationRequest("source", text, str(original), target or Target())
    return get_engine(engine).translate(request)


def _write_port(
    original: Path, text: str, output: Path | None, overwrite: bool
) -> tuple[Path, bool]:
    if output is None:
        folder = Path(tempfile.mkdtemp(prefix="cass-port-"))
        path = folder / (original.stem + ".hip")
        path.write_text(text, encoding="utf-8")
        return path, True
    from cass.runner.outputs import check_output, write_atomic

    check_output(output, inputs=[original], force=True)
    if (
        output.exists()
        and not overwrite
        and output.read_text(encoding="utf-8", errors="replace") != text
    ):
        raise CassError(
            f"{output} already exists and differs from the new port; move it away or pass overwrite"
        )
    write_atomic(output, text)
    return output, False


def port_and_verify(
    original: Path,
    *,
    engine: str = DEFAULT_ENGINE,
    output: Path | None = None,
    overwrite: bool = False,
    spec: RunSpec | None = None,
    backends: tuple[str | None, str | None] | None = None,
    target: Target | None = None,
    model: str = "",
    candidates: int = 4,
    on_attempt: Any = None,
) -> PortOutcome:
    """Port `original` with `engine`, write the port, verify it against the original. The `model`
    and `auto` engines (with `model`: a GGUF, a checkpoint directory or a server URL) try up to
    `candidates` translations and keep the first that matches (cass.models.llm.verified)."""
    original = Path(original)
    if not original.is_file():
        raise CassError(f"{original}: no such CUDA source file")
    if engine in MODEL_ENGINES:
        return _port_with_model(
            original,
            engine,
            model,
            candidates,
            output,
            overwrite,
            spec,
            backends,
            target,
            on_attempt,
        )
    translation = translate_source(original, engine, target)
    port_path, temporary = _write_port(original, translation.text, output, overwrite)
    verdict = verify(original, port_path, spec, backends=backends)
    return PortOutcome(translation, port_path, verdict, temporary)


def _port_with_model(
    original, engine, model, candidates, output, overwrite, spec, backends, target, on_attempt
) -> PortOutcome:
    from cass.models.llm.verified import port_verified

    run = port_verified(original, engine, model, candidates=candidates, target=target, spec=spec,
                        backends=backends, on_attempt=on_attempt)  # fmt: skip
    try:
        chosen = run.chosen
        if chosen is None or chosen.verdict is None:
            reasons = "; ".join(f"candidate {a.number}: {a.message}" for a in run.attempts)
            raise WorkError(
                f"{original}: the model gave no port to verify in {len(run.attempts)} candidate(s): {reasons}"
            )
        port_path, temporary = _write_port(original, chosen.translation.text, output, overwrite)
        return PortOutcome(
            chosen.translation, port_path, chosen.verdict, temporary, tuple(run.attempts), run.notes
        )
    finally:
        run.cleanup()


def port_and_verify_for_editor(path: str, settings: Any) -> dict[str, Any]:
    """The editor's entry: settings with `engine`, `gfx_arch`, `hip_version`; plain data back.
    The port goes to a temporary folder (the editor writes mirrors through its own commands),
    kept when the port is wrong (mismatch, error) so that diagnostics point at a file that exists."""
    target = Target(
        gfx_arch=getattr(settings, "gfx_arch", DEFAULT_GFX_ARCH),
        hip_version=getattr(settings, "hip_version", "5.2"),
    )
    model = getattr(settings, "model_path", "") or getattr(settings, "model_server_url", "")
    outcome = port_and_verify(
        Path(path), engine=getattr(settings, "engine", DEFAULT_ENGINE), target=target, model=model
    )
    data = outcome.to_dict()
    if outcome.verdict.status not in ("mismatch", "error"):
        outcome.cleanup()
    return data
