"""cudaDeviceProp members that HIP 5.2's hipDeviceProp_t lacks (Rodinia's gaussian prints
`deviceOverlap`): each access is an error at its line, never a rename that silently leaves a port
which does not compile; HIP 6 targets, which have most of the members, are not told."""

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
    _, codes = port_snippet(SOURCE)
    found = sorted((d.line, d.column) for d in codes["CASS080"])
    assert [line for line, _ in found] == [6, 6]
    messages = " ".join(d.message for d in codes["CASS080"])
    assert "`deviceOverlap`" in messages and "`asyncEngineCount`" in messages
    assert "multiProcessorCount" not in messages


def test_hip_6_targets_are_not_told(port_snippet) -> None:
    assert "CASS080" not in port_snippet(SOURCE, hip_version="6.2")[1]


@pytest.mark.toolchain
def test_every_listed_member_is_really_missing_from_hip_5_2(tmp_path: Path, hip_compile) -> None:
    """One translation unit reads each member: clang-16 must reject every one of them."""
    body = "\n".join(f"long m{i}(hipDeviceProp_t &p) {{ return (long)p.{name}; }}" for i, name in enumerate(sorted(MISSING_DEVICE_PROP_MEMBERS)))
    source = tmp_path / "members.hip"
    source.write_text(f"#include <hip/hip_runtime.h>\n{body}\n")
    errors = hip_compile(source, "-fsyntax-only", "-ferror-limit=0").stderr
    missing = {name for name in MISSING_DEVICE_PROP_MEMBERS if f"no member named '{name}'" in errors}
    assert missing == MISSING_DEVICE_PROP_MEMBERS
