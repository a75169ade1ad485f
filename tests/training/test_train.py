"""`cass model train` on a tiny dataset made here: the loss falls, training resumes from its
checkpoint, the model converts to GGUF and llama.cpp runs it; the bundled model passes
`cass model check`; bad datasets and options are one clear line each."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from cass.models.llm.prompts import training_messages
from cass.models.training.data import load_records
from cass.models.training.run import TrainOptions, train
from cass.runner.diagnostics import CassError
from cass.server.cli import main

pytestmark = pytest.mark.model
EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def write_dataset(folder: Path) -> Path:
    """The examples' CUDA programs and their HIP ports as source examples (saxpy held back)."""
    lines = []
    for cu in sorted(EXAMPLES.glob("*.cu")) + [EXAMPLES / "verify" / "saxpy.cu"]:
        port = cu.with_suffix(".hip").read_text()
        messages = training_messages("source", cu.read_text(), port)
        split = "test" if cu.stem == "saxpy" else "train"
        lines.append(json.dumps({"id": f"source/examples/{cu.stem}", "task": "source", "domain": "examples",
                                 "split": split, "messages": messages}))  # fmt: skip
    path = folder / "instructions" / "source.jsonl"
    path.parent.mkdir(parents=True)
    path.write_text("\n".join(lines) + "\n")
    return folder


def options(data: Path, out: Path, **changes) -> TrainOptions:
    base = {"data": [data], "output": out, "scratch_size": "tiny", "max_length": 256, "batch_size": 2,
            "learning_rate": 1e-2, "max_steps": 16, "save_steps": 8}  # fmt: skip
    return TrainOptions(**{**base, **changes})


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    for module in ("trl", "transformers", "datasets", "llama_cpp", "gguf"):
        pytest.importorskip(module)
    root = tmp_path_factory.mktemp("train")
    data = write_dataset(root / "data")
    seen = []
    result = train(
        options(data, root / "run"), progress=lambda step, total, loss: seen.append((step, total))
    )
    return data, root / "run", result, seen


