"""`cass model train`: supervised fine-tuning with TRL's SFTTrainer.

    result = train(TrainOptions(data=[Path("ds")], output=Path("m"), scratch_size="10m"))

What it does, top to bottom: read and check the dataset (`data`) -> the model: a base checkpoint
(full fine-tune, or LoRA adapters through peft) or a Qwen2 model from scratch with a tokenizer
trained on the data (`scratch`) -> SFTConfig (packed sequences, loss on the answers only, bf16
and Liger kernels on a GPU that has them, gradient checkpointing, DeepSpeed ZeRO) -> train,
resuming from the newest checkpoint with `resume` -> evaluate on the test split -> save the
merged model with its tokenizer in OUT/model -> the loss curve and the run card (`card`).

OUT holds checkpoints/ (resumable), tokenizer/ (from scratch), model/ (what `cass model convert`
reads), loss.png, README.md (the run card) and run.json.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from cass.models.training import card, data, scratch
from cass.models.training.data import TASKS
from cass.runner.diagnostics import CassError

LORA_TARGETS = ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj"]
Progress = Callable[[int, int, "float | None"], None]  # step, total steps, latest loss


@dataclass
class TrainOptions:
    data: list[Path]
    output: Path
    base: Path | None = None
    scratch_size: str | None = None
    tasks: tuple[str, ...] = TASKS
    max_length: int = 2048
    epochs: float = 1.0
    max_steps: int = -1
    batch_size: int = 4
    grad_accum: int = 1
    learning_rate: float | None = None
    lora: bool = False
    lora_rank: int = 16
    packing: bool = True
    loss_on: str = (
        "auto"  # answer: the port only; all: prompt too; auto: all from scratch, answer otherwise
    )
    gradient_checkpointing: bool = False
    precision: str = "auto"  # auto: bf16 on a GPU that has it, else fp32
    deepspeed: str | None = None  # zero2, zero3 or a config file
    optim: str = "adamw_torch"
    save_steps: int = 200
    time_limit_s: float | None = None  # stop, save a checkpoint and finish after this long
    seed: int = 0
    resume: bool = False
    force: bool = False


@dataclass
class TrainResult:
    model_dir: Path
    steps: int
    losses: list[tuple[int, float]] = field(default_factory=list)
    eval_loss: float | None = None
    tokens_seen: int = 0
    train_s: float = 0.0
    parameters: int = 0
    trainable: int = 0
    device: str = "cpu"
    resumed_from: str | None = None
    stopped_early: bool = False


def _need(module: str, extra: str = "train") -> None:
    if importlib.util.find_spec(module) is None:
        raise CassError(f"training needs the `{module}` package: pip install 'cass[{extra}]'")


def check_options(o: TrainOptions) -> None:
    if (o.base is None) == (o.scratch_size is None):
        raise CassError("give one of --base CHECKPOINT_DIR (fine-tune) or --from-scratch SIZE")
    if o.base is not None and not (o.base / "config.json").is_file():
        raise CassError(f"{o.base}: not a Hugging Face checkpoint folder (no config.json)")
    if o.scratch_size is not None:
        scratch.size_of(o.scratch_size)
        if o.lora:
            raise CassError(
                "--lora adapts a base checkpoint; a model from scratch trains all its weights"
            )
    if o.loss_on not in ("auto", "answer", "all"):
        raise CassError(f"unknown --loss-on {o.loss_on!r}; choose auto, answer or all")
    if o.precision not in ("auto", "bf16", "fp16", "fp32"):
        raise CassError(f"unknown --precision {o.precision!r}; choose auto, bf16, fp16 or fp32")
    if o.output.exists() and not o.output.is_dir():
        raise CassError(f"{o.output}: exists and is not a folder; -o names the training folder")
    busy = o.output.is_dir() and any(o.output.iterdir())
    if busy and not (o.resume or o.force):
        raise CassError(
            f"{o.output}: not empty; pass --resume to continue its training or --force to start again"
        )
    if o.resume and not o.output.is_dir():
        raise CassError(f"{o.output}: nothing to resume (no such folder); drop --resume")


def _device() -> tuple[str, bool]:
    import torch

    if torch.cuda.is_available():
        return torch.cuda.get_device_name(0), torch.cuda.is_bf16_supported()
    return "cpu", False


def load_model(o: TrainOptions, records: list[data.Record]) -> tuple[Any, Any]:
    """(model, tokenizer): the base checkpoint, or a new Qwen2 with a tokenizer of its own
    (kept in OUT/tokenizer, so a resumed run reads the same one)."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    if o.base is not None:
        tokenizer = AutoTokenizer.from_pretrained(o.base)
        return AutoModelForCausalLM.from_pretrained(o.base, dtype="auto"), tokenizer
    size = scratch.size_of(o.scratch_size or "")
    folder = o.output / "tokenizer"
    if o.resume and (folder / "tokenizer.json").is_file():
        tokenizer = AutoTokenizer.from_pretrained(folder)
    else:
        tokenizer = scratch.train_tokenizer(records, size.vocab, folder)
    return scratch.build_model(size, tokenizer, o.max_length, o.seed), tokenizer


