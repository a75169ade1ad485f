"""Build files of a ported project: Makefiles and CMake files, ported to build HIP for AMD."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from cass.models.engine import Target
from cass.runner.diagnostics import Diagnostic


@dataclass
class PortedBuildFile:
    relative: str
    text: str
    original: str
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.text != self.original


def port_build_file(path: Path, relative: str, target: Target) -> PortedBuildFile:
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    return PortedBuildFile(relative, text, text)
