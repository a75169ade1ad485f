"""The mapping tables: well-formed, consistent, and true to the installed HIP headers."""

import re
from functools import cache
from pathlib import Path

import pytest
from cass.models.rules import FAMILIES, lookup
from cass.models.rules.lexer import lex
from cass.models.rules.tables import STATUSES, all_entries, parse_version

INCLUDE = Path("/usr/include")
INSTALLED_FAMILY_HEADERS = sorted({folder for f in FAMILIES for folder in f.headers})


@cache
def installed_names(folder: str) -> frozenset[str]:
    """Identifiers in the code of an installed header folder (parsed with the engine's lexer:
    names that only appear in comments or strings do not count; the NVIDIA-platform headers do
    not count either)."""
    names: set[str] = set()
    for path in (INCLUDE / folder).rglob("*.h*"):
        if {"nvidia_detail", "nvcc_detail"} & set(path.parts) or "nvcc" in path.name:
            continue
        lexed = lex(path.read_text(errors="replace"))
        names.update(t.text for t in lexed.code if t.kind == "ident")
    return frozenset(names)


def _emitted_for_52(family_name: str) -> list[str]:
    """The identifiers a family's table makes the engine write for HIP 5.2 (cass helpers aside)."""
    return [
        e.hip
        for e in all_entries()
        if e.family == family_name
        and e.status in ("supported", "rewritten")
        and e.available_in("5.2")
        and re.fullmatch(r"[A-Za-z_]\w*", e.hip)
        and not e.hip.startswith("__cass_")
    ]


def test_every_family_has_a_table_with_entries():
    families = {e.family for e in all_entries()}
    assert families == {f.name for f in FAMILIES}


def test_entries_are_well_formed():
    for e in all_entries():
        assert e.status in STATUSES, e
        if e.status == "unsupported":
            assert not e.since and e.note, e
        else:
            parse_version(e.since)
            assert e.hip, e


def test_no_name_is_listed_twice_in_a_family():
    seen = set()
    for e in all_entries():
        assert (e.family, e.cuda) not in seen, e
        seen.add((e.family, e.cuda))


@pytest.mark.parametrize("family", [f for f in FAMILIES if f.headers], ids=lambda f: f.name)
def test_every_hip_name_emitted_for_52_exists_in_the_installed_headers(family):
    """What cass can emit for HIP 5.2 is in the code of Debian's HIP 5.2 / hipRAND / hipSPARSE
    headers (renames and the names passes write in their place)."""
    known = frozenset().union(*(installed_names(folder) for folder in family.headers))
    emitted = _emitted_for_52(family.name)
    assert emitted
    assert not [name for name in emitted if name not in known]


@pytest.mark.parametrize(
    "family", [f for f in FAMILIES if not f.headers and f.unpackaged], ids=lambda f: f.name
)
def test_families_marked_unpackaged_are_not_installed(family):
    """If Debian starts packaging one, list its headers in FAMILIES so its names get checked."""
    assert not (INCLUDE / family.unpackaged).exists(), f"{family.unpackaged} is installed now"


def test_names_passes_write_for_52_exist_in_the_installed_headers():
    """Every HIP identifier the engine writes for HIP 5.2 (renames, rewritten calls, helpers) in
    the ports of the benchmark, example and test programs is in the installed headers."""
    from cass.models.engine import Target
    from cass.models.rules import port_unit

    root = Path(__file__).resolve().parents[2]
    programs = [
        *(root / "models" / "bench" / "tasks").rglob("*.cu"),
        *(root / "examples").rglob("*.cu"),
        *Path(__file__).parent.rglob("*.cu"),
    ]
    known = frozenset().union(*(installed_names(f) for f in INSTALLED_FAMILY_HEADERS))
    unverifiable = tuple(f.unpackaged for f in FAMILIES if f.unpackaged)  # hipcub::, hipblas...
    unknown: dict[str, str] = {}
    for program in programs:
        text = program.read_text(errors="replace")
        before = {t.text for t in lex(text).code if t.kind == "ident"}
        ported = port_unit(text, program.name, Target()).render()
        for tok in lex(ported).code:
            name = tok.text
            hip_name = name.lower().startswith(("hip", "__hip"))
            checkable = hip_name and not name.lower().startswith(unverifiable)
            if tok.kind == "ident" and name not in before and checkable and name not in known:
                unknown.setdefault(name, program.name)
    assert not unknown


def test_header_table_targets_exist_for_52():
    """Every header the engine includes for HIP 5.2 exists, where its folder is installed."""
    checked = 0
    for e in all_entries():
        if e.family == "headers" and e.status == "supported" and e.available_in("5.2"):
            folder = e.hip.split("/", 1)[0]
            if folder in INSTALLED_FAMILY_HEADERS:
                assert (INCLUDE / e.hip).is_file(), e
                checked += 1
    assert checked >= 20


def test_lookup_api_for_hover():
    entry = lookup("cudaMalloc")
    assert (entry.hip, entry.status, entry.since, entry.family) == (
        "hipMalloc",
        "supported",
        "5.2",
        "runtime",
    )
    assert lookup("__shfl_xor_sync").status == "rewritten"
    assert lookup("cudaStreamAttrValue").status == "unsupported"
    assert lookup("cuda_runtime.h").hip == "hip/hip_runtime.h"
    assert lookup("cub::DeviceReduce").hip == "hipcub::DeviceReduce"
    assert lookup("cg::reduce").since == "7.0"
    assert lookup("reduce") is None  # plain words are not CUDA names
    assert lookup("myFunction") is None


def test_version_parsing():
    assert parse_version("5.2") == (5, 2)
    assert parse_version("7.x") == (7, 0)
    with pytest.raises(ValueError, match=r"'latest' is not a HIP version \(expected e\.g\. 5\.2"):
        parse_version("latest")


def test_generated_documents_are_up_to_date():
    from cass.models.rules.docs import stale_documents

    assert not stale_documents(), "run: cass tables docs"


def test_every_code_is_documented_and_used_codes_exist():
    import pathlib

    from cass.models.rules import DIAGNOSTIC_CODES

    sources = "".join(
        p.read_text()
        for p in pathlib.Path(__file__)
        .resolve()
        .parents[2]
        .joinpath("models", "rules")
        .rglob("*.py")
    )
    used = set(re.findall(r'"(CASS\d{3})"', sources))
    assert used <= set(DIAGNOSTIC_CODES)
    for code in DIAGNOSTIC_CODES.values():
        assert code.title and code.explanation and code.anchor.endswith(code.code.lower())
