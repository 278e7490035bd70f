"""LLM providers as option values: their names and base URLs, upstream specs, model names.

``--mle-gateway-upstream openai=URL,anthropic=URL`` points a provider of the LLM gateway
(:mod:`pytest_mlebench.gateway`) at another base URL; ``--mle-judge MODEL`` names the model of the
integrity judge. Both are checked here, before any gateway or judge exists.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from urllib.parse import urlparse

from pytest_mlebench.errors import ConfigError

DEFAULT_BASE_URLS: Mapping[str, str] = {
    "openai": "https://api.openai.com/v1",
    "anthropic": "https://api.anthropic.com",
}
MODEL_NAME = re.compile(r"[A-Za-z0-9._:/@-]+")


def check_base_url(url: str, where: str) -> str:
    """``url`` if it is an http(s) URL with a host; else :class:`ConfigError` naming ``where``."""
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or not parsed.netloc:
        raise ConfigError(f"{where}: base URL {url!r} must be http://HOST[:PORT]/... or https://")
    return url.rstrip("/")


# A named upstream: the local model server of ``mlebench model serve`` on loopback.
LOCAL_HOST = "127.0.0.1"
LOCAL_PORT = 8080
LOCAL_NAME = re.compile(r"local(?::(\d{1,5}))?")


def parse_upstreams(values: list[str] | tuple[str, ...]) -> dict[str, str]:
    """``PROVIDER=URL`` pairs of ``--mle-gateway-upstream``; ``ValueError`` names a bad one.

    URL may also be a named upstream, ``local`` or ``local:PORT`` (the local model server of
    ``mlebench model serve``), kept as written and resolved by the gateway's configuration.
    """
    upstreams: dict[str, str] = {}
    for value in values:
        name, sep, url = str(value).partition("=")
        if not sep or name not in DEFAULT_BASE_URLS:
            raise ValueError(
                f"{value!r}: expected PROVIDER=URL (or PROVIDER=local[:PORT]) with PROVIDER "
                f"one of {', '.join(DEFAULT_BASE_URLS)}"
            )
        if LOCAL_NAME.fullmatch(url.strip()):
            upstreams[name] = url.strip()
            continue
        try:
            upstreams[name] = check_base_url(url, name)
        except ConfigError as exc:
            raise ValueError(str(exc)) from None
    return upstreams


def upstream_pairs(value: object) -> tuple[tuple[str, str], ...]:
    """``openai=URL,anthropic=URL`` as sorted (provider, URL) pairs; unset means none."""
    if value is None:
        return ()
    return tuple(sorted(parse_upstreams(str(value).split(",")).items()))


def judge_model(value: object) -> str | None:
    """The ``--mle-judge`` setting: unset means no judge."""
    if value is None or not str(value).strip():
        return None
    if not MODEL_NAME.fullmatch(str(value).strip()):
        raise ValueError("expected a model name such as gpt-4o or anthropic/claude-3-5-haiku")
    return str(value).strip()
