"""Cooperative groups by target HIP version.

Names are unchanged under HIP, but members arrived late: `meta_group_rank/size` (6.2) and
`cg::reduce` with its operator objects (7.0) become cass helpers for older targets; other
missing members (`memcpy_async`, `labeled_partition`, ...) are errors at their use.
"""

from __future__ import annotations

from cass.models.rules.passes.names import needs_newer
from cass.models.rules.tables import family_table, parse_version
from cass.models.rules.unit import Unit

META_MEMBERS = {
    "meta_group_rank": "__cass_meta_group_rank",
    "meta_group_size": "__cass_meta_group_size",
}
REDUCE_OPS = {"plus", "less", "greater", "bit_and", "bit_or", "bit_xor"}
ASYNC_COPY = {
    "memcpy_async": "__cass_memcpy_async",
    "wait": "__cass_wait",
    "wait_prior": "__cass_wait",
}


def _aliases(unit: Unit) -> set[str]:
    """`cooperative_groups` and every `namespace X = cooperative_groups;` alias."""
    aliases, code = {"cooperative_groups"}, unit.code
    for i in unit.positions(("namespace",)):
        if unit.next_text(i, 2) == "=" and unit.next_text(i, 3) == "cooperative_groups":
            aliases.add(code[i + 1].text)
    return aliases


def _rewrite_meta_member(unit: Unit, i: int) -> bool:
    """`tile.meta_group_rank()` -> `__cass_meta_group_rank(tile)` (object must be a plain name)."""
    code = unit.code
    obj = code[i - 2] if i >= 2 else None
    if obj is None or obj.kind != "ident" or unit.prev_text(i, 3) in (".", "->", "::"):
        return False
    if unit.next_text(i) != "(" or unit.next_text(i, 2) != ")":
        return False
    helper = META_MEMBERS[code[i].text]
    if not unit.replace(obj.start, code[i + 2].end, f"{helper}({obj.text})"):
        return False
    unit.shims.add("cg_meta")
    unit.report(
        "CASS020",
        obj.start,
        code[i + 2].end,
        f"`{obj.text}.{code[i].text}()` -> `{helper}({obj.text})` "
        f"(HIP {unit.target.hip_version} lacks the member)",
    )
    return True


def _rewrite_reduce(unit: Unit, i: int) -> bool:
    """`cg::reduce(...)` -> `__cass_cg_reduce(...)`; `cg::plus<T>` -> `__cass_cg_plus<T>`."""
    code, name = unit.code, unit.code[i].text
    qualifier = code[i - 2]
    helper = f"__cass_cg_{name}"
    if not unit.replace(qualifier.start, code[i].end, helper):
        return False
    unit.shims.add("cg_reduce")
    if name == "reduce":
        unit.report(
            "CASS020",
            qualifier.start,
            code[i].end,
            f"`{qualifier.text}::reduce` -> `{helper}` "
            f"(HIP {unit.target.hip_version} has no cg::reduce)",
        )
    return True


def _rewrite_async_copy(unit: Unit, i: int) -> bool:
    """`cg::memcpy_async(g, ...)` -> a synchronous group copy; `cg::wait[_prior<N>](g)` -> `g.sync()`."""
    code, name = unit.code, unit.code[i].text
    last = i
    if name == "wait_prior" and unit.next_text(i) == "<":
        close = next((j for j in range(i + 1, min(i + 8, len(code))) if code[j].text == ">"), None)
        if close is None:
            return False
        last = close
    if unit.next_text(last) != "(" or not unit.replace(
        code[i - 2].start, code[last].end, ASYNC_COPY[name]
    ):
        return False
    unit.shims.add("cg_async")
    if name == "memcpy_async":
        unit.report(
            "CASS020",
            code[i - 2].start,
            code[i].end,
            "`cg::memcpy_async` -> `__cass_memcpy_async` "
            "(a synchronous group copy; waits become group.sync())",
        )
    return True


def rewrite_cooperative_groups(unit: Unit) -> None:
    if "cooperative_groups" not in unit.text:
        return
    table, aliases, code = family_table("cooperative_groups"), _aliases(unit), unit.code
    has_reduce = parse_version(unit.target.hip_version) >= (7, 0)
    for i in unit.positions(table.keys() | REDUCE_OPS | ASYNC_COPY.keys()):
        tok = code[i]
        if tok.kind != "ident" or unit.is_edited(tok):
            continue
        qualified = unit.prev_text(i) == "::" and unit.prev_text(i, 2) in aliases
        if qualified and tok.text in REDUCE_OPS and not has_reduce and unit.next_text(i) == "<":
            _rewrite_reduce(unit, i)
            continue
        if qualified and tok.text in ASYNC_COPY and _rewrite_async_copy(unit, i):
            continue
        entry = table.get(tok.text)
        if entry is None or entry.available_in(unit.target.hip_version):
            continue
        member = unit.prev_text(i) in (".", "->") and unit.next_text(i) == "("
        if not (qualified or member):
            continue
        if member and tok.text in META_MEMBERS and _rewrite_meta_member(unit, i):
            continue
        if member and tok.text == "num_threads" and unit.replace(tok.start, tok.end, "size"):
            unit.report(
                "CASS020",
                tok.start,
                tok.end,
                "`num_threads()` -> `size()` (same value; HIP "
                f"{unit.target.hip_version} lacks num_threads)",
            )
            continue
        if qualified and tok.text == "reduce" and _rewrite_reduce(unit, i):
            continue
        if entry.status == "unsupported":
            unit.report(
                "CASS010", tok.start, tok.end, f"cooperative groups `{tok.text}`: {entry.note}"
            )
        else:
            needs_newer(unit, tok, entry)
