"""The assembly level of a Thrust/CUB program: lifted user kernels, the HIP library's own kernels.

The host side of a Thrust/CUB port is the HIP library (hipCUB/rocThrust over rocPRIM): its calls
launch rocPRIM's kernels, instantiated on the HIP side. The SASS holds NVIDIA's CUB/Thrust kernels
instead, under NVIDIA's names, which that host never launches. So the device code object of such a
program is linked from two objects:

- the lifted code object: the kernels the user wrote (the port's kernels outside the libraries'
  namespaces, matched by mangled name; a template kernel of the user's whose NVIDIA and HIP
  mangled names agree is lifted too), and the user's `__device__`/`__constant__` variables;
- the port's device side compiled by clang-16 with those user kernels and variables removed
  (`llvm-extract --delete`): the rocPRIM/hipCUB/rocThrust kernels the HIP host launches.

A program calling a library cass emulates (cuFFT -> hipFFT, cuBLAS -> hipBLAS: cass.runner.
emulated_libraries) gets that implementation's kernels compiled too, as a third object.

`ld.lld -shared` links them into one gfx1100 code object (two metadata notes, which the emulator's
loader merges). A task passes the assembly level only through its lifted user kernels: the split is
reported per task (`KernelSplit.notes`), and library kernels are never counted as lifted.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from cass.runner import emulated_libraries
from cass.runner.diagnostics import WorkError
from cass.runner.tools import run_tool

# Kernels in these namespaces come from the HIP libraries (rocPRIM, hipCUB, rocThrust's `thrust`).
LIBRARY_PREFIXES = ("_ZN7rocprim", "_ZN6hipcub", "_ZN6thrust")
TOOL_TIMEOUT_S = 300
_DEFINE = re.compile(r"^define\b([^@\n]*)@(\"[^\"]+\"|[\w.$]+)\(", re.MULTILINE)
_GLOBAL = re.compile(
    r"^@(\"[^\"]+\"|[\w.$]+) = (?!external\b)(?:[\w()]+ )*?(?:global|constant)\b", re.MULTILINE
)


@dataclass(frozen=True)
class KernelSplit:
    lifted: tuple[str, ...]  # the user's kernels, taken from the lift
    library: tuple[str, ...]  # the HIP libraries' kernels, compiled from the port
    missing: tuple[str, ...]  # user kernels of the port that the lift lacks
    unused: tuple[str, ...]  # lifted kernels the HIP host never launches (NVIDIA's CUB/Thrust)

    def summary(self) -> str:
        text = (f"kernels: {len(self.lifted)} lifted (the user's), {len(self.library)} from the HIP library "
                f"(rocPRIM, compiled from the port), {len(self.unused)} lifted but not launched")  # fmt: skip
        return text + (
            f", {len(self.missing)} user kernel(s) the lift lacks" if self.missing else ""
        )

    def notes(self) -> tuple[str, ...]:
        def names(items: tuple[str, ...]) -> str:
            return ", ".join(items) if items else "none"

        out = [
            f"kernels lifted from SASS (the user's): {len(self.lifted)}: {names(self.lifted)}",
            f"kernels from the HIP library (rocPRIM, compiled from the port, not lifted): {len(self.library)}",
            f"lifted kernels the HIP host never launches (NVIDIA's library kernels): {len(self.unused)}",
        ]
        if self.missing:
            out.append(f"user kernels the lift lacks: {names(self.missing)}")
        return tuple(out)


def uses_hip_libraries(host_text: str) -> bool:
    """Whether a HIP port includes hipCUB, rocThrust or rocPRIM."""
    return (
        re.search(r"^\s*#\s*include\s*[<\"](hipcub|thrust|rocprim)/", host_text, re.MULTILINE)
        is not None
    )


def is_library_kernel(name: str) -> bool:
    return name.startswith(LIBRARY_PREFIXES)


def _run(cmd: list[str], what: str) -> str:
    run = run_tool(cmd, what, TOOL_TIMEOUT_S)
    if not run.ok:
        raise WorkError(f"{what} failed: {run.stderr.strip()[:500]}")
    return run.stdout


def _unquote(name: str) -> str:
    return name[1:-1] if name.startswith('"') else name


def bitcode_symbols(bitcode: Path) -> tuple[list[str], list[str]]:
    """The kernels and the defined global variables of a device bitcode file."""
    from cass.runner.toolchain import require_tool

    text = _run([str(require_tool("llvm-dis-16")), str(bitcode), "-o", "-"], "llvm-dis")
    kernels = [
        _unquote(m.group(2)) for m in _DEFINE.finditer(text) if "amdgpu_kernel" in m.group(1)
    ]
    variables = [
        _unquote(m.group(1)) for m in _GLOBAL.finditer(text) if not m.group(1).startswith("llvm.")
    ]
    return kernels, variables


def object_symbols(obj: Path) -> tuple[set[str], set[str]]:
    """The kernels (`.kd` descriptors) and the defined data symbols of the lifted object."""
    from cass.runner.toolchain import require_tool

    out = _run([str(require_tool("llvm-nm-16")), "--defined-only", str(obj)], "llvm-nm")
    kernels, data = set(), set()
    for line in out.splitlines():
        parts = line.split()
        if len(parts) < 3:
            continue
        kind, name = parts[-2], parts[-1]
        if name.endswith(".kd"):
            kernels.add(name[:-3])
        elif kind in "BDRVbdr" and kind.isupper():
            data.add(name)
    return kernels, data


def emulated_library_objects(refs: tuple[emulated_libraries.Reference, ...], work: Path, arch: str
                             ) -> list[str]:  # fmt: skip
    """gfx1100 objects of the kernels of cass's emulated libraries `refs` (hipFFT, hipBLAS...) the
    port calls: their host code is built with the host side, their device code joins the code object."""
    from cass.runner.emulator.build import DEFAULT_OPT_LEVEL
    from cass.runner.toolchain import AMDGPU_BACKEND_FIXES, hip_clang_command, require_tool

    fixes = [arg for option in AMDGPU_BACKEND_FIXES for arg in ("-mllvm", option)]
    device_only = ["--cuda-device-only", "--no-gpu-bundle-output", "-emit-llvm", "-c"]
    objects = []
    for k, ref in enumerate(r for r in refs if r.source.is_file()):
        bc, obj = work / f"emulated{k}.bc", work / f"emulated{k}.o"
        _run([*hip_clang_command(arch), "-D__HIP_PLATFORM_AMD__", DEFAULT_OPT_LEVEL, *ref.include_args,
              *device_only, str(ref.source), "-o", str(bc)], f"compiling {ref.library}'s kernels")  # fmt: skip
        _run([str(require_tool("clang-16")), "-target", "amdgcn-amd-amdhsa", f"-mcpu={arch}", "-nogpulib",
              DEFAULT_OPT_LEVEL, *fixes, "-c", str(bc), "-o", str(obj)], f"compiling {ref.library}'s kernels")  # fmt: skip
        objects.append(str(obj))
    return objects


def link_with_library_kernels(
    host_source: Path, assembly: Path, work: Path, arch: str
) -> tuple[Path, KernelSplit]:
    """One gfx1100 code object: the lifted kernels of `assembly` and the HIP library kernels of the
    port `host_source`'s device side."""
    from cass.runner.emulator.build import DEFAULT_OPT_LEVEL, DEVICE_LIB_OVERRIDES
    from cass.runner.toolchain import AMDGPU_BACKEND_FIXES, hip_clang_command, require_tool

    work.mkdir(parents=True, exist_ok=True)
    lifted_obj = work / "lifted.o"
    mc = [
        str(require_tool("llvm-mc-16")),
        "-triple=amdgcn-amd-amdhsa",
        f"-mcpu={arch}",
        "-filetype=obj",
    ]
    _run([*mc, "-o", str(lifted_obj), str(assembly)], "llvm-mc (lifted code)")
    lifted_kernels, lifted_data = object_symbols(lifted_obj)

    port_bc = work / "port.bc"
    device_only = ["--cuda-device-only", "--no-gpu-bundle-output", "-emit-llvm", "-c"]
    # the headers of cass's emulated libraries the port includes (roctx, rocWMMA), as the
    # program's own build finds them (emulated_libraries)
    text = host_source.read_text(encoding="utf-8", errors="replace")
    emulated_refs = emulated_libraries.needed(text)
    headers = [arg for ref in emulated_refs for arg in ref.include_args]
    _run([*hip_clang_command(arch), "-D__HIP_PLATFORM_AMD__", "-include", str(DEVICE_LIB_OVERRIDES), DEFAULT_OPT_LEVEL,
          *headers, *device_only, str(host_source), "-o", str(port_bc)], "compiling the port's device side")  # fmt: skip
    port_kernels, port_variables = bitcode_symbols(port_bc)
    library = tuple(k for k in port_kernels if is_library_kernel(k))
    user = [k for k in port_kernels if not is_library_kernel(k)]
    split = KernelSplit(
        lifted=tuple(k for k in user if k in lifted_kernels),
        library=library,
        missing=tuple(k for k in user if k not in lifted_kernels),
        unused=tuple(sorted(lifted_kernels - set(port_kernels))),
    )
    # The user's kernels and variables come from the lift only: removed from the port's side (a
    # variable becomes a declaration, so a library kernel reading it uses the lifted definition).
    removed = [f"--func={k}" for k in user] + [
        f"--glob={v}" for v in port_variables if v in lifted_data
    ]
    library_bc = work / "library.bc"
    if removed:
        _run([str(require_tool("llvm-extract-16")), "--delete", *removed, str(port_bc), "-o", str(library_bc)],
             "removing the user's kernels from the port's device side")  # fmt: skip
    else:
        library_bc = port_bc
    library_obj = work / "library.o"
    fixes = [arg for option in AMDGPU_BACKEND_FIXES for arg in ("-mllvm", option)]
    _run([str(require_tool("clang-16")), "-target", "amdgcn-amd-amdhsa", f"-mcpu={arch}", "-nogpulib", DEFAULT_OPT_LEVEL,
          *fixes, "-c", str(library_bc), "-o", str(library_obj)], "compiling the HIP library's kernels")  # fmt: skip
    emulated = emulated_library_objects(emulated_refs, work, arch)
    code_object = work / "mixed.hsaco"
    _run([str(require_tool("ld.lld-16")), "-shared", "-o", str(code_object), str(lifted_obj), str(library_obj),
          *emulated], "linking the lifted and the library kernels")  # fmt: skip
    return code_object, split
