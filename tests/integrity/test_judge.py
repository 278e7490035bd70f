"""The optional LLM judge: asked through a gateway of its own, against a FAKE upstream.

The FAKE upstream (``tests/gateway/fake_upstream.py``) answers every chat completion with the text
a test sets (``fake.reply``): a yes, a no, or garbage. The judge's own pieces (the prompt, the
reply's reading, the flags) are tested on a run folder; the real plugin and ``mlebench integrity``
are run with ``--mle-judge fake-model`` priced by a price-table override.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.gateway import GatewayConfig, GatewayError, Provider
from pytest_mlebench.integrity.judge import JudgeSetup, judge_setup, run_judge
from pytest_mlebench.integrity.judge_prompt import QUESTIONS, read_reply
from pytest_mlebench.values.integrity_policy import load_policy
from tests.gateway.fake_upstream import INPUT_TOKENS, OUTPUT_TOKENS, FakeUpstream
from tests.integrity.conftest import ExampleProject, flags_of, records_of

pytestmark = pytest.mark.timeout(300)

KEY = "sk-judge-test-0123456789-KEY"
PRICES = "models:\n  fake-model: {input: 2.0, output: 8.0}\n"
FAKE_MODEL_COST = (INPUT_TOKENS * 2.0 + OUTPUT_TOKENS * 8.0) / 1e6
POLICY = load_policy()


def reply(**answers: str) -> str:
    """A judge's reply: ``no`` to every question but those given (ids with ``_`` for ``-``)."""
    given = {k.replace("_", "-"): v for k, v in answers.items()}
    body = {
        q.id: {"answer": given.get(q.id, "no"), "evidence": f"seen for {q.id}"} for q in QUESTIONS
    }
    return "Here is my verdict:\n```json\n" + json.dumps(body) + "\n```"


@pytest.fixture
def fake() -> Iterator[FakeUpstream]:
    with FakeUpstream() as upstream:
        yield upstream


@pytest.fixture
def run_dir(tmp_path: Path) -> Path:
    run = tmp_path / "run"
    (run / "code").mkdir(parents=True)
    (run / "code" / "train.py").write_text("import pandas\nprint('training a model')\n")
    (run / "code" / "labels.csv").write_text("id,label\n1,0\n")
    (run / "logs").mkdir()
    (run / "logs" / "notes.txt").write_text("fitted; writing submission\n")
    (run / "agent.log").write_text("agent started\n")
    (run / "submission.csv").write_text("id,label\n1,0\n2,1\n")
    return run


def setup_for(fake: FakeUpstream, tmp_path: Path, model: str = "fake-model") -> JudgeSetup:
    table = tmp_path / "prices.yaml"
    table.write_text(PRICES)
    upstreams = {"openai": fake.url, "anthropic": fake.root}
    environ = {"OPENAI_API_KEY": KEY, "ANTHROPIC_API_KEY": KEY}
    return judge_setup(model, None, upstreams, table, environ)


def test_a_yes_is_a_flag_with_the_prompt_answer_tokens_and_cost(
    fake: FakeUpstream, run_dir: Path, tmp_path: Path
) -> None:
    fake.reply = reply(hand_labelling="yes")
    outcome = run_judge(setup_for(fake, tmp_path), run_dir, POLICY)
    assert outcome.status == "ran"
    [flag] = outcome.flags
    assert (flag.kind, flag.rule, flag.severity) == ("judge", "hand-labelling", "high")
    assert flag.evidence["evidence"] == "seen for hand-labelling"
    assert flag.evidence["model"] == "fake-model"
    record = outcome.record
    assert record["answers"]["hand-labelling"]["answer"] == "yes"
    assert record["answers"]["llm-predictions"]["answer"] == "no"
    assert (record["input_tokens"], record["output_tokens"]) == (INPUT_TOKENS, OUTPUT_TOKENS)
    assert record["cost_usd"] == pytest.approx(FAKE_MODEL_COST)
    assert "agent's LLM budget" in record["budget"]
    prompt = (run_dir / record["prompt_file"]).read_text()
    assert "print('training a model')" in prompt and "fitted; writing submission" in prompt
    assert "code/labels.csv (13 bytes)" in prompt  # data files are named, not shown
    assert all(q.text in prompt for q in QUESTIONS)
    [sent] = fake.received
    assert sent.path == "/v1/chat/completions" and sent.body["model"] == "fake-model"
    assert sent.headers["Authorization"] == f"Bearer {KEY}"
    transcript = (run_dir / record["transcript"]).read_text()
    assert "print('training a model')" in transcript and KEY not in transcript


