"""AIDE when its review cannot be bridged: the real plugin and aideml, a FAKE upstream declared
``forced_tool_call: schema`` whose JSON-schema answers to the review are cut at their cap.

The gateway answers each cut review with HTTP 502 ``bridged_call_invalid`` (never a call with
broken JSON); ``run_aide.py`` asks once more, then takes the node as buggy, and the search goes
on to its last step instead of crashing. The record counts the cut answers and the unbridgeable
calls, and the agent's stop reason says how the reviews fared.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.aide.scripted_aide import answer_aide
from tests.aide.test_aide_runs import aide_copy, only_record, run_titanic
from tests.gateway.conftest import PROVIDER_KEY
from tests.gateway.fake_upstream import FakeUpstream

pytestmark = pytest.mark.usefixtures("aide_on_path")

STEPS = 2
REVIEW_ATTEMPTS = 2  # run_aide.py asks once more after a bridged_call_invalid


def cut_reviews(body: dict[str, Any]) -> dict[str, Any]:
    """AIDE's code answers as scripted; its bridged review (a JSON-schema request) cut short."""
    if not body.get("response_format"):
        return answer_aide(body)
    answer = answer_aide({**body, "tools": ["the review"]})
    arguments = answer["choices"][0]["message"]["tool_calls"][0]["function"]["arguments"]
    answer["choices"][0].update(
        message={"role": "assistant", "content": arguments[:18]}, finish_reason="length"
    )
    return answer


@pytest.fixture
def cutting_upstream(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeUpstream]:
    with FakeUpstream(chat=cut_reviews) as fake:
        monkeypatch.setenv("OPENAI_API_KEY", PROVIDER_KEY)
        monkeypatch.setenv("MLEBENCH_GATEWAY_UPSTREAM", f"openai={fake.url}")
        yield fake


def test_an_unbridgeable_review_makes_a_buggy_node_not_a_crash(
    tmp_path: Path, cutting_upstream: FakeUpstream
) -> None:
    agent = aide_copy(tmp_path, steps=STEPS)
    config = yaml.safe_load((agent / "config.yaml").read_text())
    config["aide"]["gateway"] = {"openai": {"forced_tool_call": "schema"}}
    (agent / "config.yaml").write_text(yaml.safe_dump(config))
    done = run_titanic(tmp_path, "--mle-agent", f"{agent}:aide")
    record = only_record(tmp_path)
    output = done.stdout[-3000:] + done.stderr[-2000:]
    assert record["exit_code"] == 0, output  # AIDE ran to its last step
    invalid = STEPS * REVIEW_ATTEMPTS
    gateway = record["gateway"]
    assert (gateway["calls"], gateway["invalid_bridged_calls"]) == (STEPS + invalid, invalid)
    assert gateway["truncated_calls"] == invalid
    assert record["stop_reason"] == (
        f"steps done after {STEPS} step(s); 0 working program(s); {STEPS} review(s) unreadable; "
        "no working solution wrote a submission"
    )
    transcript = [
        json.loads(line)
        for line in (Path(record["run_dir"]) / "gateway.jsonl").read_text().splitlines()
    ]
    refused = [entry for entry in transcript if entry.get("status_to_agent") == 502]
    assert len(refused) == invalid
    assert all(e["response"]["error"]["code"] == "bridged_call_invalid" for e in refused)
    assert all(e["upstream_response"]["choices"][0]["finish_reason"] == "length" for e in refused)
