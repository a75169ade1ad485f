"""Templated prompts that ask a model to write a self-contained CUDA program (the CASS paper's
synthesis: natural-language templates with placeholders filled from lists over the domains).

    spec = prompt_spec(seed=1, index=7)      # depends only on (seed, index)
    spec.text                                # the user message sent to the model

Each prompt fills: a persona, the benchmark domain (and a word its kernels are named with), the
algorithm (one or two of the synthetic generator's building blocks, chained, with one of the
domain's element-wise operations), the data type, the problem size, a memory pattern that fits
the algorithm, and the self-check the program must do (it ends by printing `CHECK PASS` or
`CHECK FAIL`, which the dataset's self-check verification reads).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from cass.models.dataset.domains import DOMAINS, INTEGER_ONLY, SCALAR_BLOCKS

ALGORITHMS = {
    "map": "an element-wise transform",
    "stencil1d": "a 1-D stencil (a weighted sum over a window of neighbours)",
    "stencil2d": "a 2-D five-point stencil over a grid",
    "scan": "an inclusive prefix sum (scan) within each thread block",
    "transpose": "a matrix transpose",
    "csr": "a sparse matrix-vector product in CSR format",
    "iterate": "an iterated recurrence (each element updated a fixed number of times)",
    "sort": "a sort of each block's slice of the array (bitonic or odd-even)",
    "reduce": "a sum reduction to one value",
    "warp_reduce": "a sum reduction that combines values within each warp",
    "cg_reduce": "a sum reduction written with cooperative groups",
    "histogram": "a histogram into a small number of bins",
    "vote": "a count of the elements that satisfy a predicate",
    "minmax": "the minimum and maximum of the array",
}
MEMORY = {
    "map": ("coalesced global loads and stores", "a grid-stride loop", "read-only `const __restrict__` inputs"),
    "stencil1d": ("a shared-memory tile with halo cells", "`__constant__` memory for the weights", "coalesced global loads"),
    "stencil2d": ("a 2-D shared-memory tile with a halo", "coalesced row-major global loads"),
    "scan": ("a shared-memory array per block", "warp shuffles inside the block"),
    "transpose": ("a shared-memory tile padded to avoid bank conflicts", "coalesced reads and writes"),
    "csr": ("one thread per row reading the column indices", "one warp per row"),
    "iterate": ("registers for the running value", "a grid-stride loop"),
    "sort": ("a shared-memory array per block", "`__syncthreads()` between compare-exchange steps"),
    "reduce": ("a shared-memory tree reduction", "one `atomicAdd` per block into the global result"),
    "warp_reduce": ("`__shfl_down_sync` within each warp", "one `atomicAdd` per warp"),
    "cg_reduce": ("`cooperative_groups::reduce` over a tiled partition", "a thread-block tile of 32"),
    "histogram": ("global `atomicAdd` on the bins", "privatised bins in shared memory merged at the end"),
    "vote": ("`__ballot_sync` and `__popc`", "one `atomicAdd` per warp"),
    "minmax": ("`atomicMin` and `atomicMax` on global values", "a shared-memory reduction per block"),
}  # fmt: skip
SIZES = (1 << 10, 3000, 1 << 12, 10000, 1 << 14, 50000, 1 << 16, 1 << 18)
GRIDS = ("64 x 64", "128 x 96", "256 x 256", "200 x 300")
TWO_D = frozenset({"stencil2d", "transpose"})
PERSONAS = (
    "You are an HPC engineer writing test programs for a GPU porting team.",
    "You are a CUDA developer preparing teaching examples.",
    "You are a performance engineer writing small, correct CUDA benchmarks.",
    "You are writing regression tests for a CUDA compiler.",
)
CHECKS = (
    "recomputes the result on the host and compares every element",
    "recomputes the result on the host and compares checksums of the output",
    "recomputes the result on the host, compares every element, prints a checksum of the output",
)
TOLERANCE = {"float": "a relative tolerance of 1e-4", "double": "a relative tolerance of 1e-9",
             "int": "exact equality", "unsigned": "exact equality"}  # fmt: skip
TEMPLATES = (
    "{persona} Write a complete, self-contained CUDA program for the {domain} domain that computes "
    "{algorithm} on {size} {type} values{operation}. Use {memory}. Name the kernels after '{word}'.",
    "{persona} In the {domain} domain, write one CUDA source file: {algorithm} over {size} {type} "
    "elements{operation}, using {memory}; kernel names contain '{word}'.",
    "{persona} Write a CUDA program ({domain}): the kernel '{word}' computes {algorithm} of {size} "
    "{type} values{operation}. Memory: {memory}.",
)
RULES = (
    " The host fills the input with a fixed-seed generator (no rand(), no clock), checks every CUDA "
    "call, launches the kernels, copies the result back, {check} (with {tolerance}), prints "
    "`CHECK PASS` or `CHECK FAIL` on the last line and returns 1 on failure. Only the CUDA runtime "
    "and the C++ standard library. Answer with the whole program in one ```cuda code block."
)


@dataclass(frozen=True)
class PromptSpec:
    """One templated prompt: its placeholders, and the text they make."""

    seed: int
    index: int
    domain: str
    word: str
    algorithm: tuple[str, ...]  # building blocks, chained in this order
    operation: str  # the domain's element-wise operation ("" for none)
    value_type: str
    size: str
    memory: str
    check: str
    persona: int
    template: int
    sampling_seed: int  # the model's sampling seed for this prompt

    @property
    def ident(self) -> str:
        return f"prompted-{self.seed}-{self.index:05d}-{self.domain}"

    @property
    def text(self) -> str:
        d = DOMAINS[self.domain]
        ops = d.float_ops if self.value_type in ("float", "double") else d.int_ops
        algorithm = ", followed by ".join(ALGORITHMS[b] for b in self.algorithm)
        operation = (
            f", applying the '{self.operation.replace('_', ' ')}' operation `{ops[self.operation]}` "
            + ("(C1, C2 are constants of your choice) " if "C" in ops[self.operation] else "")
            + "to each element first"
            if self.operation
            else ""
        )
        body = TEMPLATES[self.template].format(
            persona=PERSONAS[self.persona], domain=self.domain.replace("_", " "), algorithm=algorithm,
            size=self.size, type=self.value_type, operation=operation, memory=self.memory, word=self.word,
        )  # fmt: skip
        return body + RULES.format(check=self.check, tolerance=TOLERANCE[self.value_type])

    def fields(self) -> dict[str, object]:
        return {"domain": self.domain, "word": self.word, "algorithm": list(self.algorithm),
                "operation": self.operation, "value_type": self.value_type, "size": self.size,
                "memory": self.memory, "check": self.check, "persona": self.persona,
                "template": self.template, "sampling_seed": self.sampling_seed}  # fmt: skip


def prompt_spec(seed: int, index: int) -> PromptSpec:
    """Prompt `index` of `seed`, spread round-robin over the domains like the synthetic programs."""
    names = sorted(DOMAINS)
    domain = names[index % len(names)]
    d = DOMAINS[domain]
    r = random.Random(f"cass-prompt:{seed}:{index}")
    value_type = r.choice(d.types)
    usable = [
        b
        for b in (*d.blocks, *d.blocks, *ALGORITHMS)
        if value_type in ("int", "unsigned") or b not in INTEGER_ONLY
    ]
    algorithm = _algorithm(r, usable)
    ops = d.float_ops if value_type in ("float", "double") else d.int_ops
    operation = r.choice(sorted(ops)) if ops and r.random() < 0.7 else ""
    size = r.choice(GRIDS) if TWO_D & set(algorithm) else str(r.choice(SIZES))
    return PromptSpec(seed, index, domain, r.choice(d.words), algorithm, operation, value_type, size,
                      r.choice(MEMORY[algorithm[0]]), r.choice(CHECKS), r.randrange(len(PERSONAS)),
                      r.randrange(len(TEMPLATES)), r.randrange(1 << 31))  # fmt: skip


def _algorithm(r: random.Random, usable: list[str]) -> tuple[str, ...]:
    """One building block, or two chained: an array block first; a scalar one (a reduction, a
    histogram) only last, since it leaves no array for a second block."""
    first = r.choice(usable)
    if r.random() < 0.6 or first in SCALAR_BLOCKS:
        return (first,)
    second = r.choice([b for b in usable if b != first])
    return (first, second)


def prompt_specs(count: int, seed: int) -> list[PromptSpec]:
    return [prompt_spec(seed, i) for i in range(count)]
