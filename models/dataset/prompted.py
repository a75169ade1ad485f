"""A model as a source of programs: each templated prompt (prompts.py) is sent to a model, and the
CUDA in its answer becomes a program that goes through the same stages as any other.

    model = open_synthesiser("bundled", ModelOptions(max_tokens=2048, timeout_s=600))
    units, summary = synthesise(model, prompt_specs(50, seed=1), cache_root, Sampling(temperature=0.7))

A model is named as `--model` names one: `bundled` (the GGUF that ships with cass), a `.gguf`
file (llama.cpp), a checkpoint folder (transformers) or the http(s) URL of an OpenAI-compatible
server. Its identity (what the answers are cached under) is read without loading it: the file's
size and a hash of its first and last 8 MiB, a checkpoint's configuration and weight files, the
server's URL and the model it serves. Every answer is cached under (identity, prompt, sampling),
so a rerun loads no model when every answer is in the cache; answers that ran past the time limit
are not cached (a rerun asks again).

The code is the answer's fenced block (```cuda first, else the longest fence; a fence the answer
never closed gives the code up to the end, marked cut off, as is any answer that reached the token
limit); an answer with no fence that still holds a kernel, an `#include` or a `main()` counts as
unfenced code. Every answer's outcome is
counted: the card shows how many prompts gave code, and the later stages how much of it compiled.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from cass.models.dataset.cache import StageCache, content_key
from cass.models.dataset.prompts import PromptSpec
from cass.models.dataset.stages import Unit
from cass.models.llm.backend import ChatBackend, ModelOptions, Sampling, generate
from cass.models.llm.extract import extract_code
from cass.runner.diagnostics import CassError

CODE_HINT = re.compile(r"__global__|#\s*include|\bint\s+main\s*\(")
EDGE_BYTES = 8 * 1024 * 1024
MAIN = re.compile(r"\bint\s+main\s*\(")


@dataclass
class Synthesiser:
    """The model named on the command line, loaded only when an answer is not in the cache."""

    spec: str
    model: str  # the path or URL it resolves to
    identity: str
    options: ModelOptions
    backend: ChatBackend | None = None

    def open(self) -> ChatBackend:
        if self.backend is None:
            from cass.models.llm.backends import open_backend

            self.backend = open_backend(self.model, self.options)
        return self.backend

    def close(self) -> None:
        if self.backend is not None:
            self.backend.close()
            self.backend = None


def _file_identity(path: Path) -> str:
    size = path.stat().st_size
    h = hashlib.sha256(str(size).encode())
    with path.open("rb") as f:
        h.update(f.read(EDGE_BYTES))
        if size > EDGE_BYTES:
            f.seek(max(EDGE_BYTES, size - EDGE_BYTES))
            h.update(f.read())
    return f"llama_cpp:{path.name}:{size}:{h.hexdigest()[:16]}"


def _folder_identity(path: Path) -> str:
    h = hashlib.sha256()
    for item in sorted(path.iterdir()):
        if item.suffix == ".json":
            h.update(item.name.encode() + b"\0" + item.read_bytes())
        elif item.suffix in (".safetensors", ".bin"):
            h.update(f"{item.name}:{item.stat().st_size}".encode())
    return f"transformers:{path.name}:{h.hexdigest()[:16]}"


def open_synthesiser(spec: str, options: ModelOptions) -> Synthesiser:
    """The model `spec` names, checked now (a bad spec fails before any other work)."""
    from cass.models.llm.catalog import bundled_model_path

    if spec == "bundled":
        bundled = bundled_model_path()
        if bundled is None:
            raise CassError(
                "--synthesise-with bundled: this install has no bundled model; give a .gguf file, a checkpoint folder or a server URL"
            )
        spec_path = str(bundled)
    else:
        spec_path = spec
    if spec_path.startswith(("http://", "https://")):
        synth = Synthesiser(spec, spec_path, "", options)
        backend = synth.open()  # asks the server which model it serves; unreachable: one line
        synth.identity = f"http:{backend.model_id}"
        return synth
    path = Path(spec_path).expanduser()
    if path.is_dir():
        if not (path / "config.json").is_file():
            raise CassError(
                f"{spec}: not a model checkpoint (no config.json); give a .gguf file, a checkpoint folder or an http:// URL"
            )
        return Synthesiser(spec, str(path), _folder_identity(path), options)
    if not path.is_file():
        raise CassError(
            f"{spec}: no such model file or folder; give `bundled`, a .gguf file, a checkpoint folder or an http:// URL"
        )
    from cass.models.llm.gguf_file import read_gguf, require_chat_model

    require_chat_model(read_gguf(path))  # not a GGUF chat model: one located line
    return Synthesiser(spec, str(path), _file_identity(path), options)


def extract_program(answer: str) -> tuple[str, str]:
    """(code, how): how is fenced, cut-off (a fence never closed), unfenced, or no-code."""
    block = extract_code(answer, "cuda")
    if block is not None and block.code.strip():
        return block.code, "fenced" if block.closed else "cut-off"
    if CODE_HINT.search(answer):
        return answer.strip() + "\n", "unfenced"
    return "", "no-code"


def _answer(synth: Synthesiser, spec: PromptSpec, sampling: Sampling) -> dict[str, Any]:
    backend = synth.open()
    messages = [{"role": "user", "content": spec.text}]
    room = backend.context_tokens - backend.count_tokens(spec.text) - 64
    if room < 64:
        return {"finish": "too-long", "text": "", "completion_tokens": 0,
                "seconds": 0.0, "detail": f"the prompt leaves {room} tokens of the model's {backend.context_tokens}"}  # fmt: skip
    limit = replace(
        sampling, seed=spec.sampling_seed, max_tokens=max(64, min(sampling.max_tokens, room))
    )
    result = generate(backend, messages, limit, time_limit_s=synth.options.timeout_s)
    finish = result.finish
    if finish == "stop" and result.elapsed_s >= synth.options.timeout_s:
        finish = "timeout"  # llama.cpp ends a late answer itself (end of sequence) before any text
    if finish == "stop" and backend.count_tokens(result.text) >= limit.max_tokens:
        finish = "length"  # a backend that counts text pieces, not tokens, reports "stop"
    return {"finish": finish, "text": result.text, "completion_tokens": result.completion_tokens,
            "seconds": round(result.elapsed_s, 3), "detail": ""}  # fmt: skip


def with_code(answer: dict[str, Any]) -> dict[str, Any]:
    """The answer (as cached: the model's text and how it ended) with its code and how the code
    was found; computed on every run, so a rule changed here applies to cached answers too."""
    finish = answer["finish"]
    code, how = extract_program(answer["text"]) if finish in ("stop", "length") else ("", "no-code")
    if how in ("fenced", "unfenced") and finish == "length":
        how = "cut-off"  # the answer reached the token limit: the code may be incomplete
    return {**answer, "code": code, "extraction": how}


def _unit(spec: PromptSpec, synth: Synthesiser, answer: dict[str, Any]) -> Unit:
    meta = {"prompt": spec.text, "prompt_spec": json.dumps(spec.fields(), sort_keys=True), "synthesiser": synth.identity,
            "extraction": answer["extraction"], "generation_seconds": answer["seconds"],
            "value_type": spec.value_type, "blocks": list(spec.algorithm)}  # fmt: skip
    return Unit(spec.ident, "model", spec.domain, f"{spec.ident}/main.cu", answer["code"],
                bool(MAIN.search(answer["code"])), meta=meta)  # fmt: skip


@dataclass
class Summary:
    """What the prompts gave: counts per outcome (the card's synthesis table)."""

    counts: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    tokens: int = 0

    def as_dict(self, synth: Synthesiser, n: int) -> dict[str, Any]:
        c = self.counts
        return {"model": synth.spec, "identity": synth.identity, "prompts": n, "cached": c["cached"],
                "answered": c["answered"], "timeout": c["timeout"], "loop": c["loop"], "too-long": c["too-long"],
                "no-code": c["no-code"], "code": c["fenced"] + c["cut-off"] + c["unfenced"], "fenced": c["fenced"],
                "cut-off": c["cut-off"], "unfenced": c["unfenced"], "generation_s": round(self.seconds, 1),
                "completion_tokens": self.tokens}  # fmt: skip


def synthesise(synth: Synthesiser, specs: list[PromptSpec], cache_root: Path, sampling: Sampling,
               progress: Callable[[str, dict[str, Any]], None] | None = None) -> tuple[list[Unit], dict[str, Any]]:  # fmt: skip
    """Ask the model every prompt (cached answers reused); the programs it wrote and the counts."""
    cache = StageCache(cache_root)
    report = progress or (lambda _stage, _data: None)
    summary, units = Summary(), []
    sampling_key = json.dumps({"temperature": sampling.temperature, "top_p": sampling.top_p,
                               "max_tokens": sampling.max_tokens}, sort_keys=True)  # fmt: skip
    report("synthesis", {"prompts": len(specs)})
    try:
        for spec in specs:
            key = content_key(
                "synthesise", synth.identity, spec.text, sampling_key, str(spec.sampling_seed)
            )
            answer = cache.get("synthesise", key)
            if answer is not None:
                summary.counts["cached"] += 1
            else:
                answer = _answer(synth, spec, sampling)
                if answer["finish"] != "timeout":  # the entry names what it answers
                    cache.put(
                        "synthesise", key, {**answer, "prompt": spec.text, "model": synth.identity}
                    )
            answer = with_code(answer)
            summary.seconds += answer["seconds"]
            summary.tokens += answer["completion_tokens"]
            if answer["finish"] in ("stop", "length"):
                summary.counts["answered"] += 1
            summary.counts[
                answer["finish"]
                if answer["finish"] in ("timeout", "loop", "too-long")
                else answer["extraction"]
            ] += 1
            if answer["code"]:
                units.append(_unit(spec, synth, answer))
            report(
                "answer",
                {"id": spec.ident, "extraction": answer["extraction"], "finish": answer["finish"]},
            )
    finally:
        synth.close()  # before the stages fork their workers
    return units, summary.as_dict(synth, len(specs))  # fmt: skip
