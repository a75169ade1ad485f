"""The synthetic generator: deterministic by seed, every domain and building block, diverse
enough that near-duplicate removal keeps most programs, and each program well formed."""

from __future__ import annotations

import re

from cass.models.bench.catalog import DOMAINS as BENCH_DOMAINS
from cass.models.dataset.dedup import deduplicate
from cass.models.dataset.domains import ALL_BLOCKS, DOMAINS
from cass.models.dataset.synth import generate


def test_same_seed_same_programs_other_seed_other_programs():
    first, again, other = generate(12, seed=5), generate(12, seed=5), generate(12, seed=6)
    assert [p.source for p in first] == [p.source for p in again]
    assert all(a.source != b.source for a, b in zip(first, other))
    # program i does not depend on how many are generated
    assert generate(3, seed=5)[2].source == first[2].source


def test_covers_every_benchmark_domain_and_block():
    programs = generate(400, seed=2)
    assert set(DOMAINS) == set(BENCH_DOMAINS)
    assert {p.domain for p in programs[: len(DOMAINS)]} == set(DOMAINS)
    assert {b for p in programs for b in p.blocks} == set(ALL_BLOCKS)
    assert {p.value_type for p in programs} == {"float", "double", "int", "unsigned"}


def test_programs_are_self_checking_and_carry_their_run_spec():
    for p in generate(30, seed=3):
        assert p.source.count("int main()") == 1
        assert 'printf(ok ? "CHECK PASS\\n" : "CHECK FAIL\\n");' in p.source
        assert "// cass: rtol = 1e-4 atol = 1e-6 timeout_s = 60" in p.source
        assert "$" not in p.source  # every template placeholder filled
        kernels = re.findall(r"__global__ void (\w+)\(", p.source)
        assert len(kernels) == len(p.blocks)
        for name in kernels:
            assert re.search(rf"\b{name}<<<", p.source), (
                f"{p.ident}: kernel {name} is never launched"
            )


def test_near_duplicate_removal_keeps_most_programs():
    programs = generate(300, seed=4)
    kept = deduplicate([p.source for p in programs]).kept
    assert len(kept) >= 0.85 * len(programs)
