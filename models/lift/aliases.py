"""HIP names for lifted kernels whose CUDA signature uses vector types.

CUDA mangles `int2` as `4int2`; HIP's `int2` is `HIP_vector_type<int, 2>`, so the HIP host port
registers `_Z9hookEdgesPK15HIP_vector_typeIiLj2EE...` where the cubin says `_Z9hookEdgesPK4int2...`.
The lifter emits such kernels under both names; the HIP name is what clang itself mangles for the
same declaration (compiled host-only, names read from the registration strings).
"""

from __future__ import annotations

import re
import subprocess
import tempfile
from pathlib import Path

from cass.models.lift.params import demangle, signature_types

VECTOR = re.compile(r"\b(?:u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4]\b")
PLAIN_NAME = re.compile(r"^[A-Za-z_]\w*$")
TIMEOUT_S = 120


def hip_aliases(names: list[str]) -> dict[str, str]:
    """CUDA kernel name -> HIP kernel name, for plain (non-template, global-namespace) kernels with
    vector-typed parameters; {} when clang is missing or fails."""
    decls, wanted = [], []
    for name in names:
        pretty = demangle(name)
        types = signature_types(pretty)
        fname = pretty.split("(", 1)[0]
        if types is None or not PLAIN_NAME.match(fname) or not any(VECTOR.search(t) for t in types):
            continue
        decls.append(f"__global__ void {fname}({', '.join(types)}) {{}}")
        wanted.append(name)
    if not wanted:
        return {}
    registered = _registered_names("#include <hip/hip_runtime.h>\n" + "\n".join(decls) + "\n")
    by_function = {_function_of(hip): hip for hip in registered}
    return {cuda: by_function[_function_of(cuda)] for cuda in wanted
            if by_function.get(_function_of(cuda), cuda) != cuda}  # fmt: skip


def _function_of(mangled: str) -> str:
    m = re.match(r"_Z(\d+)", mangled)
    return mangled[m.end():m.end() + int(m.group(1))] if m else mangled


def _registered_names(source: str) -> list[str]:
    with tempfile.TemporaryDirectory(prefix="cass-lift-names-") as work:
        src = Path(work) / "names.hip"
        src.write_text(source, encoding="utf-8")
        argv = ["clang++-16", "-x", "hip", "--cuda-host-only", "-nogpulib", "-D__HIP_PLATFORM_AMD__",
                "--rocm-path=/usr", "-S", "-emit-llvm", "-o", "-", str(src)]  # fmt: skip
        try:
            proc = subprocess.run(argv, capture_output=True, text=True, timeout=TIMEOUT_S)
        except (FileNotFoundError, subprocess.TimeoutExpired):
            return []
    if proc.returncode != 0:
        return []
    return re.findall(r'c"(_Z[^"\\]+)\\00"', proc.stdout)
