"""`cass dataset build --synthesise-with MODEL --prompts N`: templated prompts, the code out of
the model's answers, and the bundled GGUF model through real llama.cpp writing programs that go
through every stage (its answers cached: a rerun asks the model nothing)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from cass.models.dataset.domains import DOMAINS, SCALAR_BLOCKS
from cass.models.dataset.prompted import extract_program, with_code
from cass.models.dataset.prompts import prompt_spec, prompt_specs
from cass.server.cli import main

BUNDLED = "bundled"
SEED = 3
BUILD = ["dataset", "build", "--synthesise-with", BUNDLED, "--prompts", "2", "--seed", str(SEED),
         "--synthesis-max-tokens", "384", "-j", "1"]  # fmt: skip


def test_prompts_are_deterministic_by_seed_and_index():
    first, again = prompt_specs(40, 7), prompt_specs(40, 7)
    assert [s.text for s in first] == [s.text for s in again]
    assert prompt_spec(7, 23) == first[23]  # prompt i depends only on (seed, i)
    other = prompt_specs(40, 8)
    assert sum(a.text != b.text for a, b in zip(first, other)) >= 35
    assert len({s.text for s in first}) == 40


def test_prompts_cover_every_domain_with_their_placeholders():
    specs = prompt_specs(len(DOMAINS), 1)
    assert {s.domain for s in specs} == set(DOMAINS)
    for s in specs:
        d = DOMAINS[s.domain]
        assert s.value_type in d.types and s.word in d.words
        assert s.domain.replace("_", " ") in s.text and f"{s.size} {s.value_type}" in s.text
        assert s.memory in s.text and "`CHECK PASS` or `CHECK FAIL`" in s.text
        assert "```cuda" in s.text
        assert all(b not in SCALAR_BLOCKS for b in s.algorithm[:-1])  # a reduction only last
        assert json.loads(json.dumps(s.fields()))["sampling_seed"] == s.sampling_seed


@pytest.mark.parametrize(
    ("answer", "code", "how"),
    [
        ("Here:\n```cpp\nint x;\n```\nand\n```cuda\n__global__ void k() {}\n```\n", "__global__ void k() {}\n", "fenced"),
        ("```cuda\n#include <cstdio>\nint main() {\n", "#include <cstdio>\nint main() {\n", "cut-off"),
        ("#include <cstdio>\n__global__ void k() {}\n", "#include <cstdio>\n__global__ void k() {}\n", "unfenced"),
        ("I cannot write that program.", "", "no-code"),
    ],
)  # fmt: skip
def test_the_code_comes_out_of_the_answer(answer, code, how):
    assert extract_program(answer) == (code, how)


def test_an_answer_at_the_token_limit_is_cut_off_and_one_that_timed_out_has_no_code():
    text = "#include <cstdio>\nint main() { return 0; }\n"
    assert with_code({"finish": "stop", "text": text})["extraction"] == "unfenced"
    assert with_code({"finish": "length", "text": text})["extraction"] == "cut-off"
    assert with_code({"finish": "timeout", "text": text})["code"] == ""


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--synthesise-with", "/nonexistent/m.gguf", "--prompts", "2"], "no such model file"),
        (["--prompts", "2"], "--prompts needs --synthesise-with"),
        (["--synthesise-with", BUNDLED], "--synthesise-with needs --prompts"),
        (["--synthesise-with", "http://127.0.0.1:9", "--prompts", "1"], "not reachable"),
        (["--synthesise-with", BUNDLED, "--prompts", "1", "--synthesis-temperature", "5"], "takes 0 to 2"),
    ],
)  # fmt: skip
def test_a_bad_model_spec_is_one_line_and_writes_nothing(tmp_path, capsys, args, message):
    out = tmp_path / "out"
    assert main(["dataset", "build", *args, "-o", str(out)]) != 0
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1 and "Traceback" not in err, err
    assert not out.exists()


def test_a_file_that_is_no_model_is_one_line(tmp_path, capsys):
    fake = tmp_path / "notes.gguf"
    fake.write_text("not a model\n")
    assert (
        main(
            [
                "dataset",
                "build",
                "--synthesise-with",
                str(fake),
                "--prompts",
                "1",
                "-o",
                str(tmp_path / "o"),
            ]
        )
        != 0
    )
    err = capsys.readouterr().err.strip()
    assert str(fake) in err and len(err.splitlines()) == 1, err


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> tuple[Path, dict, dict]:
    """One prompt to the bundled model, then two (the first answer reused: a run resumes where
    an earlier one stopped), then the same command again."""
    out = tmp_path_factory.mktemp("prompted") / "out"
    one = [a if a != "2" else "1" for a in BUILD]
    assert main([*one, "-o", str(out)]) == 0
    assert json.loads((out / "stats.json").read_text())["synthesis"]["cached"] == 0
    assert main([*BUILD, "-o", str(out)]) == 0
    first = json.loads((out / "stats.json").read_text())
    assert main([*BUILD, "-o", str(out)]) == 0
    return out, first, json.loads((out / "stats.json").read_text())


@pytest.mark.model
@pytest.mark.toolchain
def test_the_bundled_model_writes_programs_through_every_stage(built):
    import datasets

    out, first, _ = built
    s = first["synthesis"]
    assert s["prompts"] == 2 and s["cached"] == 1  # the one-prompt run's answer
    assert s["identity"].startswith("llama_cpp:cass-scratch-10m-q4_0.gguf:")
    outcomes = ("fenced", "cut-off", "unfenced", "no-code", "timeout", "loop", "too-long")
    assert (
        sum(s[k] for k in outcomes) == 2 and s["code"] == s["fenced"] + s["cut-off"] + s["unfenced"]
    )
    assert s["completion_tokens"] > 0
    rows = []
    for split in ("train", "test"):
        if list((out / "data").glob(f"programs-{split}-*.parquet")):
            rows += datasets.load_dataset(str(out), "programs", split=split).to_list()
    model_rows = [r for r in rows if r["origin"] == "model"]
    assert len(model_rows) == s["decontaminated"] <= s["unique"] <= s["code"]
    assert model_rows, "the bundled model wrote no code for either prompt"
    for r in model_rows:
        index = int(r["id"].split("-")[2])
        spec = prompt_spec(SEED, index)
        assert r["prompt"] == spec.text and json.loads(r["prompt_spec"]) == spec.fields()
        assert r["synthesiser"] == s["identity"] and r["domain"] == spec.domain
        assert r["extraction"] in ("fenced", "cut-off", "unfenced") and r["cuda"].strip()
        assert r["cuda_compile_status"] in ("ok", "error") and r["port_status"] in ("ok", "error")
        assert r["verification"] == "not-run" or r["cuda_compile_status"] == "ok"
    # the later stages counted over the model's programs, as the card shows them
    assert s["compiled-nvidia"] == sum(r["cuda_compile_status"] == "ok" for r in model_rows)
    assert s["ported"] == sum(r["port_status"] == "ok" for r in model_rows)
    card = (out / "README.md").read_text()
    assert "## Programs written by a model" in card and "| prompts | 2 | 100.0% |" in card


@pytest.mark.model
@pytest.mark.toolchain
def test_a_rerun_takes_every_answer_from_the_cache(built):
    _, first, second = built
    assert second["synthesis"]["cached"] == 2
    for key in (
        "code",
        "no-code",
        "decontaminated",
        "compiled-nvidia",
        "compiled-amd",
        "completion_tokens",
    ):
        assert second["synthesis"][key] == first["synthesis"][key], key


@pytest.mark.model
def test_the_time_limit_stops_an_answer_and_is_not_cached(tmp_path):
    out = tmp_path / "out"
    args = [
        "dataset",
        "build",
        "--synthesise-with",
        BUNDLED,
        "--prompts",
        "1",
        "--synthesis-timeout",
        "0.01",
        "-o",
        str(out),
    ]
    assert main(args) == 0
    s = json.loads((out / "stats.json").read_text())["synthesis"]
    assert s["timeout"] == 1 and s["code"] == 0 and s["generation_s"] < 5
    assert not list((out / "cache").glob("synthesise/*/*.json"))  # a rerun asks again


PROGRAM = r"""// Scales a vector on the GPU and checks it on the host.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void scale_values(int n, float k, const float* in, float* out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = k * in[i] + 1.0f;
}

