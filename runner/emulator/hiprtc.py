"""hipRTC for the emulator: compile a program's text at run time with the real clang-16.

The emulator runtime's hiprtc* functions (native/runtime_rtc.cpp) hand a program here through the
embedded Python (`bridge.rtc_compile`). The text is compiled, device code only, for gfx1100 with
the flags a whole program gets on the emulator (`build.hip_compile_command`: Debian's ROCm 5.2
device libraries, the backend fixes, -O3 unless an option says otherwise), `hip/hip_runtime.h`
included first as hipRTC does (kernels use threadIdx and friends without an #include). The result
is the code object `hipModuleLoadData` takes, the compiler's diagnostics as the program log and,
for each name expression, its lowered (mangled) name.

    compile_program(Program(...)) -> Compiled(status, log, code, lowered)

Name expressions (`&saxpy<float>`, `counter`) become one device pointer each, appended after the
program under `#line` markers so a mistake in one is reported as that expression; the code
object's relocation for each pointer gives the address of the entity, and the symbol at that
address its lowered name. The compile is contained like every run (`process.run_compiler`: killed
with its process tree at the time limit).
"""

from __future__ import annotations

import io
import re
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from cass.runner.diagnostics import CassError
from cass.runner.process import run_compiler
from cass.runner.toolchain import DEFAULT_GFX_ARCH
from elftools.elf.elffile import ELFFile
from elftools.elf.relocation import RelocationSection
from elftools.elf.sections import SymbolTableSection

# hiprtcResult values (hip/hiprtc.h, HIP 5.2)
SUCCESS = 0
INVALID_INPUT = 3
INVALID_OPTION = 5
COMPILATION = 6
INTERNAL_ERROR = 11

COMPILE_TIMEOUT_S = 120.0
DEFAULT_NAME = "default_program"  # NVRTC's and hipRTC's name for a program created without one
NAME_SYMBOL = "__cass_hiprtc_name_expression_"

# Options that take their value as the next argument when not joined to it.
_VALUE_OPTIONS = {
    "-D",
    "-U",
    "-I",
    "-include",
    "--define-macro",
    "--undefine-macro",
    "--include-path",
    "--pre-include",
    "--gpu-architecture",
    "-arch",
    "--std",
    "-std",
}
_NVIDIA_ARCH = re.compile(r"^(compute|sm|lto)_\d+[a-z]?$")
# NVRTC options with no effect on a hipRTC compile: accepted and noted in the log.
_IGNORED = {
    "-default-device",
    "--device-as-default-execution-space",
    "-lineinfo",
    "--generate-line-info",
    "-restrict",
    "--restrict",
    "-ewp",
    "--extensible-whole-program",
    "-dlto",
    "--dlink-time-opt",
    "-rdc=false",
    "--relocatable-device-code=false",
    "-dw",
    "--disable-warnings",
}


@dataclass(frozen=True)
class Program:
    source: str
    name: str = DEFAULT_NAME
    headers: tuple[tuple[str, str], ...] = ()  # (include name, text): hiprtcCreateProgram's
    options: tuple[str, ...] = ()
    name_expressions: tuple[str, ...] = ()


@dataclass
class Compiled:
    status: int
    log: str = ""
    code: bytes = b""
    lowered: dict[str, str] = field(default_factory=dict)


def translate_options(options: tuple[str, ...]) -> tuple[list[str], list[str], str | None]:
    """(clang arguments, log notes, error) for hipRTC/NVRTC options; error names the first option
    that cannot be honoured, saying what to do."""
    args: list[str] = []
    notes: list[str] = []
    items = list(options)
    i = 0
    while i < len(items):
        opt = items[i].strip()
        i += 1
        if not opt:
            continue
        key, eq, value = opt.partition("=")
        if not eq and key in _VALUE_OPTIONS and i < len(items):
            value, eq = items[i], "="
            i += 1
        if key in ("-D", "--define-macro") or opt.startswith("-D") and len(opt) > 2:
            args.append("-D" + (value if key in ("-D", "--define-macro") else opt[2:]))
        elif key in ("-U", "--undefine-macro") or opt.startswith("-U") and len(opt) > 2:
            args.append("-U" + (value if key in ("-U", "--undefine-macro") else opt[2:]))
        elif key in ("-I", "--include-path") or opt.startswith("-I") and len(opt) > 2:
            args.append("-I" + (value if key in ("-I", "--include-path") else opt[2:]))
        elif key in ("-include", "--pre-include"):
            args += ["-include", value]
        elif key in ("-std", "--std"):
            args.append("-std=" + value)
        elif key in ("--gpu-architecture", "-arch", "--offload-arch"):
            if _NVIDIA_ARCH.match(value):
                return (
                    [],
                    notes,
                    (
                        f"option '{opt}' names an NVIDIA architecture; hipRTC compiles for an AMD "
                        f"GPU's gfx name: drop the option or pass --gpu-architecture={DEFAULT_GFX_ARCH}"
                    ),
                )
            if value.split(":")[0] != DEFAULT_GFX_ARCH:
                notes.append(
                    f"note: compiling for {DEFAULT_GFX_ARCH}, the emulated GPU, not {value}"
                )
        elif key in ("--use_fast_math", "-use_fast_math"):
            args.append("-ffast-math")
        elif key in ("--fmad", "-fmad"):
            args.append("-ffp-contract=" + ("fast" if value != "false" else "off"))
        elif key in ("-G", "--device-debug"):
            args.append("-g")
        elif key in ("-w",):
            args.append("-w")
        elif opt in _IGNORED or key in ("--maxrregcount", "-maxrregcount"):
            notes.append(f"note: option '{opt}' has no hipRTC counterpart; ignored")
        elif re.match(
            r"^-(O[0-3s]?|g|ffast-math|fno-fast-math|ffp-contract=\w+|W[\w-]*|w|"
            r"fgpu-rdc|fno-gpu-rdc|mcumode|mno-cumode|mwavefrontsize64|"
            r"mno-wavefrontsize64|fgpu-flush-denormals-to-zero)$",
            opt,
        ):
            args.append(opt)
        else:
            return [], notes, f"option '{opt}' is not a hipRTC option"
    return args, notes, None


