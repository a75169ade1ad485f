"""Settings: parsing, validation, and agreement with editors/vscode/package.json (the single
source of the defaults)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cass.server.lsp.settings import (
    CLIENT_ONLY_KEYS,
    KEYS,
    Settings,
    defaults_by_key,
    parse_settings,
)

PACKAGE_JSON = Path(__file__).resolve().parents[2] / "editors" / "vscode" / "package.json"


def contributed() -> dict[str, dict]:
    return json.loads(PACKAGE_JSON.read_text())["contributes"]["configuration"]["properties"]


def test_server_defaults_match_package_json() -> None:
    properties = contributed()
    server_keys = {key for key in properties if key.removeprefix("cass.") not in CLIENT_ONLY_KEYS}
    assert server_keys == set(defaults_by_key())
    for key, default in defaults_by_key().items():
        assert properties[key]["default"] == default, key


def test_enums_in_package_json_are_accepted_by_the_server() -> None:
    for key, spec in contributed().items():
        short = key.removeprefix("cass.")
        for value in spec.get("enum", []):
            if short in KEYS:
                assert parse_settings({short: value})[1] == [], (key, value)


def test_nested_and_dotted_settings() -> None:
    settings, problems = parse_settings(
        {
            "engine": "auto",
            "target": {"gfxArch": "gfx1101"},
            "diagnostics.debounceMs": 10,
            "unknownKey": 1,
        }
    )
    assert problems == []
    assert (settings.engine, settings.gfx_arch, settings.debounce_ms) == ("auto", "gfx1101", 10)


@pytest.mark.parametrize(
    ("raw", "field", "words"),
    [
        ({"engine": "magic"}, "engine", "expected one of rules, model, auto"),
        ({"diagnostics": {"debounceMs": -5}}, "debounce_ms", "from 0 to 10000"),
        ({"diagnostics": {"debounceMs": "fast"}}, "debounce_ms", "whole number"),
        ({"verifyOnPort": "yes"}, "verify_on_port", "true or false"),
        ({"target": {"gfxArch": "sm_90"}}, "gfx_arch", "AMD GPU architecture"),
        ({"mirror": {"layout": "sideways"}}, "mirror_layout", "beside, tree"),
        ({"limits": {"maxFileKB": True}}, "max_file_kb", "whole number"),
    ],
)
def test_invalid_values_are_reported_and_defaults_used(raw: dict, field: str, words: str) -> None:
    base = Settings(
        engine="auto",
        debounce_ms=5,
        verify_on_port=True,
        gfx_arch="gfx1101",
        mirror_layout="tree",
        max_file_kb=10,
    )
    settings, problems = parse_settings(raw, base)
    assert len(problems) == 1 and words in problems[0] and "using" in problems[0]
    assert getattr(settings, field) == getattr(Settings(), field)


def test_null_resets_and_absent_keeps() -> None:
    base = Settings(engine="model", gfx_arch="gfx1101")
    settings, _ = parse_settings({"engine": None}, base)
    assert settings.engine == "rules" and settings.gfx_arch == "gfx1101"


def test_the_literal_defaults_agree_with_the_toolchain_and_the_registry() -> None:
    from cass.models.registry import SOURCE_ENGINES
    from cass.runner.toolchain import DEFAULT_GFX_ARCH
    from cass.server.lsp import settings

    assert settings.DEFAULT_GFX_ARCH == DEFAULT_GFX_ARCH
    assert settings.engines() == tuple(SOURCE_ENGINES)


def test_the_server_starts_without_loading_engines_or_toolchains() -> None:
    """cass.models (rules tables, engines) and the toolchain load on first use, so the server
    answers `initialize` sooner (benchmarks/bench_lsp_startup.py)."""
    import subprocess
    import sys

    probe = (
        "import sys; from cass.server.lsp import create_server; create_server(); "
        "print(sorted(m for m in sys.modules if m.startswith(('cass.models', "
        "'cass.runner.toolchain'))))"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
