"""The SASS -> RDNA3 lifter: binary translation through LLVM IR.

    result = lift_sass(text, path="k.sass", arch="sm_90", target="gfx1100")
    result.assembly        gfx1100 assembly (or PTX for target="nvptx"), "" when errors
    result.llvm_ir         the lifted module before optimization
    result.diagnostics     located errors (unsupported instructions) and warnings (guesses)

`LiftEngine` is the `lift` engine of the registry (assembly level).
"""

from __future__ import annotations

from cass.models.lift.pipeline import LiftResult, lift_sass

__all__ = ["LiftResult", "lift_sass"]
