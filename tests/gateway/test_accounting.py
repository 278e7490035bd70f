"""Pure parts of the gateway's accounting: usage from bodies and streams, prices, run totals."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.errors import ConfigError
from pytest_mlebench.gateway import load_price_table
from pytest_mlebench.gateway.usage import StreamUsage, Usage, usage_of
from pytest_mlebench.report.llm_usage import usage_lines, usage_totals
from tests.report.builders import record


@pytest.mark.parametrize(
    ("body", "usage"),
    [
        (
            {"model": "m", "usage": {"prompt_tokens": 5, "completion_tokens": 7}},
            Usage(5, 7, "m", True),
        ),
        ({"model": "m", "usage": {"prompt_tokens": 5, "total_tokens": 5}}, Usage(5, 0, "m", True)),
        ({"usage": {"input_tokens": 3, "output_tokens": 4}}, Usage(3, 4, None, True)),
        (
            {"usage": {"input_tokens": 3, "cache_read_input_tokens": 10, "output_tokens": 4}},
            Usage(13, 4, None, True),
        ),
        ({"model": "m"}, Usage(0, 0, "m", False)),
        ({"usage": {"prompt_tokens": -1}}, Usage(0, 0, None, True)),
        ("not a dict", Usage()),
    ],
)
def test_usage_of_answers(body: Any, usage: Usage) -> None:
    assert usage_of(body) == usage


def sse(*events: dict[str, Any]) -> bytes:
    return (
        b"".join(f"data: {json.dumps(event)}\n\n".encode() for event in events)
        + b"data: [DONE]\n\n"
    )


@pytest.mark.parametrize("chunk_size", [1, 7, 10_000])
def test_stream_usage_survives_any_chunking(chunk_size: int) -> None:
    stream = sse(
        {"model": "gpt-4o", "choices": [{"delta": {"content": "a"}}]},
        {"model": "gpt-4o", "choices": [], "usage": {"prompt_tokens": 11, "completion_tokens": 2}},
    )
    reader = StreamUsage()
    for start in range(0, len(stream), chunk_size):
        reader.feed(stream[start : start + chunk_size])
    assert reader.finish() == Usage(11, 2, "gpt-4o", True)


def test_stream_usage_of_responses_and_anthropic() -> None:
    responses = StreamUsage()
    responses.feed(
        sse(
            {
                "type": "response.completed",
                "response": {"model": "o3", "usage": {"input_tokens": 9, "output_tokens": 1}},
            }
        )
    )
    assert responses.finish() == Usage(9, 1, "o3", True)
    claude = StreamUsage()
    claude.feed(
        sse(
            {
                "type": "message_start",
                "message": {
                    "model": "claude-sonnet-4",
                    "usage": {"input_tokens": 20, "output_tokens": 1},
                },
            },
            {"type": "message_delta", "usage": {"output_tokens": 40}},
        )
    )
    assert claude.finish() == Usage(20, 40, "claude-sonnet-4", True)


def test_prices_by_exact_name_then_longest_prefix() -> None:
    table = load_price_table()
    assert table.price_of("gpt-4o-mini-2024-07-18") == table.prices["gpt-4o-mini"]
    assert table.price_of("gpt-4o-2024-08-06") == table.prices["gpt-4o"]
    assert table.price_of("openai/gpt-4o") == table.prices["gpt-4o"]
    assert table.price_of("llama3") is None
    assert table.cost("gpt-4o", 1_000_000, 1_000_000) == pytest.approx(12.5)


def test_an_override_wins_and_a_bad_one_names_the_entry(tmp_path: Path) -> None:
    good = tmp_path / "good.yaml"
    good.write_text("models:\n  gpt-4o: {input: 1, output: 2}\n  llama3: {input: 0, output: 0}\n")
    table = load_price_table(good)
    assert (table.prices["gpt-4o"].input, table.cost("llama3", 10, 10)) == (1.0, 0.0)
    bad = tmp_path / "bad.yaml"
    bad.write_text("models:\n  gpt-4o: {input: cheap}\n")
    with pytest.raises(
        ConfigError, match=r"bad.yaml: model 'gpt-4o' needs numbers 'input' and 'output'"
    ):
        load_price_table(bad)


def account(cost: float | None, calls: int = 2, exhausted: bool = False) -> dict[str, Any]:
    return {
        "calls": calls,
        "input_tokens": 100,
        "output_tokens": 10,
        "cost_usd": cost,
        "budget_exhausted": exhausted,
        "messages": [] if cost is not None else ["model 'x' is not in the price table"],
    }


def test_run_totals_cost_per_medal_and_unknown_costs() -> None:
    runs = [
        record("a", 0, 0.95, gateway=account(0.5)),  # gold
        record("b", 1, 0.4, gateway=account(None, exhausted=True)),
        record("c", 0),
    ]
    totals = usage_totals(runs)
    assert totals == {
        "runs": 2,
        "calls": 4,
        "input_tokens": 200,
        "output_tokens": 20,
        "cost_usd": 0.5,
        "runs_cost_unknown": 1,
        "budget_exhausted_runs": 1,
        "truncated_calls": 0,  # records made before cut answers were counted read as none
        "medals": 1,
        "cost_per_medal_usd": 0.5,
    }
    line, message = usage_lines(runs)
    assert line.startswith(
        "LLM: 4 calls, 200 input + 20 output tokens, $0.5000 (+1 run(s) of unknown cost)"
    )
    assert "$0.5000 per medal; 1 run(s) exhausted their budget" in line
    assert message == "LLM: model 'x' is not in the price table"
    assert usage_totals([record("c", 0)]) is None


def test_summary_json_has_llm_usage_at_every_level() -> None:
    from pytest_mlebench.report.merge import merge_records
    from pytest_mlebench.report.summary_json import build_summary

    summary = build_summary(merge_records([record("a", 0, 0.95, gateway=account(0.5))]))
    assert summary["llm_usage"]["cost_usd"] == 0.5
    assert summary["agents"]["dummy"]["llm_usage"]["calls"] == 2
    [competition] = summary["competitions"]
    assert competition["llm_usage"]["cost_per_medal_usd"] == 0.5
    assert competition["runs"][0]["llm_usage"] == {
        "calls": 2,
        "input_tokens": 100,
        "output_tokens": 10,
        "cost_usd": 0.5,
        "budget_exhausted": False,
        "truncated_calls": 0,
    }


def test_cut_answers_are_counted_in_the_totals_the_session_line_and_each_run_line() -> None:
    from pytest_mlebench.summary import run_line

    cut = record("a", 0, 0.4, gateway={**account(0.0), "truncated_calls": 3})
    assert usage_totals([cut, cut])["truncated_calls"] == 6  # type: ignore[index]
    assert usage_lines([cut])[0].endswith("; 3 answer(s) cut at the answer cap")
    assert "LLM 2 calls, 110 tokens, $0.0000, 3 answer(s) cut at the cap" in run_line(cut)
