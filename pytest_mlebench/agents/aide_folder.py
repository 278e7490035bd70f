"""The built-in AIDE agent: ``--mle-agent aide:MODEL`` runs the agent folder ``folders/aide``.

The folder is an ordinary mle-bench agent folder (``config.yaml``, ``start.sh``, ``Dockerfile``,
``requirements.lock``); this module only fills in the model: both of AIDE's model settings
(``agent.code.model`` and ``agent.feedback.model``) become MODEL, and the provider key the LLM
gateway needs follows the model's family (``claude-*``: Anthropic, anything else: OpenAI or an
OpenAI-compatible upstream).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from pytest_mlebench.agents.folder_agent import FolderAgent, folder_agent, read_agent_entry
from pytest_mlebench.errors import AgentError, ConfigError
from pytest_mlebench.gateway import load_price_table

AIDE_FOLDER = Path(__file__).with_name("folders") / "aide"
AIDE_ID = "aide"
MODEL_KWARGS = ("agent.code.model", "agent.feedback.model")
EXAMPLE_MODEL = "gpt-4o-mini"


def load_aide(model: str, price_table: Path | None = None) -> FolderAgent:
    """The AIDE folder agent calling ``model``, named ``aide:MODEL`` in records.

    Raises:
        AgentError: Without a model, or with a model the price table (the shipped one with
            ``price_table`` laid over it) does not list: its cost could not be counted.
    """
    if not model:
        raise AgentError(
            f"aide needs a model: --mle-agent aide:MODEL, e.g. aide:{EXAMPLE_MODEL} "
            "(AIDE's code and feedback steps call MODEL through the LLM gateway)"
        )
    check_priced(model, price_table, "AIDE")
    chosen, entry = read_agent_entry(AIDE_FOLDER, AIDE_ID)
    agent = folder_agent(AIDE_FOLDER, chosen, with_model(entry, model))
    return replace(agent, name=f"{AIDE_ID}:{model}")


def with_model(entry: dict[str, Any], model: str) -> dict[str, Any]:
    """The folder's settings with ``model`` in AIDE's model kwargs and the matching provider key."""
    kwargs = {**(entry.get("kwargs") or {}), **dict.fromkeys(MODEL_KWARGS, model)}
    variable = "ANTHROPIC_API_KEY" if model.startswith("claude-") else "OPENAI_API_KEY"
    env_vars = {variable: f"${{{{ secrets.{variable} }}}}"}
    return {**entry, "kwargs": kwargs, "env_vars": env_vars}


def check_priced(model: str, price_table: Path | None, agent: str) -> None:
    """Refuse ``model`` when the price table does not list it: ``agent``'s cost could not be
    counted (the message names the fix)."""
    try:
        table = load_price_table(price_table)
    except ConfigError as exc:
        raise AgentError(str(exc)) from None
    if table.price_of(model) is None:
        listed = ", ".join(sorted(table.prices))
        raise AgentError(
            f"model {model!r} is not in the price table, so {agent}'s LLM cost could not be "
            "counted: price it in a YAML file passed with --mle-price-table FILE "
            f"('models: {{{model}: {{input: DOLLARS, output: DOLLARS}}}}' per million tokens; "
            f"0 for a local model), or use a listed model: {listed}"
        )
