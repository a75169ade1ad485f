"""HIP names for lifted kernels whose CUDA signature uses vector types or cuRAND device states.

CUDA mangles `int2` as `4int2`; HIP's `int2` is `HIP_vector_type<int, 2>`, so the HIP host port
registers `_Z9hookEdgesPK15HIP_vector_typeIiLj2EE...` where the cubin says `_Z9hookEdgesPK4int2...`.
The lifter emits such kernels under both names; the HIP name is what clang itself mangles for the
same declaration (compiled host-only, names read from the registration strings).

    decls   = [kernel_decl(name) ...]           name, template arguments, parameter types
    shapes  = choose_shapes(decls)              which parameters name a template parameter (`T const*`),
                                                checked by mangling the declaration as plain C++
    aliases = hip names of the same declarations, matched back by their demangled head (a
              template argument `float2` read as HIP's `HIP_vector_type<float, 2u>`)

A kernel naming cuRAND states (`sample<curandStateXORWOW>`) is compiled on its own with hipRAND's
header and the states renamed as the port renames them; hipRAND's `hiprandState` being a type of
its own where cuRAND's `curandState` is a typedef of XORWOW's, such a kernel gets both names.
"""

from __future__ import annotations

import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

from cass.models.lift.params import demangle, demangle_all, signature_types
from cass.runner.diagnostics import CassError
from cass.runner.tools import run_tool

VECTOR = re.compile(r"\b(?:u?char|u?short|u?int|u?long|u?longlong|float|double)[1-4]\b")
# cuRAND's device generator states, which a kernel may take or be instantiated on: the HIP port
# names hipRAND's (rocRAND's classes, so another mangling); looked up in the rules engine's tables
CURAND_STATE = re.compile(r"\bcurandState\w*")
HALF_TYPES = re.compile(r"\b__half2?\b")  # CUDA's and HIP's hip_fp16.h structs: the same mangling
PLAIN_NAME = re.compile(r"^[A-Za-z_]\w*$")
WORD = re.compile(r"[A-Za-z_]\w*")
BUILTIN_WORDS = frozenset({"const", "volatile", "unsigned", "signed", "char", "short", "int", "long", "float",
                           "double", "bool", "void", "__restrict__", "__half", "__half2", "size_t",
                           "hipTextureObject_t", "hipSurfaceObject_t"})  # fmt: skip
VALUE_KINDS = ((re.compile(r"^-?\d+$"), "int"), (re.compile(r"^-?\d+u$"), "unsigned int"),
               (re.compile(r"^-?\d+l$"), "long"), (re.compile(r"^-?\d+ul$"), "unsigned long"),
               (re.compile(r"^(?:true|false)$"), "bool"))  # fmt: skip
CAST_VALUE = re.compile(r"^\(([\w ]+)\)(-?\d+)$")
TIMEOUT_S = 120


@dataclass(frozen=True)
class KernelDecl:
    cuda_name: str
    head: str  # demangled text before the parameter list: "run_queries", "void run_queries<MinOp>"
    name: str
    targs: tuple[str, ...]
    params: tuple[str, ...]

    def template_head(self) -> str:
        kinds = [_arg_kind(a) for a in self.targs]
        return (
            "template <" + ", ".join(f"{k or 'typename'} T{i}" for i, k in enumerate(kinds)) + ">\n"
        )

    def shaped_params(self, dependent: bool) -> list[str]:
        """Parameter types, with the type template arguments written as T0, T1... when `dependent`."""
        out = list(self.params)
        if dependent:
            for i, arg in enumerate(self.targs):
                if _arg_kind(arg) is None:
                    out = [re.sub(rf"(?<![\w:]){re.escape(arg)}(?![\w:])", f"T{i}", p) for p in out]
        return out

    def source(self, dependent: bool) -> tuple[str, str]:
        """(definition, explicit instantiation or "") for this kernel as `__global__` C++."""
        if not self.targs:
            return f"__global__ void {self.name}({', '.join(self.params)}) {{}}\n", ""
        params = ", ".join(self.shaped_params(dependent))
        definition = f"{self.template_head()}__global__ void {self.name}({params}) {{}}\n"
        args = ", ".join(_arg_text(a) for a in self.targs)
        return (
            definition,
            f"template __global__ void {self.name}<{args}>({', '.join(self.params)});\n",
        )


def hip_aliases(
    names: list[str], handles: dict[str, dict[int, str]] | None = None
) -> dict[str, str]:
    """CUDA kernel name -> its (first) HIP kernel name: hip_alias_names with one name each."""
    return {cuda: hips[0] for cuda, hips in hip_alias_names(names, handles).items()}


