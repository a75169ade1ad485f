""" "Port file to HIP": where the mirror goes and what it contains, by the same rule as the hooks.

`plan_mirror` is pure apart from reading the project config and the current mirror file: it
returns the mirror's path, its current text (None when missing) and the new text (provenance
header + port). A mirror someone edited by hand is never planned over: a CassError says why.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from cass.runner.diagnostics import CassError
from cass.server.lsp.settings import Settings

if TYPE_CHECKING:  # cass.models loads on first use, not at the server's start
    from cass.models.engine import Translation
    from cass.models.workflow import mirror


@dataclass(frozen=True)
class MirrorPlan:
    source: Path
    path: Path
    old_text: str | None
    new_text: str
    translation: Translation
    state: mirror.MirrorState


def project_root(source: Path, workspace_roots: list[Path]) -> Path:
    """The repository root (a folder with .git) above `source`, else the folder of the project's
    cass config, else the workspace folder holding it, else the source's folder."""
    from cass.models.workflow import mirror

    for folder in source.parents:
        if (folder / ".git").exists():
            return folder
    config_file, _ = mirror.find_config_file(source)
    if config_file is not None:
        return config_file.parent
    holding = [root for root in workspace_roots if root in source.parents]
    return max(holding, key=lambda root: len(root.parts)) if holding else source.parent


def mirror_config(root: Path, settings: Settings) -> mirror.MirrorConfig:
    """The project's mirror rule; editor settings fill in only where the project says nothing
    (so the editor and the git hooks write the same mirror)."""
    from cass.models.workflow import mirror

    config = mirror.load_config(root)
    if config.config_path is None:
        config = replace(
            config,
            engine=settings.engine,
            target=replace(
                config.target, gfx_arch=settings.gfx_arch, hip_version=settings.hip_version
            ),
        )
    if settings.mirror_layout:
        config = replace(config, layout=settings.mirror_layout)
    if settings.mirror_tree:
        config = replace(config, tree=settings.mirror_tree)
    return config


def mirror_location(
    source: Path, workspace_roots: list[Path], settings: Settings
) -> tuple[Path, Path, mirror.MirrorConfig]:
    """(root, mirror path, config) for `source`."""
    from cass.models.workflow import mirror

    root = project_root(source, workspace_roots)
    config = mirror_config(root, settings)
    return root, mirror.mirror_path(source, root, config), config


def read_current(path: Path, open_text: str | None) -> str | None:
    """The mirror as the editor has it open, else on disk, else None."""
    if open_text is not None:
        return open_text
    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return None
    except (OSError, UnicodeDecodeError) as exc:
        raise CassError(f"{path}: cannot read the existing mirror ({exc}); fix or move it") from exc


def plan_mirror(
    source: Path,
    source_text: str,
    root: Path,
    config: mirror.MirrorConfig,
    target: Path,
    current: str | None,
    translation: Translation,
    engine_version: str,
) -> MirrorPlan:
    """The new mirror text for `source_text`, or CassError when the mirror is protected."""
    from cass.models.workflow import advice, mirror

    rel = mirror.relative_posix(source, root)
    source_sha = mirror.sha256_text(source_text)
    status = mirror.classify(source_sha, current, config, rel)
    if status.is_protected or status.state is mirror.MirrorState.KEPT:
        fix = advice.for_state(status.state, rel, config) or (
            f"regenerate it: `{advice.port_command([rel], 'force')}` (your version is backed up)"
        )
        raise CassError(
            f"{target}: {status.reason}. Nothing was changed: cass never overwrites "
            f"a mirror edited by hand; {fix}"
        )
    errors = [d for d in translation.diagnostics if d.severity.value == "error"]
    body, verdict = mirror.generated_body(rel, translation.text, errors)
    provenance = mirror.Provenance(
        source=rel,
        source_sha256=source_sha,
        engine=translation.engine,
        engine_version=engine_version,
        target=config.target.gfx_arch,
        verdict=verdict,  # as the hooks write it: "untranslated" lists what is left at the top
        body_sha256="",
    )
    new_text = mirror.render_mirror(body, provenance)
    return MirrorPlan(source, target, current, new_text, translation, status.state)
