"""What the gateway sends upstream: the endpoints it serves (each one a provider and a path under
that provider's base URL) and the request it builds for the provider, with the real key in place of
the run's token."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Mapping
from dataclasses import dataclass
from email.message import Message
from typing import Any

from pytest_mlebench.gateway.config import Provider

ANTHROPIC_VERSION = "2023-06-01"
FORWARDED_REQUEST_HEADERS = (
    "content-type",
    "accept",
    "openai-beta",
    "anthropic-version",
    "anthropic-beta",
)


@dataclass(frozen=True)
class Route:
    """An endpoint the gateway serves: which provider, and the path under its base URL."""

    provider: str
    upstream_path: str
    kind: str


ROUTES: Mapping[tuple[str, str], Route] = {
    ("POST", "/v1/chat/completions"): Route("openai", "/chat/completions", "chat"),
    ("POST", "/v1/responses"): Route("openai", "/responses", "responses"),
    ("POST", "/v1/embeddings"): Route("openai", "/embeddings", "embeddings"),
    ("GET", "/v1/models"): Route("openai", "/models", "models"),
    ("POST", "/v1/messages"): Route("anthropic", "/v1/messages", "messages"),
}


def route_for(method: str, path: str) -> Route | None:
    """The route of ``method path`` (the query string ignored), ``None`` when not served."""
    return ROUTES.get((method, path.split("?", 1)[0]))


def served_endpoints() -> str:
    """``POST /v1/chat/completions, ...``: what a refusal of an unknown path lists."""
    return ", ".join(f"{method} {path}" for method, path in ROUTES)


def with_usage_in_stream(payload: dict[str, Any]) -> bytes:
    """A streamed chat request that asks for the usage chunk (how the gateway counts tokens)."""
    options = payload.get("stream_options")
    options = dict(options) if isinstance(options, dict) else {}
    options.setdefault("include_usage", True)
    return json.dumps({**payload, "stream_options": options}).encode()


def upstream_request(
    method: str,
    headers: Message,
    route: Route,
    provider: Provider,
    key: str | None,
    body: bytes,
) -> urllib.request.Request:
    """The provider's request: the agent's forwarded headers, the real key, the body (POST)."""
    sent = {
        name: value
        for name in FORWARDED_REQUEST_HEADERS
        if (value := headers.get(name)) is not None
    }
    if route.provider == "anthropic":
        sent.setdefault("anthropic-version", ANTHROPIC_VERSION)
        if key:
            sent["x-api-key"] = key
    elif key:
        sent["Authorization"] = f"Bearer {key}"
    data = body if method == "POST" else None
    url = provider.base_url + route.upstream_path
    return urllib.request.Request(url, data=data, headers=sent, method=method)
