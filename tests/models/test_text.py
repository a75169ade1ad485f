"""Prompts, extraction, loop detection, splitting and the temperature schedule: pure functions."""

from __future__ import annotations

import pytest
from cass.models.llm.backend import looping
from cass.models.llm.extract import extract_code
from cass.models.llm.prompts import chat_messages, user_message
from cass.models.llm.split import TooLong, pack, reassemble, units
from cass.models.llm.verified import temperature_schedule


def test_prompts_are_the_published_ones():
    assert (
        user_message("source", "int x;")
        == "Convert the following CUDA code to AMD GPU code:\n```cuda\nint x;\n```"
    )
    assert user_message("assembly", "MOV R1, c[0x0][0x28] ;\n") == (
        "Convert the following CUDA device assembly code to HIP device assembly:\n```cudaasm\nMOV R1, c[0x0][0x28] ;\n```"
    )
    assert chat_messages("source", "x")[0]["role"] == "user"


@pytest.mark.parametrize(
    ("answer", "language", "code", "closed"),
    [
        ("Here:\n```amd\nint a;\n```\nDone.", "amd", "int a;\n", True),
        ("```cpp\nshort;\n```\n```amd\nwanted;\n```", "amd", "wanted;\n", True),
        ("```\nplain;\n```", "amd", "plain;\n", True),
        ("```cpp\na;\n```\n```c\nlonger one;\n```", "amd", "longer one;\n", True),
        ("```hipasm\ns_endpgm\n```", "hipasm", "s_endpgm\n", True),
        ("intro\n```amd\nint cut_off", "amd", "int cut_off", False),
        ("  ```amd\r\nint a;\r\n  ```", "amd", "int a;\r\n", True),
    ],
)
def test_extract_code(answer, language, code, closed):
    block = extract_code(answer, language)
    assert block is not None and block.code == code and block.closed is closed


@pytest.mark.parametrize("answer", ["", "no code here at all", "```amd\n"])
def test_no_code_block(answer):
    assert extract_code(answer, "amd") is None


def test_looping():
    assert looping("start " + "y[i] = 0;\n" * 60)
    assert looping("x" + "}" * 500)
    assert not looping("".join(f"y[{i}] = {i};\n" for i in range(100)))
    assert not looping("short " * 3)


SOURCE = """#include <cstdio>
// a comment with a brace {
struct P { int x; };
__global__ void first(float* y) {
    const char* s = "}";
    y[0] = '}';
}

template <typename T>
__global__ void second(T* y, int n) { y[n] = T(1); }
#define BODY { \\
  }
int main() {
    return 0;
}
"""


def test_units_cut_at_top_level_braces():
    found = units("source", SOURCE)
    assert "".join(u.text for u in found) == SOURCE
    assert [u.name for u in found] == ["", "first", "second", "main"]
    assert [u.first_line for u in found] == [1, 4, 8, 11]
    assert found[1].last_line == 7


def test_units_of_sass():
    sass = "\tcode for sm_90\n\t\tFunction : _Z1ai\n\tMOV R1 ;\n\t\tFunction : _Z1bi\n\tEXIT ;\n"
    found = units("assembly", sass)
    assert [u.name for u in found] == ["", "_Z1ai", "_Z1bi"]
    assert "".join(u.text for u in found) == sass


def test_pack_joins_units_within_budget_and_refuses_a_too_long_one():
    found = units("source", SOURCE)
    packed = pack(found, len, max(len(u.text) for u in found) + 60)
    assert "".join(p.text for p in packed) == SOURCE and 1 < len(packed) < len(found)
    with pytest.raises(
        TooLong, match="a unit at line 1 needs 67 tokens, over the budget of 40"
    ) as caught:
        pack(found, len, 40)
    assert caught.value.unit.first_line == 1  # the first unit already exceeds the budget


def test_reassemble_drops_repeated_includes():
    text = reassemble(
        "source", ["#include <hip/hip_runtime.h>\nint a;", "#include <hip/hip_runtime.h>\nint b;\n"]
    )
    assert text.count("#include") == 1 and "int a;\n" in text and text.endswith("int b;\n")


def test_temperature_schedule():
    assert temperature_schedule(1) == [0.0]
    assert temperature_schedule(6) == [0.0, 0.25, 0.5, 0.75, 1.0, 1.0]


class _Endless:
    """A backend stand-in that streams forever: the generation loop must stop it by itself."""

    name, model_id, context_tokens = "endless", "endless", 4096

    def count_tokens(self, text):
        return len(text)

    def stream(self, messages, sampling):
        i = 0
        while True:
            i += 1
            yield f"t{i} "

    def close(self):
        pass


def test_generation_stops_at_the_token_limit_and_the_time_limit():
    from cass.models.llm.backend import Sampling, generate

    assert (
        generate(_Endless(), [{"role": "user", "content": "x"}], Sampling(max_tokens=50)).finish
        == "length"
    )
    timed = generate(
        _Endless(),
        [{"role": "user", "content": "x"}],
        Sampling(max_tokens=10**9),
        time_limit_s=0.05,
    )
    assert timed.finish == "timeout" and timed.completion_tokens > 0
