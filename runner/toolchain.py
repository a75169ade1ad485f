"""Toolchain discovery: every compiler and inspector cass drives, found with its version.

`find_tool(name)` returns a `Tool` (path + version) or a `MissingTool` carrying the command that
installs it; it never raises. `require_tool(name)` is the raising form for code that cannot go on
without the tool. The AMD side needs a device-library directory that Debian does not ship as is
(no gfx11 ISA-version bitcode): `hip_device_lib_dir()` builds it once in the cache directory.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import site
import subprocess
import sysconfig
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cass.runner import rocm_libs
from cass.runner.cache import cache_dir
from cass.runner.diagnostics import CassError

# The default AMD target: RDNA3, the architecture the cass emulator executes and the lifter emits.
DEFAULT_GFX_ARCH = "gfx1100"
VERSION_TIMEOUT_S = 20
APT = "apt-get install -y"
PIP = "python -m pip install"


@dataclass(frozen=True)
class ToolSpec:
    """How to find one tool: executable names to try, extra folders, and the fix when absent."""

    names: tuple[str, ...]
    fix: str
    dirs: tuple[str, ...] = ()
    wheel_bin: bool = False  # also look in site-packages/nvidia/cu13/bin and cu12/bin
    version_args: tuple[str, ...] = ("--version",)


CUDA_DIRS = ("/usr/local/cuda/bin",)

TOOL_SPECS: dict[str, ToolSpec] = {
    "clang++-16": ToolSpec(("clang++-16",), f"{APT} clang-16"),
    "clang-16": ToolSpec(("clang-16",), f"{APT} clang-16"),
    "llc-16": ToolSpec(("llc-16",), f"{APT} llvm-16"),
    "opt-16": ToolSpec(("opt-16",), f"{APT} llvm-16"),
    "llvm-mc-16": ToolSpec(("llvm-mc-16",), f"{APT} llvm-16"),
    "ld.lld-16": ToolSpec(("ld.lld-16",), f"{APT} lld-16"),
    "llvm-objdump-16": ToolSpec(("llvm-objdump-16",), f"{APT} llvm-16"),
    "llvm-readelf-16": ToolSpec(("llvm-readelf-16",), f"{APT} llvm-16"),
    "llvm-as-16": ToolSpec(("llvm-as-16",), f"{APT} llvm-16"),
    "llvm-dis-16": ToolSpec(("llvm-dis-16",), f"{APT} llvm-16"),
    "llvm-link-16": ToolSpec(("llvm-link-16",), f"{APT} llvm-16"),
    "llvm-extract-16": ToolSpec(("llvm-extract-16",), f"{APT} llvm-16"),
    "llvm-nm-16": ToolSpec(("llvm-nm-16",), f"{APT} llvm-16"),
    "llvm-cxxfilt-16": ToolSpec(("llvm-cxxfilt-16",), f"{APT} llvm-16"),
    "clang-offload-bundler": ToolSpec(
        ("clang-offload-bundler-16", "clang-offload-bundler"), f"{APT} clang-tools-16"
    ),
    "nvcc": ToolSpec(("nvcc",), f"{PIP} nvidia-cuda-nvcc", CUDA_DIRS, wheel_bin=True),
    "ptxas": ToolSpec(("ptxas",), f"{PIP} nvidia-cuda-nvcc", CUDA_DIRS, wheel_bin=True),
    "cuobjdump": ToolSpec(("cuobjdump",), f"{PIP} nvidia-cuda-cuobjdump", CUDA_DIRS, True),
    "nvdisasm": ToolSpec(("nvdisasm",), f"{PIP} nvidia-cuda-nvdisasm", CUDA_DIRS, True),
    "nvidia-smi": ToolSpec(
        ("nvidia-smi",), "install the NVIDIA driver (only on a machine with an NVIDIA GPU)"
    ),
    "rocminfo": ToolSpec(("rocminfo",), f"{APT} rocminfo", ("/opt/rocm/bin",), version_args=()),
    "hipcc": ToolSpec(("hipcc",), f"{APT} hipcc", ("/opt/rocm/bin",)),
    "hipify-perl": ToolSpec(
        ("hipify-perl",),
        "install ROCm's HIPIFY (not packaged in Debian 12; optional)",
        ("/opt/rocm/bin",),
    ),
}
# clang-offload-bundler is also asked for under its versioned name.
TOOL_ALIASES = {"clang-offload-bundler-16": "clang-offload-bundler"}

# The tools without which `cass compile` cannot work on both stacks (doctor's exit status).
CORE_TOOLS = (
    "clang++-16",
    "llvm-mc-16",
    "ld.lld-16",
    "llvm-objdump-16",
    "llvm-readelf-16",
    "llvm-as-16",
    "clang-offload-bundler",
    "nvcc",
    "ptxas",
    "cuobjdump",
    "nvdisasm",
)


@dataclass(frozen=True)
class Tool:
    name: str
    path: Path
    version: str

    found = True


@dataclass(frozen=True)
class MissingTool:
    name: str
    fix: str

    found = False


@dataclass(frozen=True)
class Gpu:
    """One GPU of this machine: `arch` is `sm_90`-style (NVIDIA) or `gfx1100`-style (AMD)."""

    vendor: str  # "nvidia" | "amd"
    name: str
    arch: str
    driver: str = ""


# ---------------------------------------------------------------- discovery


def wheel_bin_dirs() -> list[Path]:
    """`nvidia/cu13/bin` and `nvidia/cu12/bin` in every site-packages this Python sees."""
    roots = {sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]}
    roots.update(site.getsitepackages())
    found = []
    for root in sorted(roots):
        for cuda in ("cu13", "cu12"):
            folder = Path(root) / "nvidia" / cuda / "bin"
            if folder.is_dir():
                found.append(folder)
    return found


def _locate(spec: ToolSpec) -> Path | None:
    for exe in spec.names:
        hit = shutil.which(exe)
        if hit:
            return Path(hit)
    extra = [Path(d) for d in spec.dirs] + (wheel_bin_dirs() if spec.wheel_bin else [])
    for folder in extra:
        for exe in spec.names:
            candidate = folder / exe
            if candidate.is_file() and os.access(candidate, os.X_OK):
                return candidate
    return None


_VERSION_RE = re.compile(r"(?:release |version |V|\b)(\d+\.\d+(?:\.\d+)*)")


def parse_version(text: str) -> str:
    """The first dotted version number in a tool's `--version` output ('' when none)."""
    match = _VERSION_RE.search(text)
    return match.group(1) if match else ""