def deepspeed_config(name: str | None, output: Path) -> str | None:
    """A ZeRO stage-2 or stage-3 config written into OUT (or the user's own file), for
    `accelerate launch --num_processes N $(which cass) model train ... --deepspeed zero3`."""
    if name is None:
        return None
    _need("deepspeed", "train")
    if name not in ("zero2", "zero3"):
        if not Path(name).is_file():
            raise CassError(f"{name}: no such DeepSpeed config; give zero2, zero3 or a JSON file")
        return name
    zero: dict[str, Any] = {
        "stage": int(name[-1]),
        "overlap_comm": True,
        "contiguous_gradients": True,
    }
    if name == "zero3":
        zero["stage3_gather_16bit_weights_on_model_save"] = True
    config = {"zero_optimization": zero, "bf16": {"enabled": "auto"}, "fp16": {"enabled": "auto"},
              "train_micro_batch_size_per_gpu": "auto", "gradient_accumulation_steps": "auto",
              "gradient_clipping": "auto", "train_batch_size": "auto"}  # fmt: skip
    path = output / "deepspeed.json"
    path.write_text(json.dumps(config, indent=2) + "\n", encoding="utf-8")
    return str(path)


def sft_config(o: TrainOptions, bf16_ok: bool, on_gpu: bool) -> Any:
    from trl import SFTConfig

    precision = ("bf16" if bf16_ok else "fp32") if o.precision == "auto" else o.precision
    rate = o.learning_rate or (1e-3 if o.scratch_size else 2e-4 if o.lora else 2e-5)
    # passed only when asked for: transformers 5 warns that the name is deprecated
    checkpointing: dict[str, Any] = (
        {"gradient_checkpointing": True} if o.gradient_checkpointing else {}
    )
    answer_only = _answer_only(o)
    return SFTConfig(
        output_dir=str(o.output / "checkpoints"), max_length=o.max_length, packing=o.packing,
        # a model from scratch learns the language from every token, so long examples are cut
        # into blocks; with the loss on the answers only, a block of prompt alone would teach
        # nothing, so examples are kept whole (cut at max_length instead)
        packing_strategy="bfd" if answer_only else "bfd_split", completion_only_loss=answer_only,
        per_device_train_batch_size=o.batch_size, per_device_eval_batch_size=o.batch_size,
        gradient_accumulation_steps=o.grad_accum, learning_rate=rate, num_train_epochs=o.epochs,
        max_steps=o.max_steps, lr_scheduler_type="cosine", warmup_steps=0.05, weight_decay=0.01,
        logging_steps=1, save_strategy="steps", save_steps=o.save_steps, save_total_limit=2,
        eval_strategy="no", bf16=precision == "bf16", fp16=precision == "fp16",
        **checkpointing, optim=o.optim, seed=o.seed,
        use_liger_kernel=on_gpu and importlib.util.find_spec("liger_kernel") is not None,
        deepspeed=deepspeed_config(o.deepspeed, o.output), report_to=[], disable_tqdm=True,
        include_num_input_tokens_seen="non_padding", dataloader_num_workers=0, dataloader_pin_memory=on_gpu,
        dataset_num_proc=min(8, (os.cpu_count() or 2) - 1) if on_gpu else None,
    )  # fmt: skip


def _answer_only(o: TrainOptions) -> bool:
    return o.loss_on == "answer" or (o.loss_on == "auto" and o.scratch_size is None)


def _whole(records: list[data.Record], tokenizer: Any, max_length: int, say: Callable[[str], None],
           required: bool = True) -> list[data.Record]:  # fmt: skip
    """With the loss on the answers only, an example longer than max_length would lose its
    answer to truncation (and teach nothing): such examples are left out, and said so."""

    def length(record: data.Record) -> int:
        text = tokenizer.apply_chat_template(list(record.messages), tokenize=False)
        return len(tokenizer(text, add_special_tokens=False)["input_ids"])

    kept = [r for r in records if length(r) <= max_length]
    if not kept and required:
        raise CassError(
            f"every {records[0].split} example is longer than --max-length {max_length} tokens; "
            "raise --max-length, or use --loss-on all (long examples are then cut into blocks)"
        )
    if len(kept) < len(records):
        say(
            f"{len(records) - len(kept)} of {len(records)} {records[0].split} examples are longer than "
            f"--max-length {max_length} tokens and were left out (their answers would be cut off)"
        )
    return kept


def _watch(progress: Progress | None, time_limit_s: float | None) -> Any:
    from transformers import TrainerCallback

    class Watch(TrainerCallback):  # progress, and a clean stop (checkpoint saved) at the time limit
        started = time.monotonic()
        stopped = False

        def on_log(self, args, state, control, logs=None, **kwargs):
            if progress is not None and logs and "loss" in logs:
                progress(state.global_step, state.max_steps, float(logs["loss"]))

        def on_step_end(self, args, state, control, **kwargs):
            if time_limit_s is not None and time.monotonic() - self.started > time_limit_s:
                control.should_training_stop = control.should_save = True
                self.stopped = True

    return Watch()


