"""What a run's gateway serves: providers (upstream base URL, key) and the run's budget.

An agent config names its providers under ``gateway:`` (or, in the original benchmark's layout, as
``OPENAI_API_KEY: ${{ secrets.OPENAI_API_KEY }}`` in ``env_vars``, which the gateway takes over).
Keys are kept as written — ``${{ secrets.NAME }}`` — and resolved from the host's environment only
when a run's gateway starts, so a key never passes through the agent's environment and a missing
secret is a clear error in that run's record.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from pytest_mlebench.errors import ConfigError, SandboxError
from pytest_mlebench.gateway.capabilities import (
    FORCED_TOOL_CALL,
    NATIVE,
    TOOL_CALLS,
    named_upstream,
)
from pytest_mlebench.values.providers import DEFAULT_BASE_URLS, check_base_url

SECRET = re.compile(r"\$\{\{\s*secrets\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}")
# Environment variables of the original agent configs that hold a provider's key.
PROVIDER_KEYS = ("api_key", "base_url", "forced_tool_call", "tool_calls")
KEY_VARIABLES: Mapping[str, str] = {
    "OPENAI_API_KEY": "openai",
    "ANTHROPIC_API_KEY": "anthropic",
}


class GatewayError(SandboxError):
    """The gateway could not start or is misconfigured (infrastructure: the run is an error)."""


@dataclass(frozen=True)
class Provider:
    """One upstream API: where it lives, the key the gateway adds (``None``: no key sent), how
    it takes a forced tool call and how its model answers with calls (``text``: written in the
    message, read back by the gateway; :mod:`~pytest_mlebench.gateway.capabilities`)."""

    name: str
    base_url: str
    api_key: str | None = None
    forced_tool_call: str = NATIVE
    tool_calls: str = NATIVE

    def resolved_key(self, environ: Mapping[str, str]) -> str | None:
        """The key with ``${{ secrets.NAME }}`` taken from the host environment ``environ``.

        Raises:
            GatewayError: When a named secret is not set.
        """
        if self.api_key is None:
            return None
        missing = [name for name in SECRET.findall(self.api_key) if not environ.get(name)]
        if missing:
            raise GatewayError(
                f"the LLM gateway needs the secret {missing[0]} for provider {self.name!r}, "
                f"but it is not set on the host: export {missing[0]}=... before running pytest "
                "(keys stay on the host; the sandbox never sees them)"
            )
        return SECRET.sub(lambda match: environ[match.group(1)], self.api_key)


@dataclass(frozen=True)
class Budget:
    """Limits of one run; ``None`` means unlimited."""

    tokens: int | None = None
    cost_usd: float | None = None


@dataclass(frozen=True)
class GatewayConfig:
    """The providers a run's gateway serves."""

    providers: Mapping[str, Provider] = field(default_factory=dict)

    def with_upstreams(self, upstreams: Mapping[str, str]) -> GatewayConfig:
        """This config with base URLs replaced from ``--mle-gateway-upstream`` (those win); a
        named upstream (``local[:PORT]``) brings its capabilities too."""
        providers = dict(self.providers)
        for name, url in upstreams.items():
            current = providers.get(name) or Provider(name, url)
            named = named_upstream(url)
            if named is None:
                providers[name] = replace(current, base_url=url)
            else:
                providers[name] = replace(
                    current,
                    base_url=named.base_url,
                    forced_tool_call=named.forced_tool_call,
                    tool_calls=named.tool_calls,
                )
        return GatewayConfig(providers)


def gateway_config(section: object, env_vars: Mapping[str, str], where: str) -> GatewayConfig:
    """The gateway of an agent config: its ``gateway:`` section and provider keys in ``env_vars``.

    Args:
        section: The value of ``gateway:`` (a mapping of provider names to ``api_key`` /
            ``base_url``; absent: ``None``).
        env_vars: The agent's environment variables as written (secrets unresolved).
        where: The config file, for messages.

    Raises:
        ConfigError: When the section is malformed (the message names the entry).
    """
    providers: dict[str, Provider] = {}
    for variable, value in env_vars.items():
        if variable in KEY_VARIABLES and SECRET.search(value):
            name = KEY_VARIABLES[variable]
            providers[name] = Provider(name, DEFAULT_BASE_URLS[name], value)
    if section is None:
        return GatewayConfig(providers)
    if not isinstance(section, dict):
        raise ConfigError(f"{where}: 'gateway' must map provider names to api_key and base_url")
    for name, entry in section.items():
        providers[str(name)] = _provider(str(name), entry or {}, providers.get(str(name)), where)
    return GatewayConfig(providers)


def _provider(name: str, entry: object, taken: Provider | None, where: str) -> Provider:
    if name not in DEFAULT_BASE_URLS:
        raise ConfigError(
            f"{where}: gateway provider {name!r} is unknown; use {' or '.join(DEFAULT_BASE_URLS)} "
            "(an OpenAI-compatible server such as vLLM or Ollama is 'openai' with its base_url)"
        )
    if not isinstance(entry, dict) or set(entry) - set(PROVIDER_KEYS):
        raise ConfigError(
            f"{where}: gateway provider {name!r} takes {', '.join(PROVIDER_KEYS)} only"
        )
    base_url = str(entry.get("base_url") or DEFAULT_BASE_URLS[name])
    named = named_upstream(base_url)
    if named is None:
        check_base_url(base_url, f"{where}: gateway provider {name!r}")
    forced = str(entry.get("forced_tool_call") or (named.forced_tool_call if named else NATIVE))
    if forced not in FORCED_TOOL_CALL:
        raise ConfigError(
            f"{where}: gateway provider {name!r}: forced_tool_call {forced!r} must be "
            f"{' or '.join(FORCED_TOOL_CALL)} (schema: the upstream ignores a forced "
            "tool_choice, the gateway asks for a JSON-schema answer instead)"
        )
    calls = str(entry.get("tool_calls") or (named.tool_calls if named else NATIVE))
    if calls not in TOOL_CALLS:
        raise ConfigError(
            f"{where}: gateway provider {name!r}: tool_calls {calls!r} must be "
            f"{' or '.join(TOOL_CALLS)} (text: the model writes its calls in the message, the "
            "gateway reads them back into tool_calls)"
        )
    key = entry.get("api_key")
    return Provider(
        name,
        named.base_url if named else base_url,
        str(key) if key is not None else (taken.api_key if taken else None),
        forced,
        calls,
    )


def host_environment() -> Mapping[str, str]:
    """The host's environment, where secrets are resolved (a seam for tests)."""
    return os.environ
