"""Training CASS models: supervised fine-tuning on the dataset's instruction JSONL.

    records = data.load_records([Path("OUT/instructions")])        # validated, located errors
    result = run.train(run.TrainOptions(data=[...], output=Path("m"), scratch_size="10m"))
    # result.model_dir: a Qwen2 checkpoint `cass model convert` turns into a GGUF

The parts: `data` (the JSONL the dataset pipeline writes -> prompt/completion examples),
`scratch` (a tokenizer trained on the data and a small Qwen2 configuration, for users with no
base checkpoint), `run` (TRL's SFTTrainer: packing, LoRA through peft, bf16, gradient
checkpointing, DeepSpeed ZeRO, resumable checkpoints), `card` (the loss curve and the run card).
"""
