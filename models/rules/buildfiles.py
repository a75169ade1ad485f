"""Build files of a ported project: Makefiles and CMake files, ported to build HIP for AMD.

Makefiles: `nvcc` (a word, a path ending in `/nvcc`, or a variable set to one) becomes
`$(HIPCC)`, clang-16 compiling HIP for `$(HIP_ARCH)` (gfx1100 by default; `make HIPCC=hipcc`
works too), or `$(HIP_LD)` on lines that only link objects (`-x hip` would read an object as
source). nvcc's flags get their clang spellings (`-Xcompiler a,b` -> `a b`, `-fmad=false` ->
`-ffp-contract=off`, `--use_fast_math` -> flush-to-zero and approximate division/sqrt, with
contraction left at HIP's default, which honours the no-contraction helpers), architecture flags go (`HIPCC` names the target), CUDA libraries become their HIP
ones (`-lcudart` -> `-lamdhip64`), and host compilers (`gcc`, `g++`) get `-D__HIP_PLATFORM_AMD__`
so host files that call the HIP runtime compile. CMake: the CUDA language, architectures, flags,
`find_package(CUDAToolkit)` and `CUDA::` targets become HIP's, and `.cu` sources are compiled as
HIP. What has no equivalent is a located CASS079 warning.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from cass.models.engine import Target
from cass.runner.diagnostics import Diagnostic, Severity

_NVCC = r"(?:\$[({]\w+[)}])?(?:[\w./-]*/)?nvcc(?![\w.-])"
# (pattern, replacement) applied to every non-comment line of a Makefile, in order.
_FLAG_RULES: tuple[tuple[str, str], ...] = (
    (r"(?:-Xcompiler|--compiler-options)[= ]\s*\"([^\"]*)\"", r"\1"),
    (r"(?:-Xcompiler|--compiler-options)[= ]\s*'([^']*)'", r"\1"),
    (r"(?:-Xcompiler|--compiler-options)[= ]\s*(\S+)", r"\1"),
    (r"(?:--gpu-architecture|-arch)[= ]\s*(?:sm|compute)_\w+", ""),
    (r"(?:-gencode|--generate-code)[= ]\s*\S+", ""),
    (r"(?:-code|--gpu-code)[= ]\s*(?:sm|compute)_[\w,]+", ""),
    (r"(?:-Xptxas|--ptxas-options|-Xnvlink|--maxrregcount|-ccbin|--compiler-bindir)[= ]\s*\S+", ""),
    (r"-maxrregcount[= ]?\d+", ""),
    (
        r"--?(?:lineinfo|deviceemu|keep|Wno-deprecated-gpu-targets|expt-relaxed-constexpr)(?![\w=-])",
        "",
    ),
    (r"--?(?:extended-lambda|expt-extended-lambda)(?![\w-])", ""),
    (r"--?cudart[= ]\s*(?:static|shared|none)", ""),
    # contraction stays fast-honor-pragmas (HIP's default): plain -ffp-contract=fast would ignore
    # the pragma that keeps __fadd_rn & co. uncontracted, which fast math in CUDA never fuses
    (
        r"--?use_fast_math(?![\w-])",
        "-fgpu-flush-denormals-to-zero -fno-hip-fp32-correctly-rounded-divide-sqrt -fapprox-func",
    ),
    (r"--?fmad[= ](?:false|0)", "-ffp-contract=off"),
    (r"--?fmad[= ](?:true|1)", "-ffp-contract=fast-honor-pragmas"),
    (r"--?ftz[= ](?:true|1)", "-fgpu-flush-denormals-to-zero"),
    (r"--?ftz[= ](?:false|0)", "-fno-gpu-flush-denormals-to-zero"),
    (r"--?prec-(?:div|sqrt)[= ](?:false|0)", "-fno-hip-fp32-correctly-rounded-divide-sqrt"),
    (r"--?prec-(?:div|sqrt)[= ](?:true|1)", ""),
    (r"(?:-rdc|--relocatable-device-code)[= ](?:true|1)", "-fgpu-rdc"),
    (r"(?:-rdc|--relocatable-device-code)[= ](?:false|0)", ""),
    (r"-dc(?![\w-])", "-fgpu-rdc -c"),
    (r"-lcudart(?:_static)?(?![\w-])", "-lamdhip64"),
    (r"-lcuda(?![\w-])", "-lamdhip64"),
    (r"-lcublas(?:Lt)?(?:_static)?(?![\w-])", "-lhipblas"),
    (r"-lcufft(?:_static)?(?![\w-])", "-lhipfft"),
    (r"-lcurand(?:_static)?(?![\w-])", "-lhiprand"),
    (r"-lcusparse(?:_static)?(?![\w-])", "-lhipsparse"),
    (r"-lcusolver(?:_static)?(?![\w-])", "-lhipsolver"),
    (r"-lnccl(?![\w-])", "-lrccl"),
    (r"-lnvToolsExt(?![\w-])", "-lroctx64"),
)
_COMPILED_RULES = tuple((re.compile(rf"(?<![\w-]){p}"), r) for p, r in _FLAG_RULES)
# nvcc options with no clang counterpart: reported where they appear
_UNMAPPED = re.compile(
    r"(?<![\w-])(-dlink|--device-link|-lcudadevrt|-lnppi\w*|-lnvjpeg|-lcudnn)(?![\w-])"
)
_HOST_COMPILER = re.compile(
    r"(?<![\w/.$(-])((?:[\w./-]*/)?(?:gcc|g\+\+|icc|icpc)(?:-\d+)?)(?![\w.+-])"
)
_ASSIGN = re.compile(r"^\s*(?:export\s+|override\s+)?([A-Za-z_][\w.]*)\s*(?:[:+?!]|::)?=\s*(.*)$")
_LINK_ONLY_INPUT = re.compile(r"\S+\.(?:o|a|so)\b")
_SOURCE = re.compile(r"\S+\.(?:cu|hip|c|cc|cpp|cxx)\b")


@dataclass
class PortedBuildFile:
    relative: str
    text: str
    original: str
    diagnostics: list[Diagnostic] = field(default_factory=list)

    @property
    def changed(self) -> bool:
        return self.text != self.original


def header(target: Target) -> str:
    from cass.runner.toolchain import hip_device_lib_dir

    try:
        libs = f" --rocm-device-lib-path={hip_device_lib_dir(target.gfx_arch)}"
    except Exception:  # no cached device libraries here: a ROCm install's own are used
        libs = ""
    return (
        "# Ported to HIP by cass: nvcc became $(HIPCC) (clang-16 compiling HIP for $(HIP_ARCH)),\n"
        "# link-only lines $(HIP_LD). Override them: make HIPCC='hipcc' HIP_LD='hipcc'.\n"
        f"HIP_ARCH ?= {target.gfx_arch}\n"
        "HIP_LIBS ?= -lamdhip64\n"
        "HIPCC ?= clang++-16 -x hip --offload-arch=$(HIP_ARCH) --rocm-path=/usr"
        f"{libs} -Wno-unused-command-line-argument $(HIP_LIBS)\n"
        "HIP_LD ?= clang++-16 $(HIP_LIBS)\n"
        "HIP_PLATFORM_FLAGS ?= -D__HIP_PLATFORM_AMD__\n\n"
    )


def _logical_lines(text: str) -> list[list[str]]:
    """Physical lines (with their endings) grouped into backslash-continued logical lines."""
    groups, current = [], []
    for line in text.splitlines(keepends=True):
        current.append(line)
        if not line.rstrip("\r\n").endswith("\\"):
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


def _is_link_only(logical: str) -> bool:
    words = logical.split()
    return (
        "-c" not in words and not _SOURCE.search(logical) and bool(_LINK_ONLY_INPUT.search(logical))
    )


def _nvcc_pattern(nvcc_vars: set[str]) -> re.Pattern:
    names = "|".join(re.escape(v) for v in sorted(nvcc_vars))
    variable = rf"|\$[({{](?:{names})[)}}]" if names else ""
    return re.compile(rf"(?<![\w$(-])(?:{_NVCC}{variable})")


def port_makefile(text: str, relative: str, target: Target) -> PortedBuildFile:
    result = PortedBuildFile(relative, text, text)
    nvcc_vars = {
        m.group(1)
        for line in text.splitlines()
        if (m := _ASSIGN.match(line)) and re.search(_NVCC, m.group(2))
    }
    nvcc = _nvcc_pattern(nvcc_vars)
    out, line_no, changed = [], 0, False
    for group in _logical_lines(text):
        logical = "".join(group)
        link_only = _is_link_only(logical)
        for line in group:
            line_no += 1
            if line.lstrip().startswith("#"):
                out.append(line)
                continue
            new = nvcc.sub("$(HIP_LD)" if link_only and line.startswith("\t") else "$(HIPCC)", line)
            for pattern, replacement in _COMPILED_RULES:
                new = pattern.sub(replacement, new)
            new = _HOST_COMPILER.sub(r"\1 $(HIP_PLATFORM_FLAGS)", new)
            new = re.sub(r"(-lamdhip64)(\s+-lamdhip64)+(?![\w-])", r"\1", new)
            for m in _UNMAPPED.finditer(new):
                result.diagnostics.append(_located(relative, line_no, m.start() + 1, m.group(1)))
            changed |= new != line
            out.append(new)
    if changed:
        result.text = header(target) + "".join(out)
    return result


def _located(relative: str, line: int, column: int, flag: str) -> Diagnostic:
    return Diagnostic(
        relative,
        line,
        column,
        Severity.WARNING,
        "CASS079",
        f"`{flag}` has no HIP build counterpart cass can write: separate device linking, the "
        "CUDA device runtime and NVIDIA-only libraries (NPP, nvJPEG, cuDNN) need a person",
    )


# ---------------------------------------------------------------- CMake

_CMAKE_RULES: tuple[tuple[str, str], ...] = (
    (r"\bLANGUAGES\b([^)]*?)\bCUDA\b", r"LANGUAGES\1HIP"),
    (r"\benable_language\s*\(\s*CUDA\s*\)", "enable_language(HIP)"),
    (r"\bCMAKE_CUDA_ARCHITECTURES\b\s+[\w;\"-]+", "CMAKE_HIP_ARCHITECTURES {arch}"),
    (r"\bCUDA_ARCHITECTURES\b\s+[\w;\"-]+", "HIP_ARCHITECTURES {arch}"),
    (
        r"\bCMAKE_CUDA_(FLAGS\w*|STANDARD\w*|EXTENSIONS|COMPILER\w*|SEPARABLE_COMPILATION)\b",
        r"CMAKE_HIP_\1",
    ),
    (r"\bCUDA_SEPARABLE_COMPILATION\b", "HIP_SEPARABLE_COMPILATION"),
    (r"\bfind_package\s*\(\s*CUDAToolkit\b[^)]*\)", "find_package(hip REQUIRED)"),
    (r"\bfind_package\s*\(\s*CUDA\b[^)]*\)", "find_package(hip REQUIRED)"),
    (r"\bCUDA::(?:cudart|cuda_driver|cudart_static)\b", "hip::host"),
    (r"\bCUDA::cublas(?:Lt)?\b", "roc::hipblas"),
    (r"\bCUDA::cufft\b", "hip::hipfft"),
    (r"\bCUDA::curand\b", "hip::hiprand"),
    (r"\bCUDA::cusparse\b", "roc::hipsparse"),
    (r"\bCUDA::cusolver\b", "roc::hipsolver"),
)
CMAKE_FOOTER = (
    "\n# cass: compile the CUDA sources (.cu) as HIP\n"
    "file(GLOB_RECURSE CASS_CUDA_SOURCES CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/*.cu)\n"
    "set_source_files_properties(${CASS_CUDA_SOURCES} PROPERTIES LANGUAGE HIP)\n"
)


def port_cmake(text: str, relative: str, target: Target) -> PortedBuildFile:
    result = PortedBuildFile(relative, text, text)
    new = text
    for pattern, replacement in _CMAKE_RULES:
        new = re.sub(pattern, replacement.replace("{arch}", target.gfx_arch), new)
    for m in re.finditer(r"\bCUDA::\w+|\bcuda_add_\w+|\bCUDA_NVCC_FLAGS\b", new):
        line = new.count("\n", 0, m.start()) + 1
        column = m.start() - new.rfind("\n", 0, m.start())
        result.diagnostics.append(_located(relative, line, column, m.group()))
    if new != text:
        uses_hip = re.search(r"\b(LANGUAGES[^)]*HIP|enable_language\(HIP\))", new)
        result.text = new + (CMAKE_FOOTER if uses_hip and CMAKE_FOOTER not in new else "")
    return result


def port_build_file(path: Path, relative: str, target: Target) -> PortedBuildFile:
    text = path.read_text(encoding="utf-8", errors="surrogateescape")
    if path.name == "CMakeLists.txt" or path.suffix == ".cmake":
        return port_cmake(text, relative, target)
    return port_makefile(text, relative, target)
