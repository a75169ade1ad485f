"""The engine contract: every engine turns a `TranslationRequest` into a `Translation`.

The editor, the hooks, the CLI and the benchmark never care which engine ran.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal, Protocol

from cass.runner.diagnostics import Diagnostic, Severity
from cass.runner.toolchain import DEFAULT_GFX_ARCH

Level = Literal["source", "assembly"]


@dataclass(frozen=True)
class Target:
    """What a translation is for: the AMD arch, the HIP version, and (assembly) the SASS arch."""

    gfx_arch: str = DEFAULT_GFX_ARCH
    hip_version: str = "5.2"
    sass_arch: str | None = None
    # Source ports: hoist calls whose argument order differs between nvcc's GCC and clang
    # (CASS068) into variables, in GCC's order, where the statement allows it.
    hoist_argument_calls: bool = False

    @property
    def wave_size(self) -> int:
        """RDNA (gfx10xx/gfx11xx) runs HIP in wave32; GCN/CDNA (gfx9xx) in wave64."""
        return 64 if self.gfx_arch.startswith("gfx9") else 32


@dataclass(frozen=True)
class TranslationRequest:
    level: Level
    text: str
    path: str = "<stdin>"
    target: Target = field(default_factory=Target)


@dataclass(frozen=True)
class Translation:
    text: str
    diagnostics: tuple[Diagnostic, ...]
    engine: str
    elapsed_s: float

    @property
    def has_errors(self) -> bool:
        return any(d.severity is Severity.ERROR for d in self.diagnostics)


class Engine(Protocol):
    """An engine: a name, a version (recorded in mirror headers) and one method."""

    name: str
    version: str

    def translate(self, request: TranslationRequest) -> Translation: ...
