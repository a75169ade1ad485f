"""NVRTC -> hipRTC: the CUDA inside the program text given to nvrtcCreateProgram is ported where
the file holds it as a literal (raw or ordinary, in the call or in the variable the call names),
each of its diagnostics located inside the literal; text from elsewhere is CASS091. NVTX ->
roctx: the A forms map, the rest is reported where it is used."""

from __future__ import annotations

import pytest
from cass.models.engine import Target
from cass.models.rules.passes.runtime_sources import decode, encode
from cass.models.rules.unit import Unit

RAW = """#include <nvrtc.h>
static const char* kSource = R"(
__global__ void k(float* v) {
    v[threadIdx.x] = __shfl_down_sync(0xffffffffu, v[threadIdx.x], 1);
}
)";
void build(nvrtcProgram* p) { nvrtcCreateProgram(p, kSource, "k.cu", 0, nullptr, nullptr); }
"""

ORDINARY = """#include <nvrtc.h>
void build(nvrtcProgram* p) {
    nvrtcCreateProgram(p,
        "#include <cuda_fp16.h>\\n"
        "__global__ void k(float* v) {\\n"
        "  v[0] = __shfl_xor_sync(0xffffffffu, v[0], 1);\\n"
        "}\\n", "k.cu", 0, nullptr, nullptr);
}
"""


def test_raw_literal_named_by_a_variable_is_ported_in_place(port_snippet):
    text, codes = port_snippet(RAW)
    assert "v[threadIdx.x] = __shfl_down(v[threadIdx.x], 1);" in text
    assert (
        'R"(\n__global__ void k' in text and "#include <hip/hip_runtime.h>\n__global__" not in text
    )
    (inner,) = codes["CASS020"]
    assert (inner.line, inner.column) == (4, 22)  # where __shfl_down_sync is in the file
    assert inner.message.startswith("in the program text compiled at run time: ")
    assert "hiprtcCreateProgram(p, kSource" in text


def test_concatenated_literals_in_the_call_keep_their_style(port_snippet):
    text, codes = port_snippet(ORDINARY)
    assert '"#include <hip/hip_fp16.h>\\n"' in text
    assert '"  v[0] = __shfl_xor(v[0], 1);\\n"' in text
    (inner,) = codes["CASS020"]
    assert (inner.line, inner.column) == (6, 19)


@pytest.mark.parametrize(
    "call",
    [
        'nvrtcCreateProgram(p, read_file(path).c_str(), "k.cu", 0, 0, 0);',
        'nvrtcCreateProgram(p, text, "k.cu", 0, 0, 0);',
    ],
)
def test_text_from_elsewhere_is_reported_at_the_argument(port_snippet, call):
    source = (
        f"#include <nvrtc.h>\n#include <string>\nstd::string read_file(const char*);\n"
        f"void build(nvrtcProgram* p, const char* path, const char* text) {{\n    {call}\n}}\n"
    )
    _, codes = port_snippet(source)
    (d,) = codes["CASS091"]
    assert d.line == 5 and d.column == 27
    assert "hipRTC compiles it as HIP" in d.message


def test_ported_text_is_left_alone_when_nothing_changes(port_snippet):
    source = RAW.replace("__shfl_down_sync(0xffffffffu, v[threadIdx.x], 1)", "v[0] + 1.0f")
    text, codes = port_snippet(source)
    assert 'R"(\n__global__ void k(float* v) {\n    v[threadIdx.x] = v[0] + 1.0f;\n}\n)"' in text
    assert "CASS091" not in codes


def test_decode_maps_every_character_to_its_file_offset():
    source = 'const char* s = "a\\tb\\n" "\\x41\\101";'
    unit = Unit(path="t.cu", text=source, target=Target())
    pieces = [i for i, tok in enumerate(unit.code) if tok.kind == "string"]
    text, origin = decode(unit, pieces)
    assert text == "a\tb\nAA"
    assert [source[o] for o in origin[:4]] == ["a", "\\", "b", "\\"]
    assert encode(text, ['"x"', '"y"'], "\n") == '"a\\tb\\n"\n"AA"'
    assert encode("x)y", ['R"(z)"'], "\n") == 'R"(x)y)"'
    assert encode('has )" inside', ['R"(z)"'], "\n") == '"has )\\" inside"'


NVTX = """#include <nvtx3/nvToolsExt.h>
void run() {
    nvtxRangeId_t id = nvtxRangeStartA("all");
    nvtxRangePush("stage");
    nvtxMark("tick");
    nvtxRangePop();
    nvtxRangeEnd(id);
    nvtxEventAttributes_t attr = {0};
    nvtxDomainHandle_t d = nvtxDomainCreateA("dom");
    nvtxNameOsThreadA(0, "main");
    nvtx3::scoped_range r{"scope"};
    nvtxDomainSyncUserCreate(d, 0);
}
"""


