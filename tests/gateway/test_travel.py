"""A run's gateway travels to a Ray node and back by pickling (what Ray does with a task's
arguments and result): it carries only the secrets its providers name, and its ledger."""

from __future__ import annotations

import pickle
from pathlib import Path

from pytest_mlebench.gateway import Gateway
from tests.gateway.conftest import PROVIDER_KEY, call_through, make_gateway, transcript
from tests.gateway.fake_upstream import INPUT_TOKENS, FakeUpstream


def test_only_the_named_secrets_travel(fake_upstream: FakeUpstream, tmp_path: Path) -> None:
    gateway = make_gateway(fake_upstream, tmp_path, HOME_SECRET="not-for-the-node")
    copy: Gateway = pickle.loads(pickle.dumps(gateway))
    assert copy.environ == {"TEST_OPENAI_KEY": PROVIDER_KEY}
    assert copy.token == gateway.token and not copy.started


def test_a_copy_serves_and_its_ledger_comes_back(
    fake_upstream: FakeUpstream, tmp_path: Path
) -> None:
    node_copy: Gateway = pickle.loads(pickle.dumps(make_gateway(fake_upstream, tmp_path)))
    node_copy.start(tmp_path / "node" / "gateway.sock")
    try:
        call_through(node_copy, [("/v1/chat/completions", {"model": "gpt-4o-mini"})])
        back: Gateway = pickle.loads(pickle.dumps(node_copy))  # a started one travels stopped
    finally:
        node_copy.stop()
    assert not back.started and back.environ == {"TEST_OPENAI_KEY": PROVIDER_KEY}
    assert (back.ledger.calls, back.ledger.input_tokens) == (1, INPUT_TOKENS)
    assert back.ledger.refusal("gpt-4o-mini") is None  # its lock was made anew
    assert back.summary()["calls"] == 1 and len(transcript(back)) == 1
