"""The published CASS models (Qwen2.5-Coder fine-tunes) and where the user has them.

No download ever happens: `locate` only looks in the folders the user keeps models in
($CASS_MODELS, else ~/.cache/cass/models, plus any folder given) for a checkpoint directory or a
GGUF named after the model.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from cass.models.engine import Level

CHECKPOINT_FILES = ("config.json", "tokenizer.json", "tokenizer_config.json", "*.safetensors")


@dataclass(frozen=True)
class PublishedModel:
    name: str
    task: Level  # source: CUDA -> HIP; assembly: SASS -> RDNA3 assembly
    sass_arch: str | None  # the SASS the assembly model was trained on
    parameters: str
    base: str


PUBLISHED: tuple[PublishedModel, ...] = (
    PublishedModel("cass-src-1.5b", "source", None, "1.5B", "Qwen2.5-Coder-1.5B"),
    PublishedModel("cass-src-3b", "source", None, "3B", "Qwen2.5-Coder-3B"),
    PublishedModel("cass-src-7b", "source", None, "7B", "Qwen2.5-Coder-7B"),
    PublishedModel("cass-smA100-1.5b", "assembly", "sm_80", "1.5B", "Qwen2.5-Coder-1.5B"),
    PublishedModel("cass-smA100-3b", "assembly", "sm_80", "3B", "Qwen2.5-Coder-3B"),
    PublishedModel("cass-smA100-7b", "assembly", "sm_80", "7B", "Qwen2.5-Coder-7B"),
    PublishedModel("cass-sm4090-1.5b", "assembly", "sm_89", "1.5B", "Qwen2.5-Coder-1.5B"),
    PublishedModel("cass-sm4090-3b", "assembly", "sm_89", "3B", "Qwen2.5-Coder-3B"),
)


@dataclass(frozen=True)
class BundledModel:
    """The model that ships with cass: what the model engines use when no model is named."""

    name: str
    file: str
    parameters: str
    trained_on: str


BUNDLED = BundledModel(
    "cass-scratch-10m",
    "cass-scratch-10m-q4_0.gguf",
    "8.4M",
    "the benchmark's tasks (source and assembly), from scratch on an H200 in 260 s",
)
BUNDLED_DIR = Path(__file__).resolve().parent / "bundled"


def bundled_model_path() -> Path | None:
    """The bundled GGUF, or None in an install that left it out."""
    path = BUNDLED_DIR / BUNDLED.file
    return path if path.is_file() else None


def resolve_model(model: str = "") -> str:
    """The model a caller means: the one named, else $CASS_MODEL, else the bundled GGUF."""
    if model or os.environ.get("CASS_MODEL"):
        return model or os.environ["CASS_MODEL"]
    bundled = bundled_model_path()
    return str(bundled) if bundled is not None else ""


def model_dirs(extra: list[Path] | None = None) -> list[Path]:
    env = os.environ.get("CASS_MODELS")
    default = Path(env) if env else Path.home() / ".cache" / "cass" / "models"
    return [*(extra or []), default]


def _is_checkpoint(folder: Path) -> bool:
    return all(any(folder.glob(pattern)) for pattern in CHECKPOINT_FILES)


def locate(model: PublishedModel, folders: list[Path]) -> list[Path]:
    """The user's copies of `model`: checkpoint directories and GGUF files named after it."""
    found: list[Path] = []
    for folder in folders:
        if not folder.is_dir():
            continue
        for path in sorted(folder.iterdir()):
            stem = path.name.lower()
            named = stem == model.name.lower() or stem.startswith(
                (model.name.lower() + "-", model.name.lower() + ".")
            )
            if named and (
                (path.is_dir() and _is_checkpoint(path))
                or (path.is_file() and path.suffix == ".gguf")
            ):
                found.append(path)
    return found


def find(name: str) -> PublishedModel | None:
    return next((m for m in PUBLISHED if m.name.lower() == name.lower()), None)
