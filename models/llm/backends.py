"""Which backend serves a model: an http(s) URL, a .gguf file or a checkpoint directory.

    backend = open_backend("model.gguf", ModelOptions(context=16384))

Each backend module imports its heavy library (llama_cpp, transformers) only when it loads a
model, so importing this module is cheap.
"""

from __future__ import annotations

from pathlib import Path

from cass.models.llm.backend import ChatBackend, ModelOptions
from cass.models.llm.http_chat import HttpChatBackend
from cass.models.llm.llama_gguf import LlamaCppBackend
from cass.models.llm.transformers_local import TransformersBackend
from cass.runner.diagnostics import CassError


def open_backend(model: str, options: ModelOptions | None = None) -> ChatBackend:
    """A backend for `model`: an http(s) URL (OpenAI-compatible server), a .gguf file
    (llama.cpp), or a Hugging Face checkpoint directory (transformers)."""
    options = options or ModelOptions()
    if not model:
        raise CassError(
            "no model given: pass --model PATH.gguf, a checkpoint directory, or an http:// URL"
        )
    if model.startswith(("http://", "https://")):
        return HttpChatBackend(model, options)
    path = Path(model).expanduser()
    if path.is_dir():
        return TransformersBackend(path, options)
    if path.is_file() or path.suffix == ".gguf":
        return LlamaCppBackend(path, options)
    raise CassError(
        f"{model}: no such model file or directory; give a .gguf file, a checkpoint directory, or a URL"
    )