def hip_alias_names(
    names: list[str], handles: dict[str, dict[int, str]] | None = None
) -> dict[str, tuple[str, ...]]:
    """CUDA kernel name -> HIP kernel names, for global-namespace kernels (templates included) with
    vector-typed parameters, non-template kernels taking texture or surface objects (`handles`:
    kernel -> parameter index -> HIP type, from textures.handle_params), and kernels naming cuRAND
    states (two HIP names where the source may have spelt the state two ways); {} when clang is
    missing or fails."""
    handles = handles or {}
    demangle_all(names)
    decls = [d for d in (kernel_decl(n, handles.get(n)) for n in names) if d is not None]
    out = _library_type_aliases([d for d in decls if _curand_types(d)])
    decls = [d for d in decls if not _curand_types(d)]
    if not decls:
        return out
    shapes = choose_shapes(decls)
    decls = [d for d in decls if d.cuda_name in shapes]
    source = "#include <hip/hip_runtime.h>\n#include <hip/hip_fp16.h>\n" + _program(decls, shapes)
    heads = {}
    for hip in _registered_names(source):
        pretty = demangle(hip)
        heads[(pretty.split("(", 1)[0], len(signature_types(pretty) or []))] = hip
    for d in decls:
        hip = heads.get((_hip_spelling(d.head), len(d.params)))
        if hip is not None and hip != d.cuda_name:
            out[d.cuda_name] = (hip,)
    return out


VECTOR_BASES = {"char": "char", "uchar": "unsigned char", "short": "short", "ushort": "unsigned short",
                "int": "int", "uint": "unsigned int", "long": "long", "ulong": "unsigned long",
                "longlong": "long long", "ulonglong": "unsigned long long", "float": "float",
                "double": "double"}  # fmt: skip


def _hip_spelling(head: str) -> str:
    """A demangled head with CUDA's vector types as HIP's demangler prints them: a template
    instantiated on `float2` (`void low_pass<float2>`) is `void low_pass<HIP_vector_type<float,
    2u>>` on the HIP side."""

    def hip(m: re.Match) -> str:
        word = m.group(0)
        return f"HIP_vector_type<{VECTOR_BASES[word[:-1]]}, {word[-1]}u>"

    return VECTOR.sub(hip, head)


def kernel_decl(name: str, handles: dict[int, str] | None = None) -> KernelDecl | None:
    """The declaration parts of a kernel with a vector-typed parameter (or texture/surface object
    parameters, `handles`), or None when out of reach (neither, namespaces, nested templates)."""
    pretty = demangle(name)
    types = signature_types(pretty)
    if types is None or "::" in pretty:
        return None
    handles = {i: t for i, t in (handles or {}).items()
               if i < len(types) and types[i] == "unsigned long long"}  # fmt: skip
    if handles and "<" in pretty.split("(", 1)[0]:
        return None  # a template's CUDA shape is checked with plain C++, where HIP's types are not
    types = [handles.get(i, t) for i, t in enumerate(types)]
    named = " ".join(types) + " " + pretty.split("(", 1)[0]
    if not any(VECTOR.search(t) for t in types) and not handles and not CURAND_STATE.search(named):
        return None
    head = pretty[: len(pretty) - len(_param_text(pretty))]
    base = head.removeprefix("void ")
    name_part, _, rest = base.partition("<")
    if not PLAIN_NAME.match(name_part):
        return None
    targs: tuple[str, ...] = ()
    if rest:
        if not rest.endswith(">") or "<" in rest:
            return None
        targs = tuple(a.strip() for a in rest[:-1].split(","))
    return KernelDecl(name, head, name_part, targs, tuple(types))


def _curand_types(d: KernelDecl) -> list[str]:
    return CURAND_STATE.findall(" ".join(d.params + d.targs))


# cuRAND's `curandState` is a typedef of `curandStateXORWOW` (the cubin's names say the latter),
# while hipRAND's `hiprandState` is a type of its own: a kernel on either spelling is named twice
STATE_SPELLINGS = {"curandStateXORWOW": ("curandStateXORWOW", "curandState")}