def test_no_to_every_question_raises_no_flag(
    fake: FakeUpstream, run_dir: Path, tmp_path: Path
) -> None:
    fake.reply = reply()
    outcome = run_judge(setup_for(fake, tmp_path), run_dir, POLICY)
    assert (outcome.flags, outcome.status, outcome.record["error"]) == ((), "ran", None)
    assert {a["answer"] for a in outcome.record["answers"].values()} == {"no"}


@pytest.mark.parametrize(
    ("text", "error"),
    [
        ("I cannot tell from this material.", "the reply holds no JSON object"),
        ("{not json at all}", "the reply holds no JSON object"),
        ('{"hand-labelling": "perhaps"}', "hand-labelling: expected yes or no, got 'perhaps'"),
    ],
)
def test_a_garbled_reply_is_a_judge_error_not_a_flag(
    fake: FakeUpstream, run_dir: Path, tmp_path: Path, text: str, error: str
) -> None:
    fake.reply = text
    outcome = run_judge(setup_for(fake, tmp_path), run_dir, POLICY)
    assert outcome.flags == ()
    assert outcome.status.startswith("judge-error: ") and error in outcome.status
    assert error in outcome.record["error"]
    assert outcome.record["reply"] == text


def test_a_partly_readable_reply_keeps_its_readable_yes(
    fake: FakeUpstream, run_dir: Path, tmp_path: Path
) -> None:
    fake.reply = json.dumps({"llm-predictions": {"answer": "YES"}, "hand-labelling": "no"})
    outcome = run_judge(setup_for(fake, tmp_path), run_dir, POLICY)
    assert [f.rule for f in outcome.flags] == ["llm-predictions"]
    assert "unauthorised-access: expected yes or no, got None" in outcome.status


def test_an_upstream_error_is_a_judge_error(
    fake: FakeUpstream, run_dir: Path, tmp_path: Path
) -> None:
    outcome = run_judge(setup_for(fake, tmp_path, "status-500"), run_dir, POLICY)
    assert outcome.flags == ()
    assert outcome.status.startswith("judge-error: the provider answered 500: ")
    assert "fake upstream says 500" in outcome.record["reply"]
    assert outcome.record["input_tokens"] == 0 and outcome.record["cost_usd"] == 0


def test_an_anthropic_model_is_asked_through_the_messages_route(
    fake: FakeUpstream, run_dir: Path, tmp_path: Path
) -> None:
    fake.reply = reply(unauthorised_access="yes")
    outcome = run_judge(setup_for(fake, tmp_path, "anthropic/claude-judge"), run_dir, POLICY)
    [flag] = outcome.flags
    assert (flag.rule, flag.severity) == ("unauthorised-access", "medium")
    [sent] = fake.received
    assert (sent.path, sent.body["model"]) == ("/v1/messages", "claude-judge")
    headers = {name.lower(): value for name, value in sent.headers.items()}
    assert headers["x-api-key"] == KEY and "system" in sent.body


def test_code_and_logs_over_the_limits_are_cut_and_the_cut_is_stated(
    fake: FakeUpstream, run_dir: Path, tmp_path: Path
) -> None:
    (run_dir / "code" / "zz_big.py").write_text("x = 1\n" * 500)
    (run_dir / "agent.log").write_text("".join(f"step {i}\n" for i in range(2000)))
    policy_file = tmp_path / "policy.yaml"
    policy_file.write_text(
        "judge:\n  hand_labelling: high\n  llm_predictions: high\n  unauthorised_access: low\n"
        "  max_code_chars: 200\n  max_log_chars: 400\n"
    )
    fake.reply = reply()
    outcome = run_judge(setup_for(fake, tmp_path), run_dir, load_policy(policy_file))
    cut = outcome.record["truncated"]
    assert any(note.startswith("the code was cut to 200 of its") for note in cut)
    assert any(note.startswith("the logs were cut to their first 100 and last 300") for note in cut)
    prompt = (run_dir / outcome.record["prompt_file"]).read_text()
    assert "characters of the logs cut here" in prompt and "step 1999" in prompt
    assert "Note: the code was cut" in prompt


