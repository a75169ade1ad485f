"""The dataset's files: Parquet tables (programs, kernels; train and test), the instruction JSONL
in the published CASS chat format, statistics and the card.

    OUT/data/programs-{train,test}-HASH.parquet   one row per program (every stage's outcome)
    OUT/data/kernels-{train,test}-HASH.parquet    one row per aligned kernel and SASS arch
    OUT/instructions/source.jsonl            {"id", "task": "source", "domain", "split", "messages"}
    OUT/instructions/assembly.jsonl          {"id", "task": "assembly", "domain", "split", "messages"}
    OUT/stats.json, OUT/plots/*.png, OUT/README.md (the card; `datasets.load_dataset(OUT, "programs")`)

Only accepted programs (verified against an NVIDIA run, or self-checked on the emulator where no
NVIDIA run was recorded) go into the instruction files; the Parquet tables hold every program
with its statuses, so the failures can be studied too.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
from pathlib import Path
from typing import Any

from cass.models.dataset.stages import count_tokens
from cass.runner.outputs import write_atomic

ACCEPTED = ("verified", "self-checked")
SASS_ENCODING = re.compile(r"/\*[^*]*\*/")


def split_of(ident: str, test_fraction: float) -> str:
    bucket = int(hashlib.sha256(ident.encode()).hexdigest()[:8], 16) % 10000
    return "test" if bucket < test_fraction * 10000 else "train"


def compact_sass(sass: str) -> str:
    """SASS as the CASS models read it: addresses, encodings and comments removed, one
    instruction per line, runs of blanks collapsed (the paper strips CUDA assembly so)."""
    lines = []
    for line in sass.splitlines():
        text = " ".join(SASS_ENCODING.sub(" ", line).split())
        if text:
            lines.append(text)
    return "\n".join(lines) + "\n"


def program_row(record: dict[str, Any], split: str) -> dict[str, Any]:
    """Size: one flat row, a column per field of the card's schema table."""
    port, hip = record["port"], record["hip_compile"]
    nvidia = [{"arch": arch, "status": c["status"], "error": c.get("error", ""), "sass": c.get("sass", ""),
               "host_asm": c.get("host_asm", "")} for arch, c in record["cuda_compile"].items()]  # fmt: skip
    first = (
        nvidia[0]
        if nvidia
        else {"status": "skipped", "sass": "", "host_asm": "", "error": "", "arch": ""}
    )
    verification = record["verification"]
    texts = {"cuda": record.get("cuda", ""), "hip": port.get("hip", ""), "sass": first["sass"], "rdna3": hip.get("rdna3", ""),
             "cuda_host_asm": first["host_asm"], "hip_host_asm": hip.get("host_asm", "")}  # fmt: skip
    return {
        "id": record["id"], "origin": record["origin"], "domain": record["domain"], "path": record["path"], "split": split,
        "cuda_sha256": record["cuda_sha256"], "hip_sha256": port.get("hip_sha256", ""), **texts,
        "sass_arch": first["arch"], "nvidia": nvidia,
        "port_status": port["status"], "port_error": port.get("error", ""), "engine": port.get("engine", ""),
        "cuda_compile_status": first["status"], "cuda_compile_error": first["error"],
        "hip_compile_status": hip.get("status", ""), "hip_compile_error": hip.get("error", ""),
        "verification": verification["status"], "verification_detail": verification.get("detail", ""),
        "port_stdout": verification.get("stdout", ""), "reference_stdout": verification.get("reference_stdout", ""),
        "reference_gpu": verification.get("reference_gpu", ""), "kernels": len({k["name"] for k in record["kernels"]}),
        **{f"tokens_{k}": count_tokens(v) for k, v in texts.items()},
        "blocks": list(record.get("blocks", [])), "features": list(record.get("features", [])),
        "value_type": record.get("value_type", ""), "runnable": record["runnable"], "seconds": record.get("seconds", 0.0),
        "cache_hits": record.get("cache_hits", 0), "worker": record.get("worker", ""),
        "prompt": record.get("prompt", ""), "prompt_spec": record.get("prompt_spec", ""),
        "synthesiser": record.get("synthesiser", ""), "extraction": record.get("extraction", ""),
        "generation_seconds": float(record.get("generation_seconds", 0.0)),
    }  # fmt: skip


