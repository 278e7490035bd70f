"""``--mle-agent aide:MODEL``: how the id resolves, and each bad input's message."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from pytest_mlebench.agents import BUILTIN_AGENTS, FolderAgent, load_agent
from pytest_mlebench.agents.aide_folder import AIDE_FOLDER
from pytest_mlebench.errors import AgentError
from tests.gateway.conftest import PROVIDER_KEY
from tests.plugin.conftest import ExampleProject, project

__all__ = ["project"]  # the plugin tests' example project, used here too


def test_the_model_after_the_colon_is_both_of_aides_models() -> None:
    agent = load_agent("aide:gpt-4o")
    assert isinstance(agent, FolderAgent)
    assert agent.name == "aide:gpt-4o" and agent.folder == AIDE_FOLDER
    assert "agent.code.model=gpt-4o" in agent.args
    assert "agent.feedback.model=gpt-4o" in agent.args
    assert "agent.steps=20" in agent.args
    assert agent.gateway is not None and set(agent.gateway.providers) == {"openai"}
    assert "OPENAI_API_KEY" not in agent.env  # the gateway's run token goes in, never the key


def test_a_claude_model_is_served_by_the_anthropic_provider() -> None:
    agent = load_agent("aide:claude-sonnet-4-20250514")
    assert isinstance(agent, FolderAgent)
    assert agent.gateway is not None and set(agent.gateway.providers) == {"anthropic"}


def test_aide_is_listed_with_the_built_ins() -> None:
    assert "aide:MODEL" in BUILTIN_AGENTS["aide"]


def test_aide_without_a_model_says_how_to_name_one() -> None:
    with pytest.raises(AgentError, match=r"aide needs a model: --mle-agent aide:MODEL"):
        load_agent("aide")


def test_a_model_the_price_table_lacks_is_refused_with_the_fix() -> None:
    with pytest.raises(
        AgentError, match=r"'my-llama' is not in the price table.*--mle-price-table"
    ):
        load_agent("aide:my-llama")


def test_a_price_table_that_lists_the_model_admits_it(tmp_path: Path) -> None:
    table = tmp_path / "prices.yaml"
    table.write_text("models:\n  my-llama: {input: 0, output: 0}\n")
    agent = load_agent("aide:my-llama", price_table=table)
    assert agent.name == "aide:my-llama"


def test_the_plugin_names_the_option_of_a_bad_aide_id(project: ExampleProject) -> None:
    result = project.run("-k", "toy-a", "--mle-agent", "aide")
    assert result.ret != 0
    result.stderr.fnmatch_lines(
        ["*invalid agent 'aide' from option --mle-agent: aide needs a model*aide:gpt-4o-mini*"]
    )


def test_an_image_without_aideml_is_a_recorded_failure_that_says_so(
    project: ExampleProject, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = tmp_path / "plain-bin"
    bin_dir.mkdir()
    shim = bin_dir / "python3"  # this interpreter, which does not have aideml
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    monkeypatch.setenv("MLEBENCH_LOCAL_PYTHON", str(shim))
    monkeypatch.setenv("OPENAI_API_KEY", PROVIDER_KEY)
    result = project.run("-k", "toy-a", "--mle-agent", "aide:gpt-4o-mini")
    result.assert_outcomes(failed=1)
    [line] = (project.root / "reports" / "results.jsonl").read_text().splitlines()
    record = json.loads(line)
    assert record["exit_code"] == 3
    assert "agent exited with code 3: aide: the aideml package is not installed" in record["reason"]
    assert record["gateway"]["calls"] == 0


def test_mlebench_agents_lists_aide(capsys: pytest.CaptureFixture[str]) -> None:
    from pytest_mlebench.cli import main

    assert main(["agents"]) == 0
    assert "aide       AIDE (aideml) tree search; --mle-agent aide:MODEL" in capsys.readouterr().out
