"""Deduplication (exact and near-duplicate, MinHash with `datasketch`) and decontamination
against the benchmark's tasks.

Exact duplicates: the same text once comments and whitespace are removed. Near duplicates:
MinHash over 5-token shingles of that text, 128 permutations, LSH at Jaccard >= 0.85 (The
Stack's near-deduplication setting); the first program of a near-duplicate group is kept.
Decontamination drops a program whose MinHash Jaccard with any benchmark task's `main.cu` is
>= 0.5, or that shares a 100-token window with exactly one of them (a copied kernel inside a
larger file; windows several tasks share are boilerplate and do not count).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from datasketch import MinHash, MinHashLSH

COMMENT = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
TOKEN = re.compile(r"\w+|[^\w\s]")
SHINGLE = 5
PERMUTATIONS = 128
NEAR_THRESHOLD = 0.85
CONTAMINATION_THRESHOLD = 0.5
WINDOW = 100


def tokens(text: str) -> list[str]:
    return TOKEN.findall(COMMENT.sub(" ", text))


def normal_hash(text: str) -> str:
    return hashlib.sha256(" ".join(tokens(text)).encode("utf-8", "surrogateescape")).hexdigest()


def minhash(toks: Sequence[str]) -> MinHash:
    m = MinHash(num_perm=PERMUTATIONS, seed=1)
    grams = {" ".join(toks[i : i + SHINGLE]) for i in range(max(1, len(toks) - SHINGLE + 1))}
    m.update_batch([g.encode("utf-8", "surrogateescape") for g in grams])
    return m


@dataclass
class DedupResult:
    kept: list[int] = field(default_factory=list)
    exact: dict[int, int] = field(default_factory=dict)  # dropped index -> the index it duplicates
    near: dict[int, int] = field(default_factory=dict)


def deduplicate(texts: Sequence[str], threshold: float = NEAR_THRESHOLD) -> DedupResult:
    """Indices of the programs kept, in order, and why each other one was dropped."""
    result = DedupResult()
    seen: dict[str, int] = {}
    lsh = MinHashLSH(threshold=threshold, num_perm=PERMUTATIONS)
    for i, text in enumerate(texts):
        toks = tokens(text)
        key = normal_hash(text)
        if key in seen:
            result.exact[i] = seen[key]
            continue
        seen[key] = i
        m = minhash(toks)
        similar = lsh.query(m)
        if similar:
            result.near[i] = min(int(s) for s in similar)
            continue
        lsh.insert(str(i), m)
        result.kept.append(i)
    return result


class Decontaminator:
    """Finds programs that overlap the benchmark's tasks (texts given as {task id: source})."""

    def __init__(self, tasks: dict[str, str], threshold: float = CONTAMINATION_THRESHOLD) -> None:
        self.lsh = MinHashLSH(threshold=threshold, num_perm=PERMUTATIONS)
        owners: dict[str, set[str]] = {}
        for name, text in tasks.items():
            toks = tokens(text)
            self.lsh.insert(name, minhash(toks))
            for w in _windows(toks):
                owners.setdefault(w, set()).add(name)
        # A window two tasks share is boilerplate (a check macro, a generator), not one task's code.
        self.windows = {w: next(iter(names)) for w, names in owners.items() if len(names) == 1}

    def match(self, text: str) -> str | None:
        """The benchmark task `text` overlaps, or None."""
        toks = tokens(text)
        near = self.lsh.query(minhash(toks))
        if near:
            return sorted(near)[0]
        return next((self.windows[w] for w in _windows(toks) if w in self.windows), None)


def _windows(toks: Sequence[str]) -> Iterable[str]:
    for i in range(0, max(0, len(toks) - WINDOW + 1)):
        yield hashlib.blake2b(
            " ".join(toks[i : i + WINDOW]).encode("utf-8", "surrogateescape"), digest_size=12
        ).hexdigest()


def benchmark_tasks() -> dict[str, str]:
    """{domain/name: main.cu text} of every benchmark task."""
    from cass.models.bench import TASKS_ROOT

    return {f"{p.parent.parent.name}/{p.parent.name}": p.read_text(encoding="utf-8", errors="replace")
            for p in sorted(TASKS_ROOT.glob("*/*/main.cu"))}  # fmt: skip
