"""Familiarity: prompt log-probabilities through the real gateway, and their correlation.

The upstream is the FAKE of ``tests/gateway/fake_upstream.py`` answering in vLLM's layout
(``prompt_logprobs``: one entry per prompt token, ``null`` first): each word of the prompt gets
the log-probability ``-len(word) / 10``, so the expected means are known. llama.cpp's server,
which returns no prompt log-probabilities, is scored by forcing tokens
(``test_forced_tokens.py``; the real one in ``tests/real_model/test_familiarity_local.py``).
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.familiarity.correlation import (
    Results,
    mean_percentiles,
    medal_rates,
    pearson,
    report_lines,
)
from pytest_mlebench.familiarity.measure import measure
from pytest_mlebench.familiarity.prompt_logprobs import NoPromptLogprobs, mean_prompt_logprob
from pytest_mlebench.integrity.judge import judge_setup
from tests.factories import write_competition
from tests.gateway.fake_upstream import FakeUpstream

KEY = "sk-fake-familiarity"


def vllm_like(body: dict[str, Any]) -> dict[str, Any]:
    """A fake vLLM answer: every word of the prompt scored ``-len(word) / 10``."""
    words = " ".join(m["content"] for m in body["messages"]).split()
    entries: list[Any] = [None] + [
        {str(i): {"logprob": -len(word) / 10, "rank": 1, "decoded_token": word}}
        for i, word in enumerate(words[1:])
    ]
    return {
        "id": "chatcmpl-fake",
        "object": "chat.completion",
        "model": body["model"],
        "choices": [{"index": 0, "message": {"role": "assistant", "content": "x"}}],
        "usage": {"prompt_tokens": len(words), "completion_tokens": 1},
        "prompt_logprobs": entries,
    }


def expected_mean(text: str) -> float:
    words = text.split()[1:]
    return sum(-len(word) / 10 for word in words) / len(words)


def test_the_mean_skips_the_first_token_and_needs_the_list() -> None:
    body = {"prompt_logprobs": [None, {"7": {"logprob": -1.0}}, {"9": {"logprob": -3.0}}]}
    assert mean_prompt_logprob(body) == (-2.0, 2)
    with pytest.raises(NoPromptLogprobs, match="a vLLM server does"):
        mean_prompt_logprob({"choices": []})


@pytest.mark.parametrize(
    ("xs", "ys", "r", "low", "high"),
    [
        ([1, 2, 3, 4, 5], [2, 4, 6, 8, 10], 1.0, None, None),
        ([1, 2, 3, 4, 5, 6], [1, 3, 2, 5, 4, 6], 0.8857, 0.2637, 0.9875),  # scipy.stats.pearsonr
        ([1, 2, 3], [3, 2, 1], -1.0, None, None),
    ],
)
def test_pearson_with_the_fisher_interval(
    xs: list[float], ys: list[float], r: float, low: float | None, high: float | None
) -> None:
    result = pearson(xs, ys)
    assert result.r == pytest.approx(r, abs=1e-4)
    for got, want in ((result.low, low), (result.high, high)):
        assert (got is None) == (want is None)
        if want is not None:
            assert got == pytest.approx(want, abs=1e-4)
    assert pearson([1, 1, 1, 1], [1, 2, 3, 4]).r is None  # no spread


def test_medal_rates_count_every_agent_and_skip_skips() -> None:
    summary = {
        "competitions": [
            {"competition_id": "a", "runs": [{"medal": "gold"}, {"medal": None}]},
            {"competition_id": "a", "runs": [{"medal": "bronze"}, {"outcome": "skipped"}]},
            {"competition_id": "b", "runs": [{"medal": None}]},
        ]
    }
    assert medal_rates(summary) == {"a": pytest.approx(2 / 3), "b": 0.0}


def test_mean_percentiles_weigh_each_agent_by_its_runs() -> None:
    summary = {
        "competitions": [
            {"competition_id": "a", "mean_percentile": 90.0, "seeds_run": 3},
            {"competition_id": "a", "mean_percentile": 10.0, "seeds_run": 1},
            {"competition_id": "b", "mean_percentile": None, "seeds_run": 2},  # no leaderboard
            {"competition_id": "c", "mean_percentile": 50.0, "seeds_run": 0},  # nothing ran
        ]
    }
    assert mean_percentiles(summary) == {"a": pytest.approx(70.0)}


def test_measured_through_the_gateway(tmp_path: Path) -> None:
    texts = {
        "short": "# T\n\nfew tiny words here",
        "long": "# T\n\nconsiderably lengthier vocabulary",
    }
    with FakeUpstream(chat=vllm_like) as fake:
        setup = judge_setup("fake-model", None, {"openai": fake.url}, None, {"OPENAI_API_KEY": KEY})
        result = measure(setup, texts, tmp_path / "transcript.jsonl")
        sent = [r.body for r in fake.received]
        headers = [r.headers for r in fake.received]
    for cid, text in texts.items():
        assert result.familiarity[cid] == pytest.approx(expected_mean(text))
    assert all(body["prompt_logprobs"] == 0 and body["max_tokens"] == 1 for body in sent)
    assert all(h.get("Authorization") == f"Bearer {KEY}" for h in headers)  # the real key upstream
    assert KEY not in (tmp_path / "transcript.jsonl").read_text()  # never in the transcript


def test_the_command_reports_the_correlation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    defs = tmp_path / "defs"
    words = {"c1": "a b", "c2": "aaa bbbb", "c3": "aaaaa bbbbbb", "c4": "aaaaaaa bbbbbbbbb"}
    for cid, text in words.items():
        (write_competition(defs, cid) / "description.md").write_text(f"# {cid}\n\n{text}\n")
    runs = {"c1": ["gold", "gold"], "c2": ["bronze", None], "c3": [None, None], "c4": [None, None]}
    summary = {
        "schema": "pytest-mlebench/summary/1",
        "agents": {},
        "competitions": [
            {
                "competition_id": cid,
                "runs": [{"medal": m, "seed": i} for i, m in enumerate(ms)],
                "mean_percentile": 100.0 - 20 * len(words[cid]),
                "seeds_run": len(ms),
            }
            for cid, ms in runs.items()
        ],
    }
    (tmp_path / "summary.json").write_text(json.dumps(summary))
    with FakeUpstream(chat=vllm_like) as fake:
        code = main([
            "familiarity", "--model", "fake-model", "--competitions-dir", str(defs),
            *[arg for cid in words for arg in ("-c", cid)],
            "--gateway-upstream", f"openai={fake.url}",
            "--summary", str(tmp_path / "summary.json"), "--json", str(tmp_path / "f.json"),
            "--transcript", str(tmp_path / "t.jsonl"),
        ])  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0, err
    figures = json.loads((tmp_path / "f.json").read_text())
    assert figures["correlation"]["n"] == 4 and figures["correlation"]["r"] > 0.9
    assert "familiarity against medal rate: Pearson r = +0.9" in out
    assert figures["percentile_correlation"]["r"] > 0.9
    assert figures["percentile_correlation"]["percentiles"]["c4"] == 100.0 - 20 * 17
    assert "familiarity against leaderboard percentile: Pearson r = +" in out
    assert math.isclose(
        figures["competitions"]["c1"]["mean_logprob"], expected_mean(f"# c1\n\n{words['c1']}")
    )


def test_a_server_without_prompt_logprobs_is_said_plainly(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    defs = tmp_path / "defs"
    write_competition(defs, "c1")
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    with FakeUpstream() as fake:  # answers like llama.cpp: no prompt_logprobs
        code = main([
            "familiarity", "--model", "m", "--competitions-dir", str(defs), "-c", "c1",
            "--gateway-upstream", f"openai={fake.url}", "--transcript", str(tmp_path / "t.jsonl"),
        ])  # fmt: skip
    assert code == 1
    assert "returned no prompt log-probabilities (a vLLM server does" in capsys.readouterr().err


def test_report_lines_without_a_summary() -> None:
    lines, correlations = report_lines({"a": -1.5, "b": -0.5}, None)
    assert correlations == {} and lines[0].split()[0] == "b"


def test_every_competition_with_one_medal_has_no_medal_correlation_but_a_percentile_one() -> None:
    familiarity = {"a": -1.0, "b": -2.0, "c": -3.0, "d": -4.0}
    results = Results({c: 1.0 for c in familiarity}, {"a": 90, "b": 70, "c": 75, "d": 40})
    lines, correlations = report_lines(familiarity, results)
    assert correlations["medal_rate"].r is None
    assert "medal rate: correlation: not defined over 4 competition(s)" in lines[-2]
    assert correlations["percentile"].r == pytest.approx(0.8928, abs=1e-4)  # scipy.stats.pearsonr
    assert lines[0].endswith("medal rate 100.0 %  percentile  90.0")
