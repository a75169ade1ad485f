"""Deduplication (exact and MinHash near-duplicates) and decontamination against the benchmark."""

from __future__ import annotations

from cass.models.dataset.dedup import Decontaminator, benchmark_tasks, deduplicate
from cass.models.dataset.pipeline import Funnel, select
from cass.models.dataset.stages import Unit
from cass.models.dataset.synth import generate


def test_exact_duplicates_ignore_comments_and_layout():
    base = generate(1, seed=8)[0].source
    reformatted = "// a copy\n" + base.replace("    ", "\t").replace("\n", "\n\n")
    result = deduplicate([base, reformatted])
    assert result.kept == [0]
    assert result.exact == {1: 0}


def test_near_duplicates_differ_in_a_constant_only():
    base = generate(1, seed=9)[0].source
    tweaked = base.replace("constexpr int N = ", "constexpr int N = 2 * ", 1)
    other = generate(2, seed=10)[1].source
    result = deduplicate([base, tweaked, other])
    assert result.kept == [0, 2]
    assert result.near == {1: 0}


def test_decontamination_finds_a_benchmark_task_whole_or_embedded():
    tasks = benchmark_tasks()
    assert len(tasks) > 200
    name = sorted(tasks)[10]
    checker = Decontaminator(tasks)
    assert checker.match(tasks[name]) == name
    kernel_only = tasks[name][: len(tasks[name]) // 2]  # half a task pasted into another file
    wrapped = generate(1, seed=11)[0].source + "\n" + kernel_only
    assert checker.match(wrapped) == name
    assert [p.ident for p in generate(40, seed=11) if checker.match(p.source)] == []


def test_select_counts_what_each_filter_dropped():
    programs = generate(5, seed=12)
    units = [Unit(p.ident, "synthetic", p.domain, "main.cu", p.source, True) for p in programs]
    task = next(iter(benchmark_tasks().items()))
    units.append(Unit("copy", "synthetic", "x", "main.cu", programs[0].source, True))
    units.append(Unit("leak", "corpus", "x", "leak.cu", task[1], True))
    funnel = Funnel()
    kept = select(units, funnel)
    assert [u.ident for u in kept] == [p.ident for p in programs]
    assert funnel.counts == {"collected": 7, "unique": 6, "decontaminated": 5}
    assert funnel.dropped["exact-duplicate"] == [{"id": "copy", "of": programs[0].ident}]
    assert funnel.dropped["benchmark-overlap"] == [{"id": "leak", "task": task[0]}]