def test_nvtx_maps_to_roctx_and_reports_what_roctx_lacks(port_snippet):
    text, codes = port_snippet(NVTX)
    assert "#include <roctracer/roctx.h>" in text
    for line in (
        'roctx_range_id_t id = roctxRangeStartA("all");',
        'roctxRangePushA("stage");',
        'roctxMarkA("tick");',
        "roctxRangePop();",
        "roctxRangeStop(id);",
    ):
        assert line in text
    unsupported = {(d.line, d.message.split("`")[1]) for d in codes["CASS010"]}
    assert unsupported == {
        (8, "nvtxEventAttributes_t"),
        (9, "nvtxDomainHandle_t"),
        (9, "nvtxDomainCreateA"),
        (10, "nvtxNameOsThreadA"),
        (11, "nvtx3"),
    }
    assert all("roctx" in d.message for d in codes["CASS010"])
    (unknown,) = codes["CASS082"]
    assert unknown.line == 12 and "nvtxDomainSyncUserCreate" in unknown.message


ARCH = """#include <nvrtc.h>
#include <string>
void build(nvrtcProgram p, int cc) {
    const char* fixed[] = {"--gpu-architecture=compute_90", "-arch=sm_80", "--std=c++17"};
    nvrtcCompileProgram(p, 3, fixed);
    std::string arch = "-arch=sm_" + std::to_string(cc);
    const char* opts[] = {arch.c_str()};
    nvrtcCompileProgram(p, 1, opts);
}
"""


def test_nvidia_architecture_options_become_the_target_or_are_reported(port_snippet):
    text, codes = port_snippet(ARCH, arch="gfx90a")
    assert '{"--gpu-architecture=gfx90a", "--gpu-architecture=gfx90a", "-std=c++17"}' in text
    assert '"-arch=sm_" + std::to_string(cc)' in text
    by_line = {d.line: d for d in codes["CASS092"]}
    assert sorted(d.line for d in codes["CASS092"]) == [4, 4, 6]
    assert "gcnArchName" in by_line[6].message and by_line[6].column == 24


def test_architecture_strings_are_left_alone_without_nvrtc(port_snippet):
    text, codes = port_snippet('const char* a = "-arch=sm_80";\n')
    assert '"-arch=sm_80"' in text and "CASS092" not in codes


def test_nvtx_rows_name_roctx_facts_that_declare_their_hip_names():
    from cass.models.rules.tables import TABLE_DIR, family_table

    facts = (TABLE_DIR / "facts" / "roctx.h@7910a996.ids").read_text(encoding="utf-8")
    assert "# commit: 7910a99682e33db47dca6d274a9a8dbf93a416fb" in facts
    declared = {ln for ln in facts.splitlines() if ln and not ln.startswith("#")}
    rows = family_table("nvtx").values()
    mapped = [e for e in rows if e.status != "unsupported"]
    assert len(mapped) == 9 and all(e.hip in declared for e in mapped)
    assert all("tables/facts/roctx.h@7910a996.ids" in e.checked for e in rows)
    assert all(e.note for e in rows if e.status == "unsupported")


HEADERS = r"""#include <nvrtc.h>
static const char* kHelper = "__device__ float f(float v) { return __shfl_xor_sync(~0u, v, 1); }\n";
static const char* kPlain = R"(__device__ int g() { return 1; })";
const char* headers[] = {kHelper, kPlain, "#include <cuda_fp16.h>\n"};
const char* names[] = {"helper.h", "plain.h", "fp16.h"};
void build(nvrtcProgram* p) {
    nvrtcCreateProgram(p, "#include \"helper.h\"\n", "k.cu", 3, headers, names);
    nvrtcCreateProgram(p, "#include \"helper.h\"\n", "k2.cu", 1, &kHelper, names);
}
"""


def test_in_memory_headers_are_ported_once_each(port_snippet):
    text, codes = port_snippet(HEADERS)
    assert 'kHelper = "__device__ float f(float v) { return __shfl_xor(v, 1); }\\n";' in text
    assert '"#include <hip/hip_fp16.h>\\n"}' in text
    assert 'kPlain = R"(__device__ int g() { return 1; })";' in text
    (inner,) = codes["CASS020"]
    assert inner.line == 2 and "in the program text compiled at run time" in inner.message


OPTIONS = """#include <nvrtc.h>
void build(nvrtcProgram p) {
    const char* opts[] = {"--use_fast_math", "--fmad=false", "--std=c++17", "-default-device",
                          "--define-macro=N=4", "-lineinfo", "-O3"};
    nvrtcCompileProgram(p, 7, opts);
}
"""


def test_nvrtc_option_spellings_become_clangs_or_are_reported(port_snippet):
    text, codes = port_snippet(OPTIONS)
    assert '{"-ffast-math", "-ffp-contract=off", "-std=c++17", "-default-device",' in text
    assert '"-DN=4", "-lineinfo", "-O3"}' in text
    severities = sorted((d.line, d.column, d.severity.value) for d in codes["CASS093"])
    assert severities == [
        (3, 27, "info"),
        (3, 46, "info"),
        (3, 62, "info"),
        (3, 77, "warning"),
        (4, 27, "info"),
        (4, 49, "warning"),
    ]
