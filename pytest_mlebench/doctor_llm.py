"""The doctor's LLM lines: the agent's gateway, prices, the model server behind it, its image.

The agent of ``--agent`` is loaded as a run would load it, and its gateway gets the upstreams of
``--gateway-upstream`` (``MLEBENCH_GATEWAY_UPSTREAM``) laid over its config, as a run does:

* ``llm gateway``: each provider (the base URL a run would call) and whether its secret is set;
* ``llm prices``: the price table loads and prices the models the agent's kwargs name;
* ``llm server`` (a provider on this machine only: loopback): the server answers ``/models``,
  which models it serves, the context it runs with (llama.cpp says; others do not) and the
  agent's own answer cap (``--max-tokens N`` or ``agent.max_tokens=N`` in its kwargs);
* ``agent image``: the profile the folder's Dockerfile builds FROM and whether it is built; the
  ``ml`` profile is several GB, built by the first run that needs it unless built before.
"""

from __future__ import annotations

import ipaddress
from collections.abc import Sequence
from pathlib import Path
from typing import Any
from urllib.parse import urlparse

from pytest_mlebench.doctor_check import Check
from pytest_mlebench.errors import MLEBenchError
from pytest_mlebench.values.providers import DEFAULT_BASE_URLS

PRICE_FIX = (
    "give --mle-price-table FILE (or MLEBENCH_PRICE_TABLE) with models: {NAME: {input: $, "
    "output: $}} per million tokens; without a price the run's cost is recorded as unknown"
)
# A context below this holds about ten steps of mini-swe-agent's history (docs/local-models.md).
SMALL_CONTEXT = 16384
CAP_KEYS = ("--max-tokens", "agent.max_tokens")
SERVE_CAP = 4096  # mlebench model serve's default answer cap


def check_llm(
    agent_name: str, price_table: Path | None, upstreams: Sequence[tuple[str, str]] = ()
) -> list[Check]:
    """The ``llm gateway`` and ``llm prices`` lines, and an ``llm server`` line per provider of
    the agent's gateway on this machine."""
    try:
        agent = _load(agent_name, price_table)
    except MLEBenchError as exc:
        return [Check("llm gateway", "FAIL", f"agent {agent_name!r} cannot be loaded", str(exc))]
    config = getattr(agent, "gateway", None)
    if config is not None and upstreams:
        config = config.with_upstreams(dict(upstreams))
    args = tuple(getattr(agent, "args", ()))
    servers = [
        check_server(provider.base_url, agent_models(args), answer_cap(args))
        for provider in (config.providers.values() if config is not None else ())
        if on_this_machine(provider.base_url)
    ]
    return [
        check_gateway(agent.name, config),
        check_prices(agent_models(args), price_table),
        *servers,
    ]


def _load(agent_name: str, price_table: Path | None) -> Any:
    from pytest_mlebench.agents import load_agent

    return load_agent(agent_name, price_table)


def check_prices(models: Sequence[str], price_table: Path | None) -> Check:
    """Whether the price table loads and prices ``models`` (those the agent's kwargs name)."""
    from pytest_mlebench.gateway import load_price_table

    try:
        prices = load_price_table(price_table)
    except MLEBenchError as exc:
        return Check("llm prices", "FAIL", "the price table cannot be used", str(exc))
    source = f"shipped table + {price_table}" if price_table else "shipped table"
    detail = f"{len(prices.prices)} models ({source})"
    unpriced = [model for model in models if prices.price_of(model) is None]
    if unpriced:
        return Check(
            "llm prices", "warn", f"{detail}; not priced: {', '.join(unpriced)}", PRICE_FIX
        )
    return Check("llm prices", "ok", detail + (f"; prices {', '.join(models)}" if models else ""))


def check_gateway(name: str, config: Any) -> Check:
    """Whether every provider of the agent's gateway ``config`` has its secret on the host."""
    from pytest_mlebench.gateway.config import host_environment

    if config is None or not config.providers:
        return Check("llm gateway", "ok", f"agent {name} calls no LLM provider (no gateway)")
    problems, named = [], []
    for provider in config.providers.values():
        named.append(f"{provider.name} ({provider.base_url})")
        try:
            provider.resolved_key(host_environment())
        except MLEBenchError as exc:
            problems.append(str(exc))
    detail = f"agent {name}: {', '.join(named)}"
    if problems:
        return Check("llm gateway", "FAIL", f"{detail}; a secret is missing", problems[0])
    return Check("llm gateway", "ok", f"{detail}; secrets set on the host")


