"""CUDA's asynchronous global-to-shared copies, where HIP has none (AMD GPUs have no copy engine
for them; HIP 5.2's headers declare no memcpy_async, pipeline or barrier API).

- The per-thread primitives of `cuda_pipeline.h` become synchronous: `__pipeline_memcpy_async`
  -> a cass helper that copies at once (CASS089), `__pipeline_commit()` and
  `__pipeline_wait_prior(N)` -> `(void)0`. Equivalent: CUDA makes a thread's copies visible to
  that thread after its wait, and to other threads only through a barrier the code must already
  have; a copy made earlier satisfies both (CUDA's own cuda_pipeline_helpers.h copies
  synchronously, `pipeline_memcpy_sync`, on GPUs without cp.async). The copy is
  `size_and_align - zfill` bytes, the rest of the destination zeroed (cp.async's source size).
- `cuda::aligned_size_t<N>(n)` (an alignment promise on a byte count, accepted by
  `cooperative_groups::memcpy_async`, which the groups pass rewrites) -> `static_cast<size_t>(n)`.
- libcu++'s `cuda::pipeline`, `cuda::barrier`, `cuda::memcpy_async` and the `__mbarrier`
  primitives are reported (CASS088) with the route: copy synchronously, `__syncthreads()` where
  the consumer waits, or cooperative groups' memcpy_async + wait.
"""

from __future__ import annotations

from cass.models.rules.unit import Unit

NO_OP = ("__pipeline_commit", "__pipeline_wait_prior")
LIBCUXX_ASYNC = frozenset(
    (
        "pipeline",
        "make_pipeline",
        "pipeline_shared_state",
        "pipeline_role",
        "barrier",
        "memcpy_async",
        "thread_scope",
        "thread_scope_block",
        "thread_scope_thread",
    )
)
ROUTE = (
    "HIP has no asynchronous copy pipeline: copy synchronously and call __syncthreads() where "
    "the consumer waits (the block-scope producer/consumer pattern), or use "
    "cooperative_groups::memcpy_async + cg::wait, which cass rewrites"
)


def _rewrite_primitives(unit: Unit) -> None:
    code = unit.code
    for i in unit.positions(("__pipeline_memcpy_async", *NO_OP)):
        tok = code[i]
        if tok.kind != "ident" or unit.next_text(i) != "(" or unit.is_edited(tok):
            continue
        if tok.text == "__pipeline_memcpy_async":
            unit.replace(tok.start, tok.end, "__cass_pipeline_memcpy")
            unit.shims.add("pipeline_copy")
            unit.report(
                "CASS089",
                tok.start,
                tok.end,
                "`__pipeline_memcpy_async` -> `__cass_pipeline_memcpy`: the copy is made at "
                "once (HIP has no asynchronous copy)",
            )
            continue
        close = unit.matching(i + 1)
        if close is not None and unit.replace(tok.start, code[close].end, "(void)0"):
            unit.report(
                "CASS089",
                tok.start,
                tok.end,
                f"`{tok.text}`: nothing to wait for (copies are made at once)",
            )


def _rewrite_aligned_sizes(unit: Unit) -> None:
    """`cuda::aligned_size_t<N>(n)` -> `static_cast<size_t>(n)`."""
    code = unit.code
    for i in unit.positions(("aligned_size_t",)):
        if unit.prev_text(i) != "::" or unit.prev_text(i, 2) != "cuda" or unit.next_text(i) != "<":
            continue
        j = i + 2
        while j < len(code) and code[j].text not in (">", ";"):
            j += 1
        if unit.next_text(j) != "(":
            continue
        close = unit.matching(j + 1)
        if close is None:
            continue
        inner = unit.text[code[j + 1].end : code[close].start]
        if unit.replace(code[i - 2].start, code[close].end, f"static_cast<size_t>({inner})"):
            unit.report(
                "CASS089",
                code[i - 2].start,
                code[close].end,
                "`cuda::aligned_size_t<N>(n)` -> `static_cast<size_t>(n)`: an alignment promise "
                "the synchronous copy does not need",
            )


def _report_libcuxx(unit: Unit) -> None:
    code, seen = unit.code, set()
    for i in unit.positions(("cuda",)):
        tok = code[i]
        if unit.next_text(i) != "::" or unit.prev_text(i) in ("::", ".", "->") or tok.pp != -1:
            continue
        member = unit.next_text(i, 2)
        if member not in LIBCUXX_ASYNC or unit.is_edited(tok):
            continue
        unit.replace(tok.start, tok.end, tok.text)  # reported here, not as plain libcu++
        line = unit.position(tok.start)[0]
        if line not in seen:
            seen.add(line)
            unit.report("CASS088", tok.start, code[i + 2].end, f"`cuda::{member}`: {ROUTE}")
    for i in unit.positions(("__mbarrier_init", "__mbarrier_arrive", "__mbarrier_test_wait")):
        tok = code[i]
        unit.report("CASS088", tok.start, tok.end, f"`{tok.text}`: {ROUTE}")


def port_async_copies(unit: Unit) -> None:
    """cuda_pipeline.h primitives made synchronous; libcu++ pipelines and barriers reported."""
    _rewrite_primitives(unit)
    _rewrite_aligned_sizes(unit)
    _report_libcuxx(unit)