int main() {
    const int n = 1000;
    float h_in[n], h_out[n];
    for (int i = 0; i < n; ++i) h_in[i] = 0.5f * (i % 17);
    float *d_in, *d_out;
    cudaMalloc(&d_in, n * sizeof(float));
    cudaMalloc(&d_out, n * sizeof(float));
    cudaMemcpy(d_in, h_in, n * sizeof(float), cudaMemcpyHostToDevice);
    scale_values<<<(n + 127) / 128, 128>>>(n, 3.0f, d_in, d_out);
    cudaMemcpy(h_out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += h_out[i] != 3.0f * h_in[i] + 1.0f;
    printf("mismatches = %d\n", bad);
    printf(bad ? "CHECK FAIL\n" : "CHECK PASS\n");
    return bad ? 1 : 0;
}
"""


@pytest.fixture(scope="module")
def answering(tmp_path_factory) -> tuple[Path, Path]:
    """A tiny Qwen2 checkpoint whose greedy answer to any chat is PROGRAM in a ```cuda fence
    (tests/models/tiny_model.py), and its GGUF made by `cass model convert`."""
    for name in ("llama_cpp", "gguf", "transformers", "tokenizers"):
        pytest.importorskip(name)
    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "models"))
    from tiny_model import build_checkpoint

    root = tmp_path_factory.mktemp("answering")
    checkpoint = build_checkpoint(root / "checkpoint", "```cuda\n" + PROGRAM + "```")
    gguf = root / "answering-q8_0.gguf"
    assert main(["model", "convert", str(checkpoint), "--quant", "q8_0", "-o", str(gguf)]) == 0
    return checkpoint, gguf


@pytest.mark.model
@pytest.mark.toolchain
def test_a_program_the_model_writes_is_compiled_aligned_and_run(answering, tmp_path):
    """The success path: both answers are the same fenced program (one kept by deduplication),
    which compiles on both stacks, aligns and passes its own check on the emulator; a second
    model (the same weights through transformers) is asked again, its program's stages cached."""
    import datasets

    checkpoint, gguf = answering
    out = tmp_path / "out"
    common = [
        "--prompts",
        "2",
        "--synthesis-temperature",
        "0",
        "--run-unreferenced",
        "-j",
        "1",
        "-o",
        str(out),
    ]
    assert main(["dataset", "build", "--synthesise-with", str(gguf), *common]) == 0
    stats = json.loads((out / "stats.json").read_text())
    s = stats["synthesis"]
    assert (s["fenced"], s["code"], s["unique"], s["compiled-nvidia"], s["compiled-amd"]) == (
        2,
        2,
        1,
        1,
        1,
    )
    assert (s["aligned"], s["ran"], s["accepted"]) == (1, 1, 1)
    row = datasets.load_dataset(str(out), "programs", split="train").to_list()[0]
    assert (
        row["cuda"] == PROGRAM
        and row["extraction"] == "fenced"
        and row["verification"] == "self-checked"
    )
    assert (
        row["port_stdout"].rstrip().endswith("CHECK PASS")
        and row["prompt"] == prompt_spec(0, 0).text
    )
    assert "scale_values" in (out / "instructions" / "assembly.jsonl").read_text()

    assert main(["dataset", "build", "--synthesise-with", str(checkpoint), *common]) == 0
    again = json.loads((out / "stats.json").read_text())["synthesis"]
    assert (
        again["identity"].startswith("transformers:")
        and again["cached"] == 0
        and again["accepted"] == 1
    )
    row = datasets.load_dataset(str(out), "programs", split="train").to_list()[0]
    assert row["synthesiser"] == again["identity"] and row["cache_hits"] >= 4  # port, compiles, run