def on_this_machine(base_url: str) -> bool:
    """Whether ``base_url`` is a server on loopback (one the doctor may probe without a key)."""
    if base_url in DEFAULT_BASE_URLS.values():
        return False
    host = urlparse(base_url).hostname or ""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def check_server(base_url: str, models: Sequence[str], cap: int | None) -> Check:
    """The ``llm server`` line of a server on this machine: does it answer, with what."""
    from pytest_mlebench.local_model.probe import probe_server

    facts = probe_server(base_url)
    if facts is None:
        port = urlparse(base_url).port or 80
        return Check(
            "llm server",
            "FAIL",
            f"nothing answers {base_url}/models",
            f"start the server first, e.g. mlebench model serve --model MODEL --port {port}",
        )
    detail = f"{base_url} serves {', '.join(facts.models) or 'no model'}"
    if facts.context is not None:
        detail += f"; context {facts.context} tokens (the model's own: {facts.trained_context})"
    detail += (
        f"; the agent caps answers at {cap} tokens"
        if cap
        else f"; the agent sets no answer cap (the server's applies: model serve's is {SERVE_CAP})"
    )
    problem = _server_problem(facts.context, facts.trained_context, cap, models, facts.models)
    if problem is not None:
        return Check("llm server", "warn", detail, problem)
    return Check("llm server", "ok", detail)


def _server_problem(
    context: int | None,
    trained: int | None,
    cap: int | None,
    wanted: Sequence[str],
    served: Sequence[str],
) -> str | None:
    if context is None and wanted and not set(wanted) & set(served):
        return f"the server does not list {', '.join(wanted)}: serve it, or name a served model"
    if context is not None and context < SMALL_CONTEXT:
        bigger = f" (the model's own is {trained})" if trained and trained > context else ""
        return (
            f"a context of {context} tokens holds about ten steps of an agent's history{bigger}: "
            "restart the server with a larger --context (model serve uses the model's own)"
        )
    if context is not None and cap and cap * 2 > context:
        return f"the agent's answer cap ({cap}) leaves little of the {context}-token context"
    return None


def check_agent_image(agent_name: str, price_table: Path | None, docker_ok: bool) -> Check | None:
    """The ``agent image`` line: the profile the agent's Dockerfile builds FROM, and whether it
    is built (``None`` for an agent without a Dockerfile or that does not load)."""
    try:
        image = getattr(_load(agent_name, price_table), "image", None)
    except MLEBenchError:
        return None  # the llm gateway line says why
    if image is None:
        return None
    from pytest_mlebench.sandbox.docker.profiles import PROFILES

    first_run = (
        f"the first run builds it ({PROFILES.get(image.profile, image.profile)}), then the "
        "agent's own layer"
    )
    fix = f"build it once before the first run: mlebench sandbox build --profile {image.profile}"
    detail = f"{image.folder.name}'s Dockerfile builds FROM the {image.profile} profile"
    if not docker_ok:
        return Check("agent image", "warn", f"{detail}; cannot tell without Docker", fix)
    built, tag = _profile_built(image.profile)
    if built is None:
        return Check("agent image", "warn", f"{detail}; cannot tell ({tag})", fix)
    if not built:
        return Check("agent image", "warn", f"{detail}, not built: {first_run}", fix)
    return Check("agent image", "ok", f"{detail}, built ({tag})")


def _profile_built(profile: str) -> tuple[bool | None, str]:
    """Whether the image of ``profile`` exists, and its tag (or why that cannot be told)."""
    try:
        from pytest_mlebench.sandbox.docker.engine import docker_client
        from pytest_mlebench.sandbox.docker.profiles import profile_tag
        from pytest_mlebench.sandbox.docker.recipe import image_exists

        docker = docker_client()
        try:
            tag = profile_tag(profile)
            return image_exists(docker, tag), tag
        finally:
            docker.close()
    except Exception as exc:  # the engine line reports the engine; this one only the image
        return None, str(exc)


def agent_models(args: Sequence[str]) -> list[str]:
    """Model names in an agent's kwargs: ``--model X``, ``--code-model X``, ``agent.model=X``."""
    models = []
    for index, arg in enumerate(args):
        key, sep, value = arg.partition("=")
        if sep and key.lower().endswith("model"):
            models.append(value)
        elif arg.startswith("--") and arg.lower().endswith("model") and index + 1 < len(args):
            models.append(args[index + 1])
    return sorted(set(models))


def answer_cap(args: Sequence[str]) -> int | None:
    """The agent's own answer cap in its kwargs (``--max-tokens N``, ``agent.max_tokens=N``);
    ``None`` when it sets none (or ``0``: the server's)."""
    for index, arg in enumerate(args):
        key, sep, value = arg.partition("=")
        if not sep and key in CAP_KEYS and index + 1 < len(args):
            value = args[index + 1]
        elif not (sep and key in CAP_KEYS):
            continue
        try:
            return int(float(value)) or None
        except ValueError:
            return None
    return None