def _library_type_aliases(decls: list[KernelDecl]) -> dict[str, tuple[str, ...]]:
    """HIP names of kernels naming cuRAND states, each compiled on its own (hipRAND's states are
    rocRAND classes: the instantiation's demangled text names those, so nothing can be matched
    back by text) with the states renamed as the port renames them and hipRAND's header."""
    from itertools import product

    from cass.models.rules.tables import name_table

    table, out = name_table(), {}
    for d in decls:
        states = sorted(set(_curand_types(d)))
        if not all(w in table and table[w].hip for w in states):
            continue  # a state the port cannot name: no alias, a located launch failure later
        hips: list[str] = []
        for spelling in product(*(STATE_SPELLINGS.get(w, (w,)) for w in states)):
            renames = {w: table[s].hip for w, s in zip(states, spelling, strict=True)}

            def hip(text: str, renames: dict[str, str] = renames) -> str:
                return CURAND_STATE.sub(lambda m: renames[m.group(0)], text)

            ported = KernelDecl(d.cuda_name, hip(d.head), d.name, tuple(map(hip, d.targs)),
                                tuple(map(hip, d.params)))  # fmt: skip
            source = ("#include <hip/hip_runtime.h>\n#include <hiprand/hiprand_kernel.h>\n"
                      + _program([ported], {d.cuda_name: bool(d.targs)}, frozenset(renames.values())))  # fmt: skip
            names = _registered_names(source)
            if len(names) == 1 and names[0] != d.cuda_name and names[0] not in hips:
                hips.append(names[0])
        if hips:
            out[d.cuda_name] = tuple(hips)
    return out


def choose_shapes(decls: list[KernelDecl]) -> dict[str, bool]:
    """CUDA name -> whether its parameters are written with template parameters, the shape whose
    plain-C++ mangling (vector types as empty structs) reproduces the cubin's name."""
    shapes: dict[str, bool] = {d.cuda_name: False for d in decls if not d.targs}
    pending = [d for d in decls if d.targs]
    for dependent in (True, False):
        if not pending:
            break
        vectors = sorted({w for d in pending for w in VECTOR.findall(" ".join(d.params + d.targs))})
        halves = sorted(
            {w for d in pending for w in HALF_TYPES.findall(" ".join(d.params + d.targs))}
        )
        prelude = "#define __global__\n" + "".join(f"struct {v} {{}};\n" for v in vectors + halves)
        defined = set(
            _defined_names(prelude + _program(pending, {d.cuda_name: dependent for d in pending}))
        )
        shapes.update({d.cuda_name: dependent for d in pending if d.cuda_name in defined})
        pending = [d for d in pending if d.cuda_name not in defined]
    return shapes


def _program(decls: list[KernelDecl], shapes: dict[str, bool], known: frozenset[str] = frozenset()
             ) -> str:  # fmt: skip
    """User types as empty structs (mangling needs only the name), each definition once, then the
    explicit instantiations. `known`: names a header of the program declares."""
    words = {w for d in decls for w in WORD.findall(" ".join(d.params + d.targs))}
    users = sorted(
        w
        for w in words
        if w not in BUILTIN_WORDS
        and w not in known
        and not VECTOR.fullmatch(w)
        and not w[0].isdigit()
    )
    users = [w for w in users if w not in ("true", "false") and not re.fullmatch(r"\d+\w*", w)]
    definitions, instances = [], []
    for d in decls:
        definition, instance = d.source(shapes[d.cuda_name])
        if definition not in definitions:
            definitions.append(definition)
        instances.append(instance)
    return "".join(f"struct {w} {{}};\n" for w in users) + "".join(definitions) + "".join(instances)


def _param_text(pretty: str) -> str:
    depth = 0
    for i in range(len(pretty) - 1, -1, -1):
        depth += pretty[i] == ")"
        depth -= pretty[i] == "("
        if depth == 0:
            return pretty[i:]
    return ""


def _arg_kind(arg: str) -> str | None:
    """The type of a non-type template argument (`128` -> int, `(char)3` -> char), None for a type."""
    cast = CAST_VALUE.match(arg)
    if cast:
        return cast.group(1)
    return next((kind for pattern, kind in VALUE_KINDS if pattern.match(arg)), None)


def _arg_text(arg: str) -> str:
    return arg.rstrip("ul") if re.match(r"^-?\d+[ul]+$", arg) else arg


def _clang(source: str, hip: bool) -> str:
    with tempfile.TemporaryDirectory(prefix="cass-lift-names-") as work:
        src = Path(work) / ("names.hip" if hip else "names.cpp")
        src.write_text(source, encoding="utf-8")
        lang = [
            "-x",
            "hip",
            "--cuda-host-only",
            "-nogpulib",
            "-D__HIP_PLATFORM_AMD__",
            "--rocm-path=/usr",
        ]
        argv = [
            "clang++-16",
            *(lang if hip else ["-x", "c++"]),
            "-S",
            "-emit-llvm",
            "-o",
            "-",
            str(src),
        ]
        try:
            run = run_tool(argv, "compiling the kernels' template names", TIMEOUT_S)
        except CassError:  # no clang or stuck: no aliases, the names stay as the SASS has them
            return ""
    return run.stdout if run.ok else ""


def _registered_names(source: str) -> list[str]:
    return re.findall(r'c"(_Z[^"\\]+)\\00"', _clang(source, hip=True))


def _defined_names(source: str) -> list[str]:
    return re.findall(r"^define [^@]*@(_Z\w+)\(", _clang(source, hip=False), re.MULTILINE)
