"""cudaDeviceProp members that HIP 5.2's hipDeviceProp_t lacks (Rodinia's gaussian prints
`deviceOverlap`, huffman tests it): reading `deviceOverlap` becomes 1 (what every AMD GPU answers)
with a warning; every other access is an error at its line, never a rename that silently leaves a
port which does not compile; HIP 6 targets, which have most of the members, are not told."""

from __future__ import annotations

from pathlib import Path

import pytest
from cass.models.rules.passes.checks import MISSING_DEVICE_PROP_MEMBERS

SOURCE = """#include <cstdio>
int main() {
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    cudaDeviceProp *p = &prop;
    printf("%d %d %d\\n", prop.deviceOverlap, p->asyncEngineCount, prop.multiProcessorCount);
    int deviceOverlap = 1;  // a variable of that name is no member access
    return deviceOverlap;
}
"""


def test_missing_members_are_errors_where_they_are_read(port_snippet) -> None:
    out, codes = port_snippet(SOURCE)
    found = sorted((d.line, d.severity.value, d.message.split("`")[1]) for d in codes["CASS080"])
    assert found == [(6, "error", "asyncEngineCount"), (6, "warning", "prop.deviceOverlap")]
    assert 'printf("%d %d %d\\n", 1, p->asyncEngineCount, prop.multiProcessorCount);' in out
    assert "int deviceOverlap = 1;" in out and "return deviceOverlap;" in out


OVERLAP_READS = """#include <cstdio>
struct Info { cudaDeviceProp props[2]; };
int main() {
    Info info; cudaDeviceProp prop; cudaDeviceProp *p = &prop;
    cudaGetDeviceProperties(&prop, 0);
    if (!prop.deviceOverlap) return 1;
    printf("%s %d\\n", info.props[0]. deviceOverlap ? "Allowed" : "Not Allowed", p->deviceOverlap);
    prop.deviceOverlap = 0;
    return 0;
}
"""


@pytest.mark.toolchain
def test_device_overlap_reads_become_one_and_writes_stay_errors(
    port_snippet, tmp_path: Path, hip_compile
) -> None:
    out, codes = port_snippet(OVERLAP_READS)
    assert "if (!1) return 1;" in out
    assert 'printf("%s %d\\n", 1 ? "Allowed" : "Not Allowed", 1);' in out
    by_severity = sorted((d.line, d.severity.value) for d in codes["CASS080"])
    assert by_severity == [(6, "warning"), (7, "warning"), (7, "warning"), (8, "error")]
    source = tmp_path / "overlap.hip"
    source.write_text(out.replace("    prop.deviceOverlap = 0;\n", ""))
    assert hip_compile(source, "-fsyntax-only").returncode == 0


def test_hip_6_targets_are_not_told(port_snippet) -> None:
    assert "CASS080" not in port_snippet(SOURCE, hip_version="6.2")[1]


@pytest.mark.toolchain
def test_every_listed_member_is_really_missing_from_hip_5_2(tmp_path: Path, hip_compile) -> None:
    """One translation unit reads each member: clang-16 must reject every one of them."""
    body = "\n".join(
        f"long m{i}(hipDeviceProp_t &p) {{ return (long)p.{name}; }}"
        for i, name in enumerate(sorted(MISSING_DEVICE_PROP_MEMBERS))
    )
    source = tmp_path / "members.hip"
    source.write_text(f"#include <hip/hip_runtime.h>\n{body}\n")
    errors = hip_compile(source, "-fsyntax-only", "-ferror-limit=0").stderr
    missing = {
        name for name in MISSING_DEVICE_PROP_MEMBERS if f"no member named '{name}'" in errors
    }
    assert missing == MISSING_DEVICE_PROP_MEMBERS
