"""The dataset card, from the dataset's own numbers: counts per domain and stage, yields, length
distributions and opcode histograms (tables in the card, plots beside it).
"""

from __future__ import annotations

import io
import re
import statistics as st
from collections import Counter
from pathlib import Path
from typing import Any

from cass.runner.outputs import write_atomic

STAGES = (
    "collected",
    "unique",
    "decontaminated",
    "ported",
    "compiled-nvidia",
    "compiled-amd",
    "aligned",
    "ran",
    "accepted",
    "verified",
)
SASS_OPCODE = re.compile(r"^\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_]*)", re.M)
RDNA3_OPCODE = re.compile(
    r"^\s+([sv]_[a-z0-9_]+|global_[a-z0-9_]+|ds_[a-z0-9_]+|flat_[a-z0-9_]+|buffer_[a-z0-9_]+|scratch_[a-z0-9_]+)",
    re.M,
)


def _stage_counts(rows: list[dict[str, Any]]) -> dict[str, int]:
    def n(test) -> int:
        return sum(1 for r in rows if test(r))

    return {
        "ported": n(lambda r: r["port_status"] == "ok"),
        "compiled-nvidia": n(lambda r: r["cuda_compile_status"] == "ok"),
        "compiled-amd": n(lambda r: r["hip_compile_status"] == "ok"),
        "aligned": n(lambda r: r["kernels"] > 0),
        "ran": n(lambda r: r["verification"] not in ("not-run",)),
        "accepted": n(lambda r: r["verification"] in ("verified", "self-checked")),
        "verified": n(lambda r: r["verification"] == "verified"),
    }


def _lengths(values: list[int]) -> dict[str, float]:
    if not values:
        return {"count": 0}
    qs = st.quantiles(values, n=10) if len(values) > 1 else [values[0]] * 9
    return {"count": len(values), "mean": round(st.mean(values), 1), "median": st.median(values), "p10": qs[0],
            "p90": qs[-1], "max": max(values)}  # fmt: skip


def statistics(
    rows, kernels, funnel, options, elapsed_s: float, n_source: int, n_assembly: int
) -> dict[str, Any]:
    stages = {**funnel.counts, **_stage_counts(rows)}
    per_domain: dict[str, dict[str, int]] = {}
    for r in rows:
        d = per_domain.setdefault(r["domain"], Counter())
        d["programs"] += 1
        d[r["verification"]] += 1
        d["kernels"] += r["kernels"]
    sass_ops = Counter(m for k in kernels for m in SASS_OPCODE.findall(k["sass"]))
    amd_ops = Counter(m for k in kernels for m in RDNA3_OPCODE.findall(k["rdna3"]))
    fresh = [r for r in rows if r["seconds"] and r["verification"] != "not-run"]
    synthesis = getattr(funnel, "synthesis", {})
    if synthesis:  # the model's programs through the later stages
        synthesis = {**synthesis, **_stage_counts([r for r in rows if r["origin"] == "model"])}
    return {
        "stages": stages, "dropped": {k: len(v) for k, v in funnel.dropped.items()},
        "dropped_examples": {k: v[:5] for k, v in funnel.dropped.items()},
        "per_domain": {d: dict(c) for d, c in sorted(per_domain.items())},
        "verification": dict(Counter(r["verification"] for r in rows)),
        "origins": dict(Counter(r["origin"] for r in rows)),
        "lengths": {k: _lengths([r[f"tokens_{k}"] for r in rows if r[f"tokens_{k}"]])
                    for k in ("cuda", "hip", "sass", "rdna3", "cuda_host_asm", "hip_host_asm")},
        "kernel_lengths": {k: _lengths([r[f"tokens_{k}"] for r in kernels]) for k in ("sass", "rdna3")},
        "sass_opcodes": dict(sass_ops.most_common(40)), "rdna3_opcodes": dict(amd_ops.most_common(40)),
        "programs": len(rows), "kernels": len(kernels), "instructions": {"source": n_source, "assembly": n_assembly},
        "splits": dict(Counter(r["split"] for r in rows)), "elapsed_s": round(elapsed_s, 1),
        "program_seconds_median": st.median([r["seconds"] for r in fresh]) if fresh else None, "synthesis": synthesis,
        "options": {"synthetic": options.synthetic, "seed": options.seed, "archs": list(options.archs), "engine": options.engine,
                    "sources": list(options.sources), "references": str(options.references or ""), "ray": options.ray or "",
                    "synthesise_with": getattr(options, "synthesise_with", ""), "prompts": getattr(options, "prompts", 0)},
    }  # fmt: skip


