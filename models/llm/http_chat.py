"""The http backend: any OpenAI-compatible chat endpoint (a llama.cpp server, vLLM) shared by
a team. Streams server-sent events; closing the stream cancels the request."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from collections.abc import Iterator
from typing import Any

from cass.models.llm.backend import ModelOptions, Sampling, Usage
from cass.runner.diagnostics import CassError

DEFAULT_CONTEXT = 32768
CHARS_PER_TOKEN = 4  # estimate where the server offers no tokenizer


def api_base(url: str) -> str:
    """`http://host:8080`, `.../v1` and `.../v1/chat/completions` all name the same API."""
    base = url.rstrip("/")
    for suffix in ("/chat/completions", "/completions"):
        base = base.removesuffix(suffix)
    return base if base.endswith("/v1") else base + "/v1"


class HttpChatBackend:
    name = "http"

    def __init__(self, url: str, options: ModelOptions) -> None:
        self.base = api_base(url)
        self.options = options
        listing = self._get("/models")
        models = listing.get("data") or [{}]
        self.model = str(models[0].get("id") or "default")
        meta = models[0].get("meta") or {}
        self.context_tokens = int(options.context or meta.get("n_ctx_train") or DEFAULT_CONTEXT)
        self.model_id = f"{self.base} ({self.model})"

    def _request(self, path: str, body: dict[str, Any] | None = None) -> Any:
        headers = {"Content-Type": "application/json"}
        if self.options.api_key:
            headers["Authorization"] = f"Bearer {self.options.api_key}"
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.base + path, data=data, headers=headers)
        try:
            return urllib.request.urlopen(request, timeout=self.options.timeout_s)
        except urllib.error.HTTPError as exc:
            detail = exc.read(500).decode("utf-8", "replace")
            raise CassError(
                f"{self.base}{path}: the model server answered {exc.code}: {detail}"
            ) from None
        except (urllib.error.URLError, OSError) as exc:
            reason = getattr(exc, "reason", exc)
            raise CassError(
                f"{self.base}: the model server is not reachable ({reason}); start it or fix the URL"
            ) from None

    def _get(self, path: str) -> dict[str, Any]:
        with self._request(path) as response:
            try:
                return json.loads(response.read())
            except ValueError:
                raise CassError(
                    f"{self.base}{path}: not an OpenAI-compatible server (no JSON answer)"
                ) from None

    def count_tokens(self, text: str) -> int:
        return max(1, len(text) // CHARS_PER_TOKEN)

    def stream(self, messages: list[dict[str, str]], sampling: Sampling) -> Iterator[str | Usage]:
        body = {
            "model": self.model, "messages": messages, "temperature": sampling.temperature,
            "top_p": sampling.top_p, "max_tokens": sampling.max_tokens, "seed": sampling.seed,
            "stream": True, "stream_options": {"include_usage": True},
        }  # fmt: skip
        response = self._request("/chat/completions", body)
        try:
            yield from _events(response)
        finally:
            response.close()

    def close(self) -> None:
        pass


def _events(response: Any) -> Iterator[str | Usage]:
    for raw in response:
        line = raw.decode("utf-8", "replace").strip()
        if not line.startswith("data:"):
            continue
        payload = line[5:].strip()
        if payload == "[DONE]":
            return
        event = json.loads(payload)
        for choice in event.get("choices") or []:
            piece = (choice.get("delta") or {}).get("content")
            if piece:
                yield piece
        usage = event.get("usage")
        if usage:
            yield Usage(int(usage.get("prompt_tokens", 0)), int(usage.get("completion_tokens", 0)))
