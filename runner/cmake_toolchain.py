"""A CMake toolchain file that builds HIP projects (`project(... LANGUAGES HIP)`, `find_package(hip)`,
`hip::host`) for an AMD GPU arch with clang-16 and the machine's ROCm: what a ported CMake project
needs to configure and build here.

CMake's HIP support looks for ROCm's CMake packages under `<ROCm root>/lib/cmake/hip-lang`; Debian
installs them under `/usr/lib/<multiarch>/cmake`, so the toolchain points CMake at a ROCm-root view
(links to that folder and to `/usr/include`). It passes the flags cass compiles HIP with (device
libraries built for the arch, the LLVM 16 backend fixes, rocPRIM/hipCUB/rocThrust and the library
headers `cass setup` installed), and declares `/usr/include` implicit so that hip-lang's
`-isystem /usr/include` does not hide the C library from `<cmath>`. Where ROCm lives in
`/opt/rocm`, that is the root and no view is made.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

from cass.runner.cache import cache_dir
from cass.runner.diagnostics import CassError
from cass.runner.outputs import staged_dir, write_atomic
from cass.runner.toolchain import DEFAULT_GFX_ARCH, hip_clang_command, require_tool

HIP_LANG = Path("lib") / "cmake" / "hip-lang" / "hip-lang-config.cmake"
ROCM_ROOTS = (Path("/opt/rocm"),)
MULTIARCH_CMAKE = "/usr/lib/*/cmake/hip-lang/hip-lang-config.cmake"


def rocm_root() -> Path:
    """A folder CMake accepts as the ROCm root: /opt/rocm, or a view of Debian's layout."""
    for root in ROCM_ROOTS:
        if (root / HIP_LANG).is_file():
            return root
    found = sorted(Path("/").glob(MULTIARCH_CMAKE.lstrip("/")))
    if not found:
        raise CassError(
            "no ROCm CMake package (hip-lang) found: install libamdhip64-dev (`cass setup`)"
        )
    packages = found[0].parent.parent
    links = {Path("lib") / "cmake": packages, Path("include"): Path("/usr/include")}
    view = cache_dir() / f"rocm-root-{hashlib.sha256(str(links).encode()).hexdigest()[:12]}"
    if not view.is_dir():
        with staged_dir(view, replace=False) as staging:
            for link, target in links.items():
                (staging / link).parent.mkdir(parents=True, exist_ok=True)
                (staging / link).symlink_to(target)
    return view


def toolchain_text(arch: str = DEFAULT_GFX_ARCH) -> str:
    compiler, *argv = hip_clang_command(arch)
    flags = [a for a in argv if a not in ("-x", "hip") and not a.startswith("--offload-arch=")]
    root = rocm_root()
    quoted = " ".join(flags).replace("\\", "\\\\").replace('"', '\\"')
    return (
        f"# Written by `cass cmake-toolchain --arch {arch}`: HIP projects for {arch} with clang-16.\n"
        f"set(CMAKE_CXX_COMPILER {require_tool('clang++-16')})\n"
        f"set(CMAKE_HIP_COMPILER {compiler})\n"
        f"set(CMAKE_HIP_COMPILER_ROCM_ROOT {root})\n"
        f"set(CMAKE_HIP_ARCHITECTURES {arch})\n"
        f'set(GPU_TARGETS {arch} CACHE STRING "AMD GPU targets")\n'
        f'set(CMAKE_HIP_FLAGS_INIT "{quoted}")\n'
        "set(CMAKE_HIP_IMPLICIT_INCLUDE_DIRECTORIES /usr/include)\n"
        f"list(APPEND CMAKE_PREFIX_PATH {root})\n"
    )


def cmake_toolchain(arch: str = DEFAULT_GFX_ARCH) -> Path:
    """The toolchain file for `arch` (written into cass's cache, named by its content)."""
    text = toolchain_text(arch)
    digest = hashlib.sha256(text.encode()).hexdigest()[:12]
    path = cache_dir() / "cmake" / f"hip-{arch}-{digest}.cmake"
    if not path.is_file():
        write_atomic(path, text)
    return path