def test_loss_falls_and_the_run_card_is_written(trained):
    _, out, result, seen = trained
    assert result.steps == 16 and len(result.losses) == 16 and seen[-1] == (16, 16)
    first, last = [loss for _, loss in result.losses[:3]], [loss for _, loss in result.losses[-3:]]
    assert sum(last) / 3 < 0.85 * sum(first) / 3, result.losses
    assert result.eval_loss is not None and result.tokens_seen > 0
    assert (out / "loss.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    card = (out / "README.md").read_text()
    assert "from scratch, size tiny" in card and "source/test 1" in card
    assert json.loads((out / "run.json").read_text())["result"]["steps"] == 16
    assert {"config.json", "tokenizer.json", "model.safetensors"} <= {
        p.name for p in (out / "model").iterdir()
    }


def test_training_resumes_from_its_newest_checkpoint(trained, tmp_path):
    data, out, _, _ = trained
    copy = tmp_path / "run"
    shutil.copytree(out, copy)
    result = train(options(data, copy, max_steps=20, resume=True))
    assert result.resumed_from and result.resumed_from.endswith("checkpoint-16")
    assert result.steps == 20 and [s for s, _ in result.losses][-4:] == [17, 18, 19, 20]


def test_lora_on_a_base_checkpoint_trains_adapters_and_merges_them(trained, tmp_path):
    pytest.importorskip("peft")
    from safetensors import safe_open

    data, out, _, _ = trained
    result = train(options(data, tmp_path / "lora", scratch_size=None, base=out / "model", lora=True,
                           lora_rank=4, max_length=1024, max_steps=4))  # fmt: skip
    assert 0 < result.trainable < result.parameters // 2
    assert result.losses and all(loss > 0 for _, loss in result.losses)  # answers in the window
    with safe_open(str(result.model_dir / "model.safetensors"), "np") as weights:
        names = list(weights.keys())
    assert names and not [n for n in names if "lora" in n]  # adapters merged into plain weights


def test_the_trained_model_converts_and_llama_cpp_runs_it(trained, tmp_path, capsys):
    from cass.models.llm.check import check_model

    _, out, _, _ = trained
    for quant in ("q8_0", "q4_0"):
        gguf = tmp_path / f"tiny-{quant}.gguf"
        assert (
            main(["model", "convert", str(out / "model"), "--quant", quant, "-o", str(gguf)]) == 0
        )
        report = check_model(gguf, tokens=8)
        assert report.generated_tokens > 0 and report.info.architecture == "qwen2"
        assert report.info.context_length == 256 and "<|im_start|>" in report.info.chat_template


def test_the_bundled_model_passes_check_and_is_the_default(monkeypatch, capsys):
    from cass.models.llm.catalog import bundled_model_path, resolve_model

    pytest.importorskip("llama_cpp")
    bundled = bundled_model_path()
    assert bundled is not None and bundled.stat().st_size < 8 * 2**20
    assert main(["model", "check", str(bundled), "--tokens", "8"]) == 0
    assert "qwen2" in capsys.readouterr().out
    monkeypatch.delenv("CASS_MODEL", raising=False)
    assert resolve_model("") == str(bundled) and resolve_model("x.gguf") == "x.gguf"
    assert main(["model", "list"]) == 0
    assert f"cass-scratch-10m: {bundled} (trained on" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", r"data.jsonl:2: not valid JSON"),
        ('{"id": "a", "task": "ptx", "domain": "d", "split": "train", "messages": []}', r"data.jsonl:2: task 'ptx'"),
        ('{"id": "a", "task": "source", "domain": "d", "split": "dev", "messages": []}', r"data.jsonl:2: split 'dev'"),
        ('{"id": "a", "task": "source", "domain": "d", "split": "train", "messages": [{"role": "user", "content": "x"}]}',
         r"data.jsonl:2: 'messages' must be"),
        ("the good line again", r"id 'ok' appears twice"),
    ],
)  # fmt: skip
def test_bad_dataset_lines_are_located(tmp_path, line, message):
    good = {"id": "ok", "task": "source", "domain": "d", "split": "train",
            "messages": training_messages("source", "a", "b")}  # fmt: skip
    path = tmp_path / "data.jsonl"
    line = json.dumps(good) if line == "the good line again" else line
    path.write_text(json.dumps(good) + "\n" + line + "\n")
    with pytest.raises(CassError, match=message):
        load_records([path])


def test_bad_options_are_one_line(tmp_path, capsys):
    data = write_dataset(tmp_path / "data")
    assert main(["model", "train", "--data", str(data), "-o", str(tmp_path / "o")]) == 2
    assert (
        "give one of --base CHECKPOINT_DIR (fine-tune) or --from-scratch SIZE"
        in capsys.readouterr().err
    )
    assert (
        main(
            [
                "model",
                "train",
                "--data",
                str(data),
                "--from-scratch",
                "huge",
                "-o",
                str(tmp_path / "o"),
            ]
        )
        == 2
    )
    assert "unknown --from-scratch size 'huge'" in capsys.readouterr().err
    assert (
        main(
            [
                "model",
                "train",
                "--data",
                str(tmp_path / "nothing"),
                "--from-scratch",
                "tiny",
                "-o",
                str(tmp_path / "o"),
            ]
        )
        == 2
    )
    assert "no such file or folder" in capsys.readouterr().err
    (tmp_path / "busy").mkdir()
    (tmp_path / "busy" / "f").write_text("x")
    assert (
        main(
            [
                "model",
                "train",
                "--data",
                str(data),
                "--from-scratch",
                "tiny",
                "-o",
                str(tmp_path / "busy"),
            ]
        )
        == 2
    )
    assert "pass --resume" in capsys.readouterr().err
