"""The mapping tables: well-formed, consistent, and true to the installed HIP headers."""

import re
from functools import cache
from pathlib import Path

import pytest
from cass.models.rules import FAMILIES, lookup
from cass.models.rules.tables import STATUSES, all_entries, parse_version

INCLUDE = Path("/usr/include")


@cache
def installed_names(folder: str) -> frozenset[str]:
    names: set[str] = set()
    for path in (INCLUDE / folder).rglob("*.h*"):
        if {"nvidia_detail", "nvcc_detail"} & set(path.parts) or "nvcc" in path.name:
            continue
        names.update(re.findall(r"\b[A-Za-z_]\w*\b", path.read_text(errors="replace")))
    return frozenset(names)


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
    """What cass can emit for HIP 5.2 is declared by Debian's HIP 5.2 / hipRAND / hipSPARSE headers."""
    known = frozenset().union(*(installed_names(folder) for folder in family.headers))
    missing = [
        e.hip
        for e in all_entries()
        if e.family == family.name
        and e.status == "supported"
        and e.available_in("5.2")
        and e.hip not in known
    ]
    assert not missing


def test_header_table_targets_exist_for_52():
    for e in all_entries():
        if (
            e.family == "headers"
            and e.status == "supported"
            and e.available_in("5.2")
            and e.hip.startswith("hip/")
        ):
            assert (INCLUDE / e.hip).is_file(), e


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
    with pytest.raises(ValueError):
        parse_version("latest")


def test_generated_documents_are_up_to_date():
    from cass.models.rules.docs import main as docs_main

    assert docs_main(["--check"]) == 0, "run: python -m cass.models.rules.docs"


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
