"""The `lift` engine: assembly-level translation (SASS text -> gfx1100 assembly) by the lifter."""

from __future__ import annotations

import time
from pathlib import Path

from cass.models.engine import Translation, TranslationRequest
from cass.models.lift.inputs import cubin_info_for
from cass.models.lift.pipeline import lift_sass
from cass.runner.diagnostics import CassError, Diagnostic, Severity
from cass.runner.toolchain import DEFAULT_GFX_ARCH

VERSION = "0.10"


class LiftEngine:
    name = "lift"
    version = VERSION

    def translate(self, request: TranslationRequest) -> Translation:
        start = time.perf_counter()
        if request.level != "assembly":
            raise CassError(
                "the lift engine translates SASS (assembly level); use the rules engine for CUDA source"
            )
        target = "nvptx" if request.target.gfx_arch in ("nvptx", "sm_90") else DEFAULT_GFX_ARCH
        if request.target.gfx_arch not in (DEFAULT_GFX_ARCH, "nvptx", "sm_90"):
            diag = Diagnostic(request.path, 1, 1, Severity.WARNING, "lift-target",
                              f"the lifter emits gfx1100 code; {request.target.gfx_arch} was asked for")  # fmt: skip
            extra: tuple[Diagnostic, ...] = (diag,)
        else:
            extra = ()
        cubin = cubin_info_for(Path(request.path), request.target.sass_arch)
        result = lift_sass(
            request.text,
            path=request.path,
            arch=request.target.sass_arch,
            target=target,
            cubin=cubin,
        )
        return Translation(
            result.assembly, result.diagnostics + extra, self.name, time.perf_counter() - start
        )
