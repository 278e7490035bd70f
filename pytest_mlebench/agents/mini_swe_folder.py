"""The built-in mini-swe-agent: ``--mle-agent mini-swe:MODEL`` runs the folder ``folders/mini_swe``.

The folder is an ordinary mle-bench agent folder (``config.yaml``, ``start.sh``, ``Dockerfile``,
``requirements.lock``, ``run_mini_swe.py``, ``prompts.yaml``); this module only fills in the model
(the ``model`` kwarg, passed as ``--model MODEL``). mini-swe-agent speaks OpenAI's chat
completions, so every model is served by the gateway's ``openai`` provider (``OPENAI_API_KEY`` on
the host), which may be any OpenAI-compatible upstream (``--mle-gateway-upstream openai=URL``).
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pytest_mlebench.agents.aide_folder import check_priced
from pytest_mlebench.agents.folder_agent import FolderAgent, folder_agent, read_agent_entry
from pytest_mlebench.errors import AgentError

MINI_SWE_FOLDER = Path(__file__).with_name("folders") / "mini_swe"
MINI_SWE_ID = "mini-swe"
EXAMPLE_MODEL = "gpt-4o-mini"


def load_mini_swe(model: str, price_table: Path | None = None) -> FolderAgent:
    """The mini-swe-agent folder agent calling ``model``, named ``mini-swe:MODEL`` in records.

    Raises:
        AgentError: Without a model, or with a model the price table (the shipped one with
            ``price_table`` laid over it) does not list: its cost could not be counted.
    """
    if not model:
        raise AgentError(
            f"mini-swe needs a model: --mle-agent mini-swe:MODEL, e.g. mini-swe:{EXAMPLE_MODEL} "
            "(mini-swe-agent's bash steps call MODEL through the LLM gateway)"
        )
    check_priced(model, price_table, "mini-swe-agent")
    chosen, entry = read_agent_entry(MINI_SWE_FOLDER, MINI_SWE_ID)
    kwargs = {**(entry.get("kwargs") or {}), "model": model}
    agent = folder_agent(MINI_SWE_FOLDER, chosen, {**entry, "kwargs": kwargs})
    return replace(agent, name=f"{MINI_SWE_ID}:{model}")