def _png(figure) -> bytes:
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png", dpi=110, bbox_inches="tight")
    return buffer.getvalue()


def write_plots(folder: Path, rows, kernels, stats: dict[str, Any]) -> list[str]:
    """Yields, per-domain outcomes, length distributions, opcode histograms: PNG files."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    written = []

    def save(name: str, fig) -> None:
        write_atomic(folder / name, _png(fig))
        plt.close(fig)
        written.append(name)

    fig, ax = plt.subplots(figsize=(8, 3.5))
    stages = [s for s in STAGES if s in stats["stages"]]
    ax.bar(stages, [stats["stages"][s] for s in stages], color="#4c72b0")
    ax.set_ylabel("programs")
    ax.set_title("Programs reaching each stage")
    ax.tick_params(axis="x", rotation=35)
    save("yields.png", fig)

    domains = list(stats["per_domain"])
    outcomes = sorted(
        {o for d in stats["per_domain"].values() for o in d if o not in ("programs", "kernels")}
    )
    fig, ax = plt.subplots(figsize=(9, 4))
    bottom = [0] * len(domains)
    for outcome in outcomes:
        values = [stats["per_domain"][d].get(outcome, 0) for d in domains]
        ax.bar(domains, values, bottom=bottom, label=outcome)
        bottom = [b + v for b, v in zip(bottom, values)]
    ax.set_ylabel("programs")
    ax.set_title("Verification outcome per domain")
    ax.tick_params(axis="x", rotation=60)
    if outcomes:  # an empty dataset has no outcome to name
        ax.legend(fontsize=7)
    save("domains.png", fig)

    fig, axes = plt.subplots(1, 4, figsize=(13, 3))
    for ax, key in zip(axes, ("cuda", "hip", "sass", "rdna3")):
        ax.hist(
            [r[f"tokens_{key}"] for r in rows if r[f"tokens_{key}"]] or [0],
            bins=30,
            color="#55a868",
        )
        ax.set_title(f"{key} tokens per program")
    save("lengths.png", fig)

    for name, key in (("sass-opcodes.png", "sass_opcodes"), ("rdna3-opcodes.png", "rdna3_opcodes")):
        ops = list(stats[key].items())[:30]
        fig, ax = plt.subplots(figsize=(9, 3.5))
        ax.bar([o for o, _ in ops], [c for _, c in ops], color="#c44e52")
        ax.set_title(f"Most frequent {key.split('_')[0].upper()} opcodes (aligned kernels)")
        ax.tick_params(axis="x", rotation=75, labelsize=7)
        save(name, fig)
    return written


YAML = """---
pretty_name: CASS-style aligned CUDA/HIP/SASS/RDNA3 records (built by cass)
license: other
task_categories:
- text-generation
tags:
- code
- cuda
- hip
- assembly
configs:
- config_name: programs
  data_files:
{programs}
- config_name: kernels
  data_files:
{kernels}
---
"""

VERIFICATION_TEXT = """Every runnable program's HIP port was built with clang-16 for gfx1100 and run on the cass RDNA3
emulator. Its output was then judged:

- **verified**: an NVIDIA run of the very same CUDA source (matched by sha256) was recorded, and the
  port's output agrees with it under the program's run spec (integers exact, floats by its
  `rtol`/`atol`), with cass's verdict comparator (`cass.runner.verify.judge`);