def kernel_rows(record: dict[str, Any], split: str) -> list[dict[str, Any]]:
    return [{"id": f"{record['id']}::{k['name']}@{k['arch']}", "program_id": record["id"], "domain": record["domain"],
             "split": split, "kernel": k["name"], "demangled": k["demangled"], "arch": k["arch"], "sass": k["sass"],
             "rdna3": k["rdna3"], "tokens_sass": count_tokens(k["sass"]), "tokens_rdna3": count_tokens(k["rdna3"]),
             "nv_registers": k["nv_registers"], "amd_vgprs": k["amd_vgprs"], "nv_shared_bytes": k["nv_shared_bytes"],
             "amd_lds_bytes": k["amd_lds_bytes"], "verification": record["verification"]["status"]}
            for k in record["kernels"]]  # fmt: skip


def instructions(
    rows: list[dict[str, Any]], kernels: list[dict[str, Any]]
) -> tuple[list[dict], list[dict]]:
    """The source and assembly examples of the accepted programs, in the published chat format."""
    from cass.models.llm.prompts import training_messages

    accepted = {r["id"] for r in rows if r["verification"] in ACCEPTED and r["port_status"] == "ok"}
    source = [{"id": r["id"], "task": "source", "domain": r["domain"], "split": r["split"],
               "messages": training_messages("source", r["cuda"], r["hip"])} for r in rows if r["id"] in accepted]  # fmt: skip
    assembly = [{"id": k["id"], "task": "assembly", "domain": k["domain"], "split": k["split"],
                 "messages": training_messages("assembly", compact_sass(k["sass"]), k["rdna3"])}
                for k in kernels if k["program_id"] in accepted]  # fmt: skip
    return source, assembly


def _parquet(rows: list[dict[str, Any]]) -> bytes:
    import datasets

    buffer = io.BytesIO()
    datasets.Dataset.from_list(rows).to_parquet(buffer)
    return buffer.getvalue()


def _write_table(folder: Path, stem: str, rows: list[dict[str, Any]]) -> None:
    """`stem-<content hash>.parquet`, the previous version removed. The hash in the name matters:
    `datasets` caches a local Parquet dataset by its folder's name and file names, so two builds
    into folders of the same name would otherwise load each other's cached rows."""
    data = _parquet(rows) if rows else b""
    name = f"{stem}-{hashlib.sha256(data).hexdigest()[:12]}.parquet"
    if rows:
        write_atomic(folder / name, data)
    for old in folder.glob(f"{stem}-*.parquet"):
        if old.name != name or not rows:
            old.unlink()


def _jsonl(items: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(item, ensure_ascii=False) + "\n" for item in items)


def write_dataset(
    out: Path, records: list[dict[str, Any]], funnel, options, *, elapsed_s: float
) -> dict[str, Any]:
    from cass.models.dataset.card import render_card, statistics, write_plots

    rows, kernels = [], []
    for record in records:
        split = split_of(record["id"], options.test_fraction)
        rows.append(program_row(record, split))
        kernels += kernel_rows(record, split)
    for table, items in (("programs", rows), ("kernels", kernels)):
        for split in ("train", "test"):
            _write_table(
                out / "data", f"{table}-{split}", [r for r in items if r["split"] == split]
            )
    source, assembly = instructions(rows, kernels)
    write_atomic(out / "instructions" / "source.jsonl", _jsonl(source))
    write_atomic(out / "instructions" / "assembly.jsonl", _jsonl(assembly))
    stats = statistics(rows, kernels, funnel, options, elapsed_s, len(source), len(assembly))
    write_atomic(out / "stats.json", json.dumps(stats, indent=1, sort_keys=True))
    plots = write_plots(out / "plots", rows, kernels, stats)
    write_atomic(out / "README.md", render_card(stats, plots, out))
    return stats