def _version_of(path: Path, spec: ToolSpec) -> str:
    if not spec.version_args:
        return ""
    try:
        proc = subprocess.run(
            [str(path), *spec.version_args],
            capture_output=True,
            text=True,
            timeout=VERSION_TIMEOUT_S,
            errors="replace",
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    output = proc.stdout + proc.stderr
    # nvcc/ptxas print "release 13.0, V13.0.88": prefer the full V-number.
    full = re.search(r"\bV(\d+\.\d+\.\d+)", output)
    return full.group(1) if full else parse_version(output)


@functools.cache
def find_tool(name: str) -> Tool | MissingTool:
    """Find a tool by its cass name (see TOOL_SPECS); never raises for a missing tool."""
    name = TOOL_ALIASES.get(name, name)
    spec = TOOL_SPECS.get(name)
    if spec is None:
        known = ", ".join(TOOL_SPECS)
        raise CassError(f"unknown tool '{name}' (known tools: {known})")
    path = _locate(spec)
    if path is None:
        return MissingTool(name, spec.fix)
    return Tool(name, path, _version_of(path, spec))


def require_tool(name: str) -> Path:
    """The tool's path, or a CassError naming the command that installs it."""
    tool = find_tool(name)
    if isinstance(tool, MissingTool):
        raise CassError(f"{tool.name} is not installed: run `{tool.fix}` (or `cass setup`)")
    return tool.path


def has_tool(name: str) -> bool:
    """Whether cass's own discovery finds the tool (where `cass setup` installs it included)."""
    return not isinstance(find_tool(name), MissingTool)


def all_tools() -> list[Tool | MissingTool]:
    return [find_tool(name) for name in TOOL_SPECS]


def forget_tools() -> None:
    """Drop cached discovery results (after `cass setup` installed something)."""
    find_tool.cache_clear()


# ---------------------------------------------------------------- AMD device libraries

BITCODE_DIRS = (
    "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode",
    "/usr/lib/amdgcn/bitcode",
    "/opt/rocm/amdgcn/bitcode",
)
# AMDGPU processors LLVM 16 generates code for (`llc-16 -march=amdgcn -mcpu=help`).
LLVM16_GFX_ARCHS = frozenset(
    "gfx600 gfx601 gfx602 gfx700 gfx701 gfx702 gfx703 gfx704 gfx705 gfx801 gfx802 gfx803 gfx805 "
    "gfx810 gfx900 gfx902 gfx904 gfx906 gfx908 gfx909 gfx90a gfx90c gfx940 gfx1010 gfx1011 "
    "gfx1012 gfx1013 gfx1030 gfx1031 gfx1032 gfx1033 gfx1034 gfx1035 gfx1036 gfx1100 gfx1101 "
    "gfx1102 gfx1103".split()
)
_GFX_RE = re.compile(r"^gfx(\d{1,2})([0-9a-f])([0-9a-f])$")
ISA_LL = """; generated by cass: the ISA version the ROCm device libraries branch on
target datalayout = "{layout}"
target triple = "amdgcn-amd-amdhsa"
@__oclc_ISA_version = linkonce_odr protected local_unnamed_addr addrspace(4) constant i32 {value}
"""
AMDGCN_DATALAYOUT = (
    "e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-i64:64-v16:16-v24:32-"
    "v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7"
)


DEVICE_LIB_RECIPE = 2  # bump when the folder's contents change, so old caches are not reused


def debian_bitcode_dir() -> Path:
    for folder in BITCODE_DIRS:
        if (Path(folder) / "ocml.bc").is_file():
            return Path(folder)
    raise CassError(
        "the ROCm device libraries (ocml.bc, ockl.bc, ...) are not installed: "
        f"run `{APT} rocm-device-libs` (or `cass setup`)"
    )


def isa_version_value(arch: str) -> int:
    """`gfx1100` -> 11000, `gfx1031` -> 10301, `gfx90a` -> 9010: major*1000 + minor*100 + stepping,
    the encoding of Debian's own oclc_isa_version_*.bc files."""
    match = _GFX_RE.match(arch)
    if match is None:
        raise CassError(f"'{arch}' is not an AMD GPU arch name (expected e.g. gfx1100)")
    major, minor, stepping = match.groups()
    return int(major) * 1000 + int(minor, 16) * 100 + int(stepping, 16)


def check_gfx_arch(arch: str) -> None:
    """CassError unless clang-16 and the device libraries can target `arch`."""
    isa_version_value(arch)  # validates the shape
    if arch not in LLVM16_GFX_ARCHS:
        gfx11 = ", ".join(sorted(a for a in LLVM16_GFX_ARCHS if a.startswith("gfx11")))
        raise CassError(
            f"{arch} is not supported by clang-16 / LLVM 16 (its newest targets: {gfx11}, "
            "gfx90a, gfx940); use one of those with --offload-arch"
        )


def _bitcode_fingerprint(source: Path) -> str:
    import hashlib

    digest = hashlib.sha256(f"{DEVICE_LIB_RECIPE}:{source}".encode())
    for bc in sorted(source.glob("*.bc")):
        stat = bc.stat()
        digest.update(f"{bc.name}:{stat.st_size}:{int(stat.st_mtime)}".encode())
    return digest.hexdigest()[:12]


def _populate_device_lib_dir(folder: Path, source: Path, arch: str) -> None:
    for bc in source.glob("*.bc"):
        (folder / bc.name).symlink_to(bc)
    isa_bc = folder / f"oclc_isa_version_{arch[3:]}.bc"
    if isa_bc.exists():
        return
    ll = folder / "isa_version.ll"
    ll.write_text(ISA_LL.format(layout=AMDGCN_DATALAYOUT, value=isa_version_value(arch)))
    llvm_as = require_tool("llvm-as-16")
    proc = subprocess.run(
        [str(llvm_as), str(ll), "-o", str(isa_bc)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    if proc.returncode != 0:
        raise CassError(
            f"llvm-as-16 could not build {isa_bc.name}: {proc.stderr.strip()}", exit_code=1
        )


def hip_device_lib_dir(arch: str = DEFAULT_GFX_ARCH) -> Path:
    """The `--rocm-device-lib-path` folder for `arch`, built once in the cache directory.

    Links to Debian's bitcode plus a generated `oclc_isa_version_NNNN.bc` where Debian has none.
    Concurrency-safe: built in a temporary folder next to the target, then renamed into place.
    """
    check_gfx_arch(arch)
    source = debian_bitcode_dir()
    target = cache_dir() / "device-libs" / f"{arch}-{_bitcode_fingerprint(source)}"
    if (target / "ocml.bc").exists():
        return target
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{arch}-", dir=target.parent))
    try:
        _populate_device_lib_dir(staging, source, arch)
        os.rename(staging, target)
    except OSError:
        if not (target / "ocml.bc").exists():  # not a lost race: a real failure
            raise
    finally:
        if staging.exists():
            shutil.rmtree(staging, ignore_errors=True)
    return target


# LLVM 16 AMDGPU backend options (llc spelling) without which gfx11 code is wrong, on a GPU and on
# the emulator alike: SIOptimizeExecMaskingPreRA folds `v_cndmask 0,1,%cc; v_cmp_ne 1` into
# `s_and_not1 vcc, exec, %cc` even where %cc is redefined inside a loop before the use (the machine
# verifier reports "Register not marked live out of predecessor"): a Newton loop around an inner
# loop then skips the inner loop from its second trip on (numerical_methods/gauss_legendre_newton).
# Every HIP build passes them (after -mllvm) and so does the lifter's llc.
AMDGPU_BACKEND_FIXES = ("-amdgpu-opt-exec-mask-pre-ra=false",)


def hip_clang_command(offload_arch: str = DEFAULT_GFX_ARCH) -> list[str]:
    """The clang++-16 argv prefix that compiles HIP for `offload_arch` with Debian's ROCm 5.2.

    rocPRIM, hipCUB and rocThrust, where `cass setup --rocm-libs` installed them, come first on
    the include path (`-isystem`, searched before the system folders): Debian's own rocPRIM in
    /usr/include does not compile for gfx1100 with clang-16.
    """
    return [
        str(require_tool("clang++-16")),
        "-x",
        "hip",
        f"--offload-arch={offload_arch}",
        "--rocm-path=/usr",
        f"--rocm-device-lib-path={hip_device_lib_dir(offload_arch)}",
        # Steps that never link device code (-E, -fsyntax-only) would warn about the lib path.
        "-Wno-unused-command-line-argument",
        *(arg for option in AMDGPU_BACKEND_FIXES for arg in ("-mllvm", option)),
        *rocm_libs.include_args(),
    ]


def nvcc_command() -> list[str]:
    """The nvcc argv prefix (nvcc found in PATH, /usr/local/cuda/bin or the PyPI wheel)."""
    return [str(require_tool("nvcc"))]


# ---------------------------------------------------------------- GPUs


def _run_quiet(argv: list[str], timeout: float = 20) -> str:
    try:
        proc = subprocess.run(
            argv, capture_output=True, text=True, timeout=timeout, errors="replace"
        )
    except (OSError, subprocess.TimeoutExpired):
        return ""
    return proc.stdout if proc.returncode == 0 else ""


def parse_nvidia_smi(csv_text: str) -> list[Gpu]:
    """Rows of `nvidia-smi --query-gpu=name,compute_cap,driver_version --format=csv,noheader`."""
    gpus = []
    for row in csv_text.strip().splitlines():
        parts = [p.strip() for p in row.split(",")]
        if len(parts) == 3 and re.fullmatch(r"\d+\.\d+", parts[1]):
            gpus.append(Gpu("nvidia", parts[0], "sm_" + parts[1].replace(".", ""), parts[2]))
    return gpus


def parse_rocminfo(text: str) -> list[Gpu]:
    """GPU agents in `rocminfo` output (their `Name: gfxNNNN` lines), with marketing names."""
    gpus = []
    for block in text.split("*******"):
        arch = re.search(r"^\s*Name:\s+(gfx[0-9a-f]+)\s*$", block, re.M)
        if arch:
            market = re.search(r"^\s*Marketing Name:\s+(.+?)\s*$", block, re.M)
            gpus.append(Gpu("amd", market.group(1) if market else arch.group(1), arch.group(1)))
    return gpus


def gfx_from_target_version(value: int) -> str:
    """KFD topology `gfx_target_version` (e.g. 110000, 90010) -> `gfx1100`, `gfx90a`."""
    major, minor, stepping = value // 10000, (value // 100) % 100, value % 100
    return f"gfx{major}{minor:x}{stepping:x}"


def _kfd_gpus() -> list[Gpu]:
    nodes = Path("/sys/class/kfd/kfd/topology/nodes")
    if not Path("/dev/kfd").exists() or not nodes.is_dir():
        return []
    gpus = []
    for props in sorted(nodes.glob("*/properties")):
        match = re.search(r"^gfx_target_version (\d+)$", props.read_text(), re.M)
        if match and int(match.group(1)) > 0:
            arch = gfx_from_target_version(int(match.group(1)))
            gpus.append(Gpu("amd", arch, arch))
    return gpus


@functools.cache
def detect_gpus() -> list[Gpu]:
    """NVIDIA GPUs (nvidia-smi) and AMD GPUs (rocminfo, else the /dev/kfd topology)."""
    gpus: list[Gpu] = []
    smi = find_tool("nvidia-smi")
    if isinstance(smi, Tool):
        query = "--query-gpu=name,compute_cap,driver_version"
        gpus += parse_nvidia_smi(_run_quiet([str(smi.path), query, "--format=csv,noheader"]))
    rocminfo = find_tool("rocminfo")
    amd = parse_rocminfo(_run_quiet([str(rocminfo.path)])) if isinstance(rocminfo, Tool) else []
    return gpus + (amd or _kfd_gpus())


def default_cuda_arch() -> str:
    """The local NVIDIA GPU's arch, else sm_80 (the arch of the published CASS assembly models)."""
    nvidia = [g for g in detect_gpus() if g.vendor == "nvidia"]
    return nvidia[0].arch if nvidia else "sm_80"
