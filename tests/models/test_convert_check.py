"""`cass model convert` and `cass model check` on tiny real checkpoints, and every bad input."""

from __future__ import annotations

import json
import shutil

import pytest
from cass.models.llm.check import check_model, read_gguf, require_chat_model
from cass.models.llm.convert import convert_checkpoint
from cass.runner.diagnostics import CassError
from cass.server.cli import main

pytestmark = pytest.mark.model


@pytest.mark.parametrize(
    ("quant", "matrix_type"), [("f16", "F16"), ("q8_0", "Q8_0"), ("q4_0", "Q4_0")]
)
def test_convert_writes_a_qwen2_gguf_with_tokenizer_and_template(
    checkpoints, tmp_path, quant, matrix_type
):
    out = tmp_path / f"m-{quant}.gguf"
    assert (
        main(["model", "convert", str(checkpoints["random"]), "--quant", quant, "-o", str(out)])
        == 0
    )
    info = read_gguf(out)
    require_chat_model(info)
    assert info.architecture == "qwen2" and info.context_length == 4096
    assert info.tensor_types[matrix_type] == 2 * 7 + 2  # 7 matrices a layer, embedding, output
    assert info.tensor_types["F32"] == 2 * 5 + 1  # 2 norms + 3 biases a layer, final norm
    assert "<|im_start|>" in info.chat_template and info.vocab_size % 32 == 0


def test_check_loads_and_times_the_model(ggufs, capsys):
    report = check_model(ggufs["random"], tokens=16)
    assert report.generated_tokens > 0 and report.tokens_per_s > 0 and report.prompt_tokens > 10
    assert main(["model", "check", str(ggufs["random"]), "--tokens", "8"]) == 0
    shown = capsys.readouterr().out
    assert "qwen2" in shown and "tokens/s" in shown and "Q8_0" in shown


def test_truncated_missing_and_foreign_files_are_clear_errors(ggufs, tmp_path, capsys):
    cut = tmp_path / "cut.gguf"
    cut.write_bytes(ggufs["random"].read_bytes()[: ggufs["random"].stat().st_size // 2])
    assert main(["model", "check", str(cut)]) == 2
    assert "truncated" in capsys.readouterr().err
    with pytest.raises(CassError, match="no such model file"):
        read_gguf(tmp_path / "absent.gguf")
    text = tmp_path / "notes.gguf"
    text.write_text("hello")
    with pytest.raises(CassError, match="not a GGUF file"):
        read_gguf(text)


def test_gguf_of_another_architecture_is_refused(libraries, tmp_path):
    import gguf
    import numpy as np

    path = tmp_path / "llama.gguf"
    writer = gguf.GGUFWriter(str(path), arch="llama")
    writer.add_context_length(128)
    writer.add_tensor("token_embd.weight", np.zeros((4, 32), dtype=np.float32))
    writer.write_header_to_file()
    writer.write_kv_data_to_file()
    writer.write_tensors_to_file()
    writer.close()
    with pytest.raises(CassError, match="architecture 'llama'"):
        require_chat_model(read_gguf(path))


def test_bad_checkpoints(checkpoints, tmp_path):
    with pytest.raises(CassError, match="not a directory"):
        convert_checkpoint(tmp_path / "nothing", tmp_path / "o.gguf")
    broken = tmp_path / "llama-ckpt"
    shutil.copytree(checkpoints["random"], broken)
    config = json.loads((broken / "config.json").read_text())
    (broken / "config.json").write_text(
        json.dumps({**config, "architectures": ["LlamaForCausalLM"]})
    )
    with pytest.raises(CassError, match="only Qwen2"):
        convert_checkpoint(broken, tmp_path / "o.gguf")
    (broken / "config.json").write_text(json.dumps(config))
    (broken / "tokenizer_config.json").write_text(json.dumps({"eos_token": "<|im_end|>"}))
    (broken / "chat_template.jinja").unlink(missing_ok=True)
    with pytest.raises(CassError, match="no chat template"):
        convert_checkpoint(broken, tmp_path / "o.gguf")
    assert not (tmp_path / "o.gguf").exists() and not (tmp_path / "o.gguf.partial").exists()
    existing = tmp_path / "exists.gguf"
    existing.write_text("mine")
    with pytest.raises(CassError, match="--force"):
        convert_checkpoint(checkpoints["random"], existing)
    assert existing.read_text() == "mine"


def test_model_list_shows_what_the_user_has(checkpoints, tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("CASS_MODELS", str(tmp_path))
    shutil.copytree(checkpoints["random"], tmp_path / "cass-src-1.5b")
    (tmp_path / "cass-smA100-7b-q4_0.gguf").write_bytes(b"GGUF")
    assert main(["model", "list"]) == 0
    shown = capsys.readouterr().out
    assert str(tmp_path / "cass-src-1.5b") in shown and "cass-smA100-7b-q4_0.gguf" in shown
    assert "cass-sm4090-3b" in shown and "sm_89" in shown
