"""Device limits and memory types HIP 5.2 lacks: ported where HIP 5.2 needs no call or has a
nearby name (with a warning saying how it differs), reported where it has nothing."""

from __future__ import annotations

import pytest
from cass.models.engine import Target
from cass.models.rules import port_unit

HIP52, HIP62 = Target(), Target(hip_version="6.2")


def _port(text: str, target: Target) -> tuple[str, list[str]]:
    unit = port_unit(text, "k.cu", target)
    return unit.render(), [d.code for d in unit.diagnostics]


@pytest.mark.parametrize("limit", ["cudaLimitStackSize", "cudaLimitPrintfFifoSize"])
def test_limits_hip_52_sizes_itself_become_success_and_keep_the_value(limit):
    out, codes = _port(f"void f() {{ check(cudaDeviceSetLimit({limit}, next())); }}", HIP52)
    assert "check(((void)(next()), hipSuccess));" in out
    assert codes == ["CASS064"]


def test_a_limit_hip_52_cannot_set_is_an_error_at_its_line():
    out, codes = _port(
        "void f() {\n  cudaDeviceSetLimit(cudaLimitMallocHeapSize, 1 << 20);\n}", HIP52
    )
    assert "cudaDeviceSetLimit(hipLimitMallocHeapSize" in out
    assert codes == ["CASS011"]


def test_hip_6_keeps_the_call():
    out, codes = _port("void f() { cudaDeviceSetLimit(cudaLimitStackSize, 16384); }", HIP62)
    assert "hipDeviceSetLimit(hipLimitStackSize, 16384)" in out
    assert "CASS064" not in codes


def test_managed_memory_type_by_hip_version():
    text = 'const char* k(cudaMemoryType t) { switch (t) { case cudaMemoryTypeManaged: return "m"; default: return ""; } }'
    out52, codes52 = _port(text, HIP52)
    assert "case hipMemoryTypeUnified:" in out52 and "CASS065" in codes52
    out62, codes62 = _port(text, HIP62)
    assert "case hipMemoryTypeManaged:" in out62 and "CASS065" not in codes62


def test_every_declared_pointer_attributes_variable_gets_memory_type():
    text = "void f() { cudaPointerAttributes a = {}, *b, c[2]; g(a.type, b->type, c[1].type); }"
    out, _ = _port(text, HIP52)
    assert "g(a.memoryType, b->memoryType, c[1].memoryType)" in out
