"""The server's settings: one typed record, read from initializationOptions and
`workspace/configuration` (section `cass`), validated field by field.

editors/vscode/package.json is the single source of the defaults; tests/lsp checks that the
defaults below agree with it. An invalid value is reported (one line per value) and its default
used; the rest of the settings still apply.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

# Literal defaults, checked against package.json, cass.runner.toolchain.DEFAULT_GFX_ARCH and the
# engine registry by tests/lsp: importing those here would put the rules tables and the toolchain
# on the server's start-up path (benchmarks/bench_lsp_startup.py).
DEFAULT_GFX_ARCH = "gfx1100"
MIRROR_LAYOUTS = ("", "beside", "tree")  # "": the project's [tool.cass.mirror] rule


def engines() -> tuple[str, ...]:
    """The values cass.engine takes (the registry's source engines)."""
    from cass.models.registry import SOURCE_ENGINES

    return tuple(SOURCE_ENGINES)


@dataclass(frozen=True)
class Settings:
    engine: str = "rules"
    model_path: str = ""
    model_server_url: str = ""
    hip_version: str = "5.2"
    gfx_arch: str = DEFAULT_GFX_ARCH
    mirror_layout: str = ""
    mirror_tree: str = ""
    verify_on_port: bool = False
    diagnostics_enable: bool = True
    debounce_ms: int = 300
    max_file_kb: int = 2048
    timeout_s: int = 600

    @property
    def max_file_bytes(self) -> int:
        return self.max_file_kb * 1024


# Dotted setting key (as in package.json, without the `cass.` prefix) -> field, and its check.
KEYS: dict[str, str] = {
    "engine": "engine",
    "model.path": "model_path",
    "model.serverUrl": "model_server_url",
    "target.hipVersion": "hip_version",
    "target.gfxArch": "gfx_arch",
    "mirror.layout": "mirror_layout",
    "mirror.tree": "mirror_tree",
    "verifyOnPort": "verify_on_port",
    "diagnostics.enable": "diagnostics_enable",
    "diagnostics.debounceMs": "debounce_ms",
    "limits.maxFileKB": "max_file_kb",
    "limits.timeoutS": "timeout_s",
}

# Settings only the VS Code client reads (the server ignores them without complaint).
CLIENT_ONLY_KEYS = frozenset({"server.pythonPath", "trace.server"})

_RANGES: dict[str, tuple[int, int]] = {
    "debounce_ms": (0, 10_000),
    "max_file_kb": (1, 1_000_000),
    "timeout_s": (1, 86_400),
}


def flatten(tree: Any, prefix: str = "") -> dict[str, Any]:
    """`{"target": {"gfxArch": "x"}}` -> `{"target.gfxArch": "x"}`; dotted keys pass through."""
    if not isinstance(tree, dict):
        return {}
    flat: dict[str, Any] = {}
    for key, value in tree.items():
        name = f"{prefix}{key}"
        if isinstance(value, dict):
            flat.update(flatten(value, f"{name}."))
        else:
            flat[name] = value
    return flat


def _check(field_name: str, value: Any, default: Any) -> str | None:
    """Why `value` is not valid for the field, or None when it is."""
    if isinstance(default, bool):
        return None if isinstance(value, bool) else "expected true or false"
    if isinstance(default, int):
        if isinstance(value, bool) or not isinstance(value, int):
            return "expected a whole number"
        low, high = _RANGES[field_name]
        return None if low <= value <= high else f"expected a number from {low} to {high}"
    if not isinstance(value, str):
        return "expected a string"
    if field_name == "engine" and value not in engines():
        return f"expected one of {', '.join(engines())}"
    if field_name == "mirror_layout" and value not in MIRROR_LAYOUTS:
        return "expected beside, tree or an empty string (the project's rule)"
    if field_name == "gfx_arch" and value and not value.startswith("gfx"):
        return "expected an AMD GPU architecture such as gfx1100"
    return None


def parse_settings(raw: Any, base: Settings | None = None) -> tuple[Settings, list[str]]:
    """Settings from a (nested or dotted) `cass` object, and one message per invalid value.

    Keys absent from `raw` keep their value in `base` (the defaults when None); a `null` value
    means "the default". Unknown keys are ignored, as VS Code may send keys of newer versions.
    """
    base = base or Settings()
    defaults = Settings()
    changes: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in flatten(raw).items():
        field_name = KEYS.get(key)
        if field_name is None:
            continue
        default = getattr(defaults, field_name)
        if value is None:
            changes[field_name] = default
            continue
        why = _check(field_name, value, default)
        if why is None:
            changes[field_name] = value
        else:
            problems.append(
                f"cass: invalid setting cass.{key} = {value!r}: {why}; using {default!r}"
            )
            changes[field_name] = default
    return replace(base, **changes), problems


def defaults_by_key() -> dict[str, Any]:
    """`cass.<key>` -> default value, in the form package.json states it."""
    defaults = Settings()
    return {f"cass.{key}": getattr(defaults, name) for key, name in KEYS.items()}
