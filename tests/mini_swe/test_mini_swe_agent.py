"""``--mle-agent mini-swe:MODEL``: how the id resolves, its listing, doctor's checks, bad input."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path
from types import ModuleType

import pytest

from pytest_mlebench.agents import BUILTIN_AGENTS, FolderAgent, load_agent
from pytest_mlebench.agents.mini_swe_folder import MINI_SWE_FOLDER
from pytest_mlebench.doctor import check_llm
from pytest_mlebench.errors import AgentError
from tests.gateway.conftest import PROVIDER_KEY
from tests.plugin.conftest import ExampleProject, project

__all__ = ["project"]  # the plugin tests' example project, used here too

RUNNER = MINI_SWE_FOLDER / "run_mini_swe.py"


def test_the_model_after_the_colon_is_the_agents_model() -> None:
    agent = load_agent("mini-swe:gpt-4o")
    assert isinstance(agent, FolderAgent)
    assert agent.name == "mini-swe:gpt-4o" and agent.folder == MINI_SWE_FOLDER
    assert agent.args[agent.args.index("--model") + 1] == "gpt-4o"
    assert agent.args[agent.args.index("--step-limit") + 1] == "50"
    assert agent.gateway is not None and set(agent.gateway.providers) == {"openai"}
    assert "OPENAI_API_KEY" not in agent.env  # the gateway's run token goes in, never the key
    assert agent.image is not None and agent.image.profile == "ml"


def test_mini_swe_is_listed_with_the_built_ins(capsys: pytest.CaptureFixture[str]) -> None:
    from pytest_mlebench.cli import main

    assert "mini-swe:MODEL" in BUILTIN_AGENTS["mini-swe"]
    assert main(["agents"]) == 0
    assert "mini-swe   mini-swe-agent, a bash-only agent" in capsys.readouterr().out


def test_mini_swe_without_a_model_says_how_to_name_one() -> None:
    with pytest.raises(AgentError, match=r"mini-swe needs a model: --mle-agent mini-swe:MODEL"):
        load_agent("mini-swe")


def test_a_model_the_price_table_lacks_is_refused_with_the_fix(tmp_path: Path) -> None:
    with pytest.raises(
        AgentError, match=r"'my-llama' is not in the price table.*--mle-price-table"
    ):
        load_agent("mini-swe:my-llama")
    table = tmp_path / "prices.yaml"
    table.write_text("models:\n  my-llama: {input: 0, output: 0}\n")
    assert load_agent("mini-swe:my-llama", price_table=table).name == "mini-swe:my-llama"


def test_doctor_checks_the_secret_and_the_price(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    gateway, prices = check_llm("mini-swe:gpt-4o-mini", None)
    assert gateway.status == "FAIL" and "export OPENAI_API_KEY=" in gateway.fix
    assert prices.status == "ok" and "prices gpt-4o-mini" in prices.detail
    monkeypatch.setenv("OPENAI_API_KEY", PROVIDER_KEY)
    table = tmp_path / "prices.yaml"
    table.write_text("models:\n  my-llama: {input: 0, output: 0}\n")
    gateway, prices = check_llm("mini-swe:my-llama", table)
    assert gateway.status == "ok" and "secrets set on the host" in gateway.detail
    assert prices.status == "ok" and "prices my-llama" in prices.detail
    [unloadable] = check_llm("mini-swe:my-llama", None)
    assert unloadable.status == "FAIL" and "--mle-price-table" in unloadable.fix


def test_the_plugin_names_the_option_of_a_bad_mini_swe_id(project: ExampleProject) -> None:
    result = project.run("-k", "toy-a", "--mle-agent", "mini-swe")
    assert result.ret != 0
    result.stderr.fnmatch_lines(
        ["*invalid agent 'mini-swe' from option --mle-agent: mini-swe needs a model*"]
    )


def test_an_image_without_mini_swe_agent_is_a_recorded_failure_that_says_so(
    project: ExampleProject, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    bin_dir = tmp_path / "plain-bin"
    bin_dir.mkdir()
    shim = bin_dir / "python3"  # this interpreter, which does not have mini-swe-agent
    shim.write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n')
    shim.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}:/usr/bin:/bin")
    monkeypatch.setenv("MLEBENCH_LOCAL_PYTHON", str(shim))
    monkeypatch.setenv("OPENAI_API_KEY", PROVIDER_KEY)
    result = project.run("-k", "toy-a", "--mle-agent", "mini-swe:gpt-4o-mini")
    result.assert_outcomes(failed=1)
    [line] = (project.root / "reports" / "results.jsonl").read_text().splitlines()
    record = json.loads(line)
    assert record["exit_code"] == 3
    assert "mini-swe: the mini-swe-agent package is not installed" in record["reason"]
    assert record["gateway"]["calls"] == 0


def load_runner() -> ModuleType:
    """``run_mini_swe.py`` imported by path (its task and folder helpers need only the stdlib)."""
    spec = importlib.util.spec_from_file_location("run_mini_swe", RUNNER)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def contract(root: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (root / "data").mkdir()
    (root / "data" / "description.md").write_text("Predict who survived.")
    (root / "instructions.md").write_text("Write submission.csv.")
    monkeypatch.setenv("INSTRUCTIONS_FILE", str(root / "instructions.md"))
    monkeypatch.setenv("DATA_DIR", str(root / "data"))
    monkeypatch.setenv("CODE_DIR", str(root / "code"))
    monkeypatch.delenv("WORK_DIR", raising=False)


def test_a_competition_is_worked_on_in_the_code_dir_with_its_description(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    contract(tmp_path, monkeypatch)
    runner = load_runner()
    assert runner.work_dir() == tmp_path / "code" and (tmp_path / "code").is_dir()
    assert runner.task_text() == (
        "Write submission.csv.\n\n# Competition description\n\nPredict who survived."
    )


def test_an_engineering_task_is_worked_on_in_its_work_dir_from_the_instructions_alone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    contract(tmp_path, monkeypatch)
    monkeypatch.setenv("WORK_DIR", str(tmp_path / "workspace"))
    runner = load_runner()
    assert runner.work_dir() == tmp_path / "workspace"
    assert runner.task_text() == "Write submission.csv."


def test_the_time_limit_follows_the_harness_deadline(monkeypatch: pytest.MonkeyPatch) -> None:
    runner = load_runner()
    monkeypatch.setenv("TIME_LIMIT_SECS", "600")
    assert runner.time_limit(0) == 570
    assert runner.time_limit(120) == 120