def _name_stubs(expressions: tuple[str, ...]) -> str:
    lines = []
    for n, expr in enumerate(expressions):
        lines.append(f'#line 1 "name expression {n}: {expr}"')
        lines.append(
            f"__attribute__((used)) __device__ const void* {NAME_SYMBOL}{n} = "
            f"(const void*)&({expr.lstrip('&')});"
        )
    return "\n" + "\n".join(lines) + "\n" if lines else ""


def lowered_names(code: bytes, count: int) -> dict[int, str]:
    """Name expression number -> the symbol its pointer addresses, from the code object."""
    elf = ELFFile(io.BytesIO(code))
    by_address: dict[int, str] = {}
    stubs: dict[int, int] = {}  # slot address -> expression number
    for section in elf.iter_sections():
        if not isinstance(section, SymbolTableSection):
            continue
        for sym in section.iter_symbols():
            name, value = sym.name, sym["st_value"]
            if name.startswith(NAME_SYMBOL):
                stubs[value] = int(name[len(NAME_SYMBOL) :])
            elif (
                name
                and not name.endswith(".kd")
                and sym["st_info"]["type"] in ("STT_FUNC", "STT_OBJECT")
            ):
                by_address.setdefault(value, name)
    found: dict[int, str] = {}
    for section in elf.iter_sections():
        if not isinstance(section, RelocationSection):
            continue
        for rel in section.iter_relocations():
            slot = rel["r_offset"]
            if slot in stubs and rel.is_RELA() and rel["r_addend"] in by_address:
                found[stubs[slot]] = by_address[rel["r_addend"]]
    return {n: found[n] for n in range(count) if n in found}


def _file_name(name: str) -> str:
    base = Path(name or DEFAULT_NAME).name
    return re.sub(r"[^\w.+-]", "_", base) or DEFAULT_NAME


def _include_path(root: Path, name: str) -> Path | None:
    path = (root / name).resolve()
    return path if path.is_relative_to(root.resolve()) else None


def compile_program(program: Program, timeout_s: float = COMPILE_TIMEOUT_S) -> Compiled:
    """Compile `program` for the emulated gfx1100 as hiprtcCompileProgram does."""
    from cass.runner.emulator.build import hip_compile_command  # the emulator's compile flags

    args, notes, error = translate_options(program.options)
    if error:
        return Compiled(INVALID_OPTION, "\n".join([*notes, f"error: {error}"]) + "\n")
    with tempfile.TemporaryDirectory(prefix="cass-hiprtc-") as tmp:
        root = Path(tmp)
        include = root / "include"
        include.mkdir()
        for include_name, text in program.headers:
            target = _include_path(include, include_name)
            if target is None:
                return Compiled(
                    INVALID_INPUT,
                    f"error: header name '{include_name}' leaves the program's include folder\n",
                )
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text, encoding="utf-8")
        file_name = _file_name(program.name)
        (root / file_name).write_text(
            program.source + _name_stubs(program.name_expressions), encoding="utf-8"
        )
        extra = (
            "-include",
            "hip/hip_runtime.h",
            f"-I{include}",
            *args,
            "--cuda-device-only",
            "-c",
            "--no-gpu-bundle-output",
        )
        try:
            cmd = hip_compile_command(Path(file_name), Path("program.co"), DEFAULT_GFX_ARCH, extra)
        except CassError as exc:
            return Compiled(INTERNAL_ERROR, f"error: {exc}\n")
        proc = run_compiler(cmd, cwd=root, timeout_s=timeout_s)
        log = "\n".join([*notes, proc.stderr.decode("utf-8", "replace").rstrip()]).strip()
        if proc.timed_out:
            return Compiled(
                COMPILATION,
                log + f"\nerror: the compile took longer than {timeout_s:g} s and was stopped\n",
            )
        if proc.exit_code != 0:
            return Compiled(COMPILATION, log + "\n")
        code = (root / "program.co").read_bytes()
    numbered = lowered_names(code, len(program.name_expressions))
    missing = [e for n, e in enumerate(program.name_expressions) if n not in numbered]
    if missing:
        return Compiled(
            COMPILATION,
            log + f"\nerror: name expression '{missing[0]}' does not "
            "name a __global__ function or __device__ variable\n",
        )
    lowered = {e: numbered[n] for n, e in enumerate(program.name_expressions)}
    return Compiled(SUCCESS, log + "\n" if log else "", code, lowered)
