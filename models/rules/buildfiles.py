"""Build files of a ported project: Makefiles and CMake files, ported to build HIP for AMD.

Makefiles: `nvcc` (a word, a path ending in `/nvcc`, or a variable set to one) becomes
`$(HIPCC)`, clang-16 compiling HIP for `$(HIP_ARCH)` (gfx1100 by default; `make HIPCC=hipcc`
works too), or `$(HIP_LD)` on lines that only link objects (`-x hip` would read an object as
source). nvcc's flags get their clang spellings (`-Xcompiler a,b` -> `a b`, `-fmad=false` ->
`-ffp-contract=off`, `--use_fast_math` -> flush-to-zero and approximate division/sqrt, with
contraction left at HIP's default, which honours the no-contraction helpers), architecture flags go (`HIPCC` names the target), CUDA libraries become their HIP
ones (`-lcudart` -> `-lamdhip64`), and host compilers (`gcc`, `g++`) get `-D__HIP_PLATFORM_AMD__`
so host files that call the HIP runtime compile (make's built-in rules through CPPFLAGS). On a
line that compiles and links at once, `-x none` goes before object inputs (literal, or variables
and `$?`/`$^`/`$<` that resolve to objects) and `-x hip` before sources after them. CUDA install
directories (`-I`/`-L`/rpaths naming /usr/local/cuda* or a CUDA path variable) are dropped, an
`include` of a file outside the project becomes `-include`, nvcc's `-G` and `-cuda` go. CMake: the CUDA language, architectures, flags,
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
    (r"(?:-G|--device-debug)(?![\w=-])", ""),  # clang's -G takes a value (MIPS small data)
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
    (r"-lcudnn(?:_static)?(?![\w-])", "-lMIOpen"),  # calls ported by passes/cudnn_calls.py
    (r"-lnvToolsExt(?![\w-])", "-lroctx64"),
)
_COMPILED_RULES = tuple((re.compile(rf"(?<![\w-]){p}"), r) for p, r in _FLAG_RULES)
# nvcc options with no clang counterpart: reported where they appear
_UNMAPPED = re.compile(r"(?<![\w-])(-dlink|--device-link|-lcudadevrt|-lnppi\w*|-lnvjpeg)(?![\w-])")
_HOST_COMPILER = re.compile(
    r"(?<![\w/.$(-])((?:[\w./-]*/)?(?:gcc|g\+\+|icc|icpc)(?:-\d+)?)(?![\w.+-])"
)
_ASSIGN = re.compile(r"^\s*(?:export\s+|override\s+)?([A-Za-z_][\w.]*)\s*(?:[:+?!]|::)?=\s*(.*)$")
_LINK_ONLY_INPUT = re.compile(r"\S+\.(?:o|a|so)\b")
_SOURCE = re.compile(r"\S+\.(?:cu|hip|c|cc|cpp|cxx)\b")
# nvcc-only flags with nothing to do in a HIP build: dropped, with a located CASS079 warning
_DROPPED = {
    "-cuda": "nvcc's `-cuda` (write the host code as .cpp.ii) has no clang counterpart: dropped, "
    "so the line compiles and links instead",
}
_DROPPED_FLAG = re.compile(r"(?<![\w-])(-cuda)(?![\w=-])")
# CUDA install directories: HIP's headers come from clang's HIP include path, its libraries
# from HIP_LIBS, so -I/-L (and rpaths) naming them are dropped with their variables' uses
_CUDA_DIR = r"(?:/usr/local/cuda[\w.-]*|/opt/cuda[\w.-]*|/usr/include/cuda|/usr/lib/cuda)(?![\w.-])"
_CUDA_DIR_VAR = re.compile(
    r"(?i)^(?:NV)?CUDA\w*(?:DIR|PATH|HOME|ROOT|LIB|LIBS|LIBPATH|INC|INCLUDE|INCLUDES|INCLUDEPATH)$"
)
_MAKE_VAR = re.compile(r"\$[({]([A-Za-z_][\w.]*)[)}]")
_OBJECT_WORD = re.compile(r"[^\s$-]\S*\.(?:o|a|so)")
_SOURCE_WORD = re.compile(r"[^\s$-]\S*\.(?:cu|c|cc|cpp|cxx)")
_RULE = re.compile(r"^([^\t#=:][^=:]*?)::?(?!=)\s*([^;=]*)")


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
        "HIP_PLATFORM_FLAGS ?= -D__HIP_PLATFORM_AMD__\n"
        "# make's built-in C/C++ rules compile host files that include HIP headers\n"
        "CPPFLAGS += $(HIP_PLATFORM_FLAGS)\n\n"
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


def _assignments(text: str) -> dict[str, str]:
    """Variable -> its value(s) as this Makefile sets them (`+=` appended), continuations joined."""
    values: dict[str, str] = {}
    for group in _logical_lines(text):
        logical = re.sub(r"\\\r?\n", " ", "".join(group))
        if logical.startswith("\t") or not (m := _ASSIGN.match(logical)):
            continue
        name, value = m.group(1), m.group(2).split("#", 1)[0].strip()
        appended = re.match(r"^\s*(?:export\s+|override\s+)?[\w.]+\s*\+=", logical)
        values[name] = f"{values.get(name, '')} {value}".strip() if appended else value
    return values


def _cuda_dir_vars(values: dict[str, str]) -> set[str]:
    """Variables naming a CUDA install directory: by name, or set to one (or to such a variable)."""
    found = {name for name in values if _CUDA_DIR_VAR.match(name)}
    while True:
        more = {
            name
            for name, value in values.items()
            if name not in found
            and (
                re.match(_CUDA_DIR, value)
                or ((m := _MAKE_VAR.match(value)) and m.group(1) in found | {"CUDA_DIR"})
            )
        }
        if not more:
            return found | {"CUDA_DIR", "CUDA_LIB_DIR", "CUDA_PATH", "CUDA_HOME"}
        found |= more


def _cuda_dir_flags(cuda_vars: set[str]) -> re.Pattern:
    names = "|".join(re.escape(v) for v in sorted(cuda_vars))
    where = rf"(?:{_CUDA_DIR}|\$[({{](?:{names})[)}}])\S*"
    return re.compile(
        rf"(?<![\w-])(?:(?:-I|-L|-isystem)\s*{where}|-Wl,-rpath[,=]{where}|-Xlinker\s+-rpath[,=]{where})"
    )


def _words_kind(words: str, values: dict[str, str], seen: frozenset[str] = frozenset()) -> str:
    """'object' when every word is an object/library, 'source' when every word is a source to
    compile, '' otherwise (variables resolved through this Makefile's assignments)."""
    kinds = set()
    for word in words.split():
        if _OBJECT_WORD.fullmatch(word) or re.fullmatch(r"\$[({][\w.]+:[^)}]*\.o[)}]", word):
            kinds.add("object")
        elif _SOURCE_WORD.fullmatch(word):
            kinds.add("source")
        elif (m := _MAKE_VAR.fullmatch(word)) and m.group(1) in values and m.group(1) not in seen:
            kinds.add(_words_kind(values[m.group(1)], values, seen | {m.group(1)}))
        else:
            kinds.add("")
    return kinds.pop() if len(kinds) == 1 else ""


def _input_kind(word: str, values: dict[str, str], prerequisites: str) -> str:
    if word in ("$?", "$^", "$+"):
        return _words_kind(prerequisites, values)
    if word == "$<":
        return _words_kind(prerequisites.split()[0], values) if prerequisites.split() else ""
    return _words_kind(word, values)


def _language_switches(line: str, state: list[str], values: dict[str, str], rule: str) -> str:
    """`-x hip` (in HIPCC) applies to every input after it: objects after it get `-x none`
    before them and sources after those `-x hip` again, so clang reads each input as what it is.
    `state` carries [language, previous word] across a logical line's physical lines."""

    def switch(m: re.Match) -> str:
        word, previous = m.group(), state[1]
        state[1] = word
        if word == "$(HIPCC)":
            state[0] = "hip"
            return word
        if not state[0] or previous in ("-o", "-MF", "-MT", "-include", "-I", "-L", "-x"):
            return word
        kind = _input_kind(word, values, rule)
        if kind == "object" and state[0] == "hip":
            state[0] = "none"
            return f"-x none {word}"
        if kind == "source" and state[0] == "none":
            state[0] = "hip"
            return f"-x hip {word}"
        return word

    return re.sub(r"[^\s\\]+", switch, line)


def _optional_outside_include(line: str) -> str | None:
    """`include ~/...` or `include /abs/...` (a file outside the project): made `-include`."""
    new = re.sub(r"^include(?=[ \t]+[~/])", "-include", line)
    return new if new != line else None


def port_makefile(text: str, relative: str, target: Target) -> PortedBuildFile:
    result = PortedBuildFile(relative, text, text)
    values = _assignments(text)
    nvcc_vars = {name for name, value in values.items() if re.search(_NVCC, value)}
    nvcc = _nvcc_pattern(nvcc_vars)
    cuda_dirs = _cuda_dir_flags(_cuda_dir_vars(values))
    out, line_no, changed, prerequisites = [], 0, False, ""
    for group in _logical_lines(text):
        logical = "".join(group)
        link_only = _is_link_only(logical)
        if not logical.startswith("\t") and (rule := _RULE.match(logical)):
            prerequisites = re.sub(r"\\\r?\n", " ", rule.group(2)).split("|")[0]
        state = ["", ""]
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
            for m in _DROPPED_FLAG.finditer(new):
                result.diagnostics.append(
                    _located(relative, line_no, m.start() + 1, m.group(1), _DROPPED[m.group(1)])
                )
            new = _DROPPED_FLAG.sub("", new)
            new = cuda_dirs.sub("", new)
            if line.startswith("\t") or state[0]:
                new = _language_switches(new, state, values, prerequisites)
            if (optional := _optional_outside_include(new)) is not None:
                new = optional
                result.diagnostics.append(
                    _located(
                        relative,
                        line_no,
                        1,
                        new.split()[1],
                        "a Makefile outside the project (often CUDA's paths): included only "
                        "where it exists (-include), the port drops CUDA's directories",
                    )
                )
            changed |= new != line
            out.append(new)
    if changed:
        result.text = header(target) + "".join(out)
    return result


def _located(
    relative: str, line: int, column: int, flag: str, why: str | None = None
) -> Diagnostic:
    return Diagnostic(
        relative,
        line,
        column,
        Severity.WARNING,
        "CASS079",
        f"`{flag}`: {why}"
        if why
        else f"`{flag}` has no HIP build counterpart cass can write: separate device linking, the "
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
