"""What kind of file a document is (CUDA, SASS, neither) and immutable snapshots of documents.

A snapshot is what long work runs on: the text and version at the start, so the result can be
checked against the document as it is when the work ends.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import unquote, urlparse

from cass.runner.diagnostics import CassError

CUDA_SUFFIXES = frozenset({".cu", ".cuh"})
SASS_SUFFIXES = frozenset({".sass"})
CUDA_LANGUAGES = frozenset({"cuda", "cuda-cpp"})
SASS_LANGUAGES = frozenset({"nvidia-sass", "sass-nvidia"})

# cuobjdump -sass / nvdisasm output: "code for sm_90", "Function : name", "/*0040*/  IMAD ...".
_SASS_MARKERS = re.compile(
    r"^\s*(code for sm_\d+|Function : \S+|/\*[0-9a-f]{4,}\*/\s+[A-Z@])", re.M
)


_SASS_ARCH = re.compile(r"code for (sm_\d+a?)")


def sass_arch_of(text: str) -> str | None:
    """The SASS architecture cuobjdump names ("code for sm_90"), if it does."""
    found = _SASS_ARCH.search(text[:65536])
    return found.group(1) if found else None


@dataclass(frozen=True)
class Snapshot:
    uri: str
    version: int | None
    text: str
    language_id: str | None = None

    @property
    def path(self) -> Path | None:
        """The file's local path, or None for an unsaved (`untitled:`) buffer."""
        parsed = urlparse(self.uri)
        if parsed.scheme != "file":
            return None
        return Path(unquote(parsed.path))

    @property
    def name(self) -> str:
        """A name for messages: the path, else the last part of the URI."""
        path = self.path
        return (
            str(path) if path else PurePosixPath(unquote(urlparse(self.uri).path)).name or self.uri
        )

    @property
    def suffix(self) -> str:
        return PurePosixPath(unquote(urlparse(self.uri).path)).suffix.lower()

    @property
    def kind(self) -> str | None:
        return document_kind(self.suffix, self.language_id, self.text)


def document_kind(suffix: str, language_id: str | None, text: str) -> str | None:
    """ "cuda", "sass" or None, from the language id, then the suffix, then SASS markers."""
    if language_id in CUDA_LANGUAGES or suffix in CUDA_SUFFIXES:
        return "cuda"
    if language_id in SASS_LANGUAGES or suffix in SASS_SUFFIXES:
        return "sass"
    if suffix in {".txt", ".asm", ".cuasm", ""} and _SASS_MARKERS.search(text[:8192]):
        return "sass"
    return None


def require_kind(snapshot: Snapshot, kind: str) -> None:
    """CassError unless the document is of `kind`, saying what the action works on."""
    if snapshot.kind == kind:
        return
    wanted = {
        "cuda": "a CUDA file (.cu, .cuh)",
        "sass": "NVIDIA SASS (a .sass file or cuobjdump -sass output)",
    }[kind]
    raise CassError(f"{snapshot.name} is not {wanted}; open one and try again.")


def require_size(snapshot: Snapshot, max_bytes: int) -> None:
    size = len(snapshot.text.encode("utf-8", errors="replace"))
    if size > max_bytes:
        raise CassError(
            f"{snapshot.name} is {size // 1024} KiB, over the limit of {max_bytes // 1024} KiB "
            "(setting cass.limits.maxFileKB); raise the limit or use `cass port` in a terminal."
        )