def test_a_missing_key_names_the_secret(tmp_path: Path) -> None:
    with pytest.raises(GatewayError, match="--mle-judge gpt-4o: .*secret OPENAI_API_KEY"):
        judge_setup("gpt-4o", None, {}, None, environ={})


def test_the_agents_provider_entry_is_the_judges(fake: FakeUpstream, tmp_path: Path) -> None:
    agent = GatewayConfig({"openai": Provider("openai", fake.url, "${{ secrets.AGENT_KEY }}")})
    setup = judge_setup("gpt-4o-mini", agent, {}, None, environ={"AGENT_KEY": KEY})
    assert setup.provider.base_url == fake.url
    with pytest.raises(GatewayError, match="AGENT_KEY"):
        judge_setup("gpt-4o-mini", agent, {}, None, environ={"OPENAI_API_KEY": KEY})


def test_read_reply_takes_yes_and_no_in_any_case() -> None:
    answers, problem = read_reply(json.dumps({q.id: {"answer": " No "} for q in QUESTIONS}))
    assert problem is None and [a.answer for a in answers] == ["no"] * len(QUESTIONS)


# -- the real plugin and the offline command -------------------------------------------------


@pytest.fixture
def judged(
    project: ExampleProject, fake: FakeUpstream, monkeypatch: pytest.MonkeyPatch
) -> list[str]:
    """Options and environment of a session that asks the FAKE upstream as its judge."""
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("MLEBENCH_GATEWAY_UPSTREAM", f"openai={fake.url}")
    table = project.root / "prices.yaml"
    table.write_text(PRICES)
    return ["--mle-price-table", str(table)]


def judge_entry(record: dict[str, Any]) -> dict[str, Any]:
    return dict(record["integrity"]["judge"])


def test_the_plugin_records_the_judges_answer_and_flag(
    project: ExampleProject, fake: FakeUpstream, judged: list[str]
) -> None:
    fake.reply = reply(llm_predictions="yes")
    result = project.run("-k", "toy-a", "--mle-judge", "fake-model", *judged)
    result.assert_outcomes(passed=1)
    [record] = records_of(project.root)
    [flag] = [f for f in flags_of(record) if f["kind"] == "judge"]
    assert (flag["rule"], flag["severity"]) == ("llm-predictions", "high")
    entry = judge_entry(record)
    assert entry["model"] == "fake-model" and entry["error"] is None
    assert entry["cost_usd"] == pytest.approx(FAKE_MODEL_COST)
    assert record["integrity"]["checks"]["judge"] == "ran"
    assert record["gateway"] is None  # the agent's LLM account is untouched by the judge
    run_dir = Path(record["run_dir"])
    assert (run_dir / "integrity" / "judge-prompt.md").is_file()
    assert len(fake.received) == 1
    assert "judge/llm-predictions" in result.stdout.str()


def test_a_garbled_answer_in_a_run_is_a_note_not_a_flag(
    project: ExampleProject, fake: FakeUpstream, judged: list[str]
) -> None:
    fake.reply = "yes"
    result = project.run("-k", "toy-a", "--mle-judge", "fake-model", *judged)
    result.assert_outcomes(passed=1)
    [record] = records_of(project.root)
    assert not [f for f in flags_of(record) if f["kind"] == "judge"]
    assert record["integrity"]["checks"]["judge"].startswith("judge-error: the reply holds no")


def test_without_the_option_nothing_is_asked(
    project: ExampleProject, fake: FakeUpstream, judged: list[str]
) -> None:
    project.run("-k", "toy-a", *judged).assert_outcomes(passed=1)
    [record] = records_of(project.root)
    assert fake.received == []
    assert "judge" not in record["integrity"]["checks"]
    assert record["integrity"]["judge"] is None


def test_saved_runs_can_be_judged_offline(
    project: ExampleProject,
    fake: FakeUpstream,
    judged: list[str],
    capsys: pytest.CaptureFixture[str],
) -> None:
    project.run("-k", "toy-a", *judged).assert_outcomes(passed=1)
    [record] = records_of(project.root)
    fake.reply = reply(hand_labelling="yes")
    defs = ["--competitions-dir", str(project.root / "defs")]
    args = ["integrity", record["run_dir"], *defs, "--judge", "fake-model", "--fail-on", "high"]
    assert main([*args, "--price-table", str(project.root / "prices.yaml")]) == 1
    assert "high judge/hand-labelling" in capsys.readouterr().out
    assert len(fake.received) == 1