- **self-checked**: no NVIDIA run was recorded for the source; the port exited 0 and printed the
  program's own `CHECK PASS` (the host recomputes every kernel). This is weaker: it is no
  comparison with an NVIDIA GPU;
- **mismatch** / **port-failed**: the port's output differs from the NVIDIA one / the port did not
  build or did not finish on the emulator; **reference-failed**: the NVIDIA run itself failed;
- **self-check-failed**: no NVIDIA record and the port printed `CHECK FAIL` or exited non-zero;
- **not-run**: compiled only (no `main()`, no NVIDIA reference for real code, or the port does not
  compile).

Only verified and self-checked programs (and their kernels) are in the instruction files."""

SCHEMA_TEXT = """`instructions/source.jsonl` and `instructions/assembly.jsonl`: one JSON object per line,

    {"id": str, "task": "source" | "assembly", "domain": str, "split": "train" | "test", "messages": [...]}

`messages` is `cass.models.llm.prompts.training_messages(task, input, answer)`: the published CASS
chat format, a user turn (`Convert the following CUDA code to AMD GPU code:` + a ```` ```cuda ````
block, or `Convert the following CUDA device assembly code to HIP device assembly:` + a
```` ```cudaasm ```` block) and the assistant's answer in a ```` ```amd ```` / ```` ```hipasm ````
block. Source examples are whole programs (CUDA -> the verified HIP port); assembly examples are
one kernel each (its SASS, addresses and encodings removed as the CASS paper strips CUDA assembly
-> the same kernel's RDNA3 assembly from clang-16 -O3, as is). Ids: a program's id; a kernel's
`PROGRAM::MANGLED_NAME@ARCH`.

`data/programs-*.parquet` columns (the file names end in a hash of their content): id, origin, domain, path, split, cuda_sha256, hip_sha256, cuda,
hip, sass, rdna3, cuda_host_asm, hip_host_asm (device fatbin removed), sass_arch, nvidia (per SASS
arch: arch, status, error, sass, host_asm), port_status/error, engine, cuda_compile_status/error,
hip_compile_status/error, verification, verification_detail, port_stdout, reference_stdout,
reference_gpu, kernels, cache_hits (stages reused from the cache), worker (host:pid that built it), tokens_{cuda,hip,sass,rdna3,cuda_host_asm,hip_host_asm} (code tokens:
identifiers, numbers and punctuation marks; not a model tokenizer's count), blocks, features,
value_type (synthetic and model-written programs), runnable, seconds; for programs a model wrote
(origin `model`): prompt (the templated prompt sent), prompt_spec (its placeholders, JSON),
synthesiser (the model's identity), extraction (fenced, cut-off or unfenced), generation_seconds. `data/kernels-*.parquet`: id, program_id,
domain, split, kernel, demangled, arch, sass, rdna3, tokens_sass, tokens_rdna3, nv_registers,
amd_vgprs, nv_shared_bytes, amd_lds_bytes, verification."""


def _files(out: Path, table: str) -> str:
    parts = [f"  - split: {s}\n    path: data/{p.name}" for s in ("train", "test")
             for p in sorted((out / "data").glob(f"{table}-{s}-*.parquet"))]  # fmt: skip
    return "\n".join(parts)


def _table(header: list[str], rows: list[list[Any]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def _yield_rows(stats: dict[str, Any]) -> list[list[Any]]:
    stages = stats["stages"]
    rows, previous = [], None
    for name in STAGES:
        if name not in stages:
            continue
        value = stages[name]
        share = f"{100 * value / previous:.1f}%" if previous else ""
        rows.append([name, value, share])
        previous = value if name != "verified" else previous
    return rows


SYNTHESIS_STAGES = ("prompts", "answered", "code", "unique", "decontaminated", "ported", "compiled-nvidia",
                    "compiled-amd", "aligned", "ran", "accepted")  # fmt: skip


def _synthesis_lines(stats: dict[str, Any]) -> list[str]:
    """The model-written programs: prompts -> answers -> code -> the later stages (of the prompts)."""
    s = stats.get("synthesis") or {}
    if not s:
        return []
    prompts = s["prompts"] or 1
    rows = [
        [name, s.get(name, 0), f"{100 * s.get(name, 0) / prompts:.1f}%"]
        for name in SYNTHESIS_STAGES
    ]
    return ["## Programs written by a model", "",
            f"`--synthesise-with {s['model']}` (`{s['identity']}`): {s['prompts']} templated prompts, "
            f"{s['cached']} answers from the cache, {s['generation_s']} s and {s['completion_tokens']} tokens of generation. "
            f"Code: {s['fenced']} fenced, {s['cut-off']} cut off, {s['unfenced']} unfenced; no code: {s['no-code']}; "
            f"time limit: {s['timeout']}; looping: {s['loop']}; prompt too long: {s['too-long']}. Share = of the prompts.",
            "", _table(["stage", "programs", "share"], rows), ""]  # fmt: skip


def _model_clause(options: dict[str, Any]) -> str:
    if not options.get("synthesise_with"):
        return ""
    return f"; programs a model (`{options['synthesise_with']}`) wrote for {options['prompts']} templated prompts"


def render_card(stats: dict[str, Any], plots: list[str], out: Path) -> str:
    """Size: the card reads top to bottom; each section is a few lines of this function."""
    header = YAML.format(programs=_files(out, "programs"), kernels=_files(out, "kernels"))
    o = stats["options"]
    sources = ", ".join(o["sources"]) or "none"
    lines = [header, "# Aligned CUDA / HIP / SASS / RDNA3 records", "",
             f"Built by `cass dataset build` from: synthetic programs {o['synthetic']} (seed {o['seed']}); folders/repositories: {sources}{_model_clause(o)}. "
             f"SASS for {', '.join(o['archs'])}, RDNA3 for gfx1100; port engine `{o['engine']}`; "
             f"NVIDIA references: {o['references'] or 'none'}. {stats['programs']} programs, {stats['kernels']} aligned kernels, "
             f"{stats['instructions']['source']} source and {stats['instructions']['assembly']} assembly instruction examples; "
             f"splits {stats['splits']}. Run time {stats['elapsed_s']} s.", "",
             "## Yields per stage", "", "Share = of the stage before (verified: of accepted).", "",
             _table(["stage", "programs", "share"], _yield_rows(stats)), "",
             f"Dropped: {stats['dropped']}.", "", *_synthesis_lines(stats),
             "## Verification", "", VERIFICATION_TEXT, "", _table(["outcome", "programs"], sorted(stats["verification"].items())), "",
             "## Per domain", "",
             _table(["domain", "programs", "kernels", "verified", "self-checked", "other"],
                    [[d, c.get("programs", 0), c.get("kernels", 0), c.get("verified", 0), c.get("self-checked", 0),
                      c.get("programs", 0) - c.get("verified", 0) - c.get("self-checked", 0)] for d, c in stats["per_domain"].items()]),
             "", "## Lengths (code tokens per program; per kernel for the kernel rows)", "",
             _table(["text", "count", "mean", "median", "p10", "p90", "max"],
                    [[k, v.get("count", 0), v.get("mean", ""), v.get("median", ""), v.get("p10", ""), v.get("p90", ""), v.get("max", "")]
                     for k, v in [*stats["lengths"].items(), *((f"kernel {k}", v) for k, v in stats["kernel_lengths"].items())]]),
             "", "## Opcodes (aligned kernels, top 15)", "",
             _table(["SASS", "count", "RDNA3", "count"],
                    [[a, b, c, d] for (a, b), (c, d) in zip(list(stats["sass_opcodes"].items())[:15], list(stats["rdna3_opcodes"].items())[:15])]),
             "", "## Plots", "", *[f"![{p}](plots/{p})" for p in plots], "", "## Format", "", SCHEMA_TEXT, ""]  # fmt: skip
    return "\n".join(lines)
