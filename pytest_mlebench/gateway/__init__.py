"""The LLM gateway: a harness-owned, OpenAI-compatible endpoint that keeps keys on the host.

Host side (:mod:`.server`): one :class:`Gateway` per run serves chat completions, responses,
embeddings and Anthropic's messages on a unix socket, swaps the run's token for the provider's key,
streams answers through, logs every call to the run folder and keeps the run's budget. Sandbox side
(:mod:`.forwarder`, standard library only): a TCP forwarder on ``localhost`` that wraps the agent's
command, so the sandbox needs no network route at all. What an upstream cannot enforce (a forced
tool call on llama.cpp's server) is bridged per provider (:mod:`.capabilities`).
``docs/agents.md`` describes all of it.
"""

from __future__ import annotations

from pathlib import Path

from pytest_mlebench.gateway.config import (
    Budget,
    GatewayConfig,
    GatewayError,
    Provider,
    gateway_config,
)
from pytest_mlebench.gateway.prices import PriceTable, load_price_table
from pytest_mlebench.gateway.server import Gateway

FORWARDER_SCRIPT = Path(__file__).with_name("forwarder.py")
FORWARDER_NAME = "gateway_forwarder.py"
SOCKET_NAME = "gateway.sock"

__all__ = [
    "FORWARDER_NAME",
    "FORWARDER_SCRIPT",
    "SOCKET_NAME",
    "Budget",
    "Gateway",
    "GatewayConfig",
    "GatewayError",
    "PriceTable",
    "Provider",
    "gateway_config",
    "load_price_table",
]