def _last_checkpoint(o: TrainOptions) -> str | None:
    from transformers.trainer_utils import get_last_checkpoint

    folder = o.output / "checkpoints"
    if not o.resume or not folder.is_dir():
        return None
    return get_last_checkpoint(str(folder))


def train(o: TrainOptions, progress: Progress | None = None,
          note: Callable[[str], None] | None = None) -> TrainResult:  # fmt: skip
    """Size: one pipeline read top to bottom (see the module docstring); each step one call."""
    check_options(o)
    for module in ("trl", "transformers", "datasets", "torch"):
        _need(module)
    say = note or (lambda _text: None)
    records = data.load_records(o.data, o.tasks)
    train_records, test_records = data.split(records, "train"), data.split(records, "test")
    if not train_records:
        raise CassError(f"no examples in the train split of {', '.join(map(str, o.data))}")
    say(f"data: {data.summary(records)}")
    if o.force and not o.resume:
        shutil.rmtree(o.output / "checkpoints", ignore_errors=True)
    o.output.mkdir(parents=True, exist_ok=True)
    device, bf16_ok = _device()
    model, tokenizer = load_model(o, train_records)
    if _answer_only(o):
        train_records = _whole(train_records, tokenizer, o.max_length, say)
        test_records = (
            _whole(test_records, tokenizer, o.max_length, say, required=False)
            if test_records
            else []
        )
    watch = _watch(progress, o.time_limit_s)
    trainer = _trainer(
        o, model, tokenizer, train_records, test_records, watch, bf16_ok, device != "cpu"
    )
    resume_from = _last_checkpoint(o)
    if resume_from:
        say(f"resuming from {resume_from}")
    parameters = sum(p.numel() for p in trainer.model.parameters())
    trainable = sum(p.numel() for p in trainer.model.parameters() if p.requires_grad)
    started = time.perf_counter()
    trainer.train(resume_from_checkpoint=resume_from)
    train_s = time.perf_counter() - started
    eval_loss = trainer.evaluate()["eval_loss"] if test_records else None
    model_dir = _save(trainer, tokenizer, o)
    result = TrainResult(
        model_dir=model_dir, steps=trainer.state.global_step,
        losses=[(int(e["step"]), float(e["loss"])) for e in trainer.state.log_history if "loss" in e],
        eval_loss=eval_loss, tokens_seen=int(trainer.state.num_input_tokens_seen or 0), train_s=train_s,
        parameters=parameters, trainable=trainable,
        device=device, resumed_from=resume_from, stopped_early=watch.stopped,
    )  # fmt: skip
    card.write_card(o, result, data.summary(records))
    return result


def _trainer(o: TrainOptions, model: Any, tokenizer: Any, train_records: list[data.Record],
             test_records: list[data.Record], watch: Any, bf16_ok: bool, on_gpu: bool) -> Any:  # fmt: skip
    from datasets import Dataset, disable_progress_bars
    from transformers import PrinterCallback
    from transformers.utils import logging as hf_logging
    from trl import SFTTrainer

    hf_logging.disable_progress_bar()  # progress is the caller's (rich, in the CLI)
    disable_progress_bars()

    peft_config = None
    if o.lora:
        _need("peft")
        from peft import LoraConfig

        peft_config = LoraConfig(r=o.lora_rank, lora_alpha=2 * o.lora_rank, lora_dropout=0.05,
                                 target_modules=LORA_TARGETS, task_type="CAUSAL_LM")  # fmt: skip
    to_dataset = lambda rs: Dataset.from_list([r.example() for r in rs])  # noqa: E731
    trainer = SFTTrainer(
        model=model, args=sft_config(o, bf16_ok, on_gpu), processing_class=tokenizer,
        train_dataset=to_dataset(train_records),
        eval_dataset=to_dataset(test_records) if test_records else None,
        peft_config=peft_config, callbacks=[watch],
    )  # fmt: skip
    trainer.remove_callback(PrinterCallback)
    return trainer


def _save(trainer: Any, tokenizer: Any, o: TrainOptions) -> Path:
    """OUT/model: the trained weights (LoRA adapters merged in) and the tokenizer, written to
    a temporary folder and renamed, so a half-written model never has the real name."""
    from cass.runner.outputs import staged_dir

    model = trainer.model
    if o.lora:
        model = model.merge_and_unload()
    final = o.output / "model"
    with staged_dir(final, replace=True) as partial:
        model.save_pretrained(partial, safe_serialization=True)
        tokenizer.save_pretrained(partial)
        (partial / "training_args.json").write_text(
            json.dumps(asdict(o), default=str, indent=2) + "\n"
        )
    return final
