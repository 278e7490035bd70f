"""The gateway behind its real forwarder, against a FAKE upstream: routes, keys, streams,
errors, budgets, transcript."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.gateway import Budget, Gateway, GatewayError
from tests.gateway.conftest import PROVIDER_KEY, call_through, make_gateway, transcript
from tests.gateway.fake_upstream import INPUT_TOKENS, OUTPUT_TOKENS, FakeUpstream

CHAT = (
    "/v1/chat/completions",
    {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": "hi"}]},
)
GPT_4O_MINI = (INPUT_TOKENS * 0.15 + OUTPUT_TOKENS * 0.60) / 1e6


def test_a_chat_call_goes_upstream_with_the_real_key_and_is_counted(
    gateway: Gateway, fake_upstream: FakeUpstream
) -> None:
    [answer] = call_through(gateway, [CHAT])
    assert answer["status"] == 200
    assert answer["body"]["choices"][0]["message"]["content"] == "fake answer"
    [received] = fake_upstream.received
    assert received.headers["Authorization"] == f"Bearer {PROVIDER_KEY}"
    summary = gateway.summary()
    assert (summary["calls"], summary["input_tokens"], summary["output_tokens"]) == (
        1,
        INPUT_TOKENS,
        OUTPUT_TOKENS,
    )
    assert summary["cost_usd"] == pytest.approx(GPT_4O_MINI)
    assert summary["transcript"] == "gateway.jsonl"


def test_every_route_is_served_and_counted(gateway: Gateway) -> None:
    calls = [
        CHAT,
        ("/v1/responses", {"model": "gpt-4o-mini", "input": "hi"}),
        ("/v1/embeddings", {"model": "text-embedding-3-small", "input": "hi"}),
        ("/v1/messages", {"model": "claude-3-5-haiku-20241022", "max_tokens": 5, "messages": []}),
    ]
    answers = call_through(gateway, calls)
    assert [a["status"] for a in answers] == [200, 200, 200, 200]
    summary = gateway.summary()
    assert summary["calls"] == 4
    assert summary["input_tokens"] == 4 * INPUT_TOKENS
    assert summary["output_tokens"] == 3 * OUTPUT_TOKENS  # embeddings have no output
    assert set(summary["models"]) == {
        "gpt-4o-mini",
        "text-embedding-3-small",
        "claude-3-5-haiku-20241022",
    }
    assert summary["cost_usd"] is not None and summary["cost_usd"] > 0


def test_streams_pass_through_and_their_usage_is_counted(
    gateway: Gateway, fake_upstream: FakeUpstream
) -> None:
    chat = ("/v1/chat/completions", {**CHAT[1], "stream": True})
    claude = ("/v1/messages", {"model": "claude-3-5-haiku", "stream": True, "max_tokens": 5})
    chat_answer, claude_answer = call_through(gateway, [chat, claude])
    assert "data: [DONE]" in chat_answer["body"] and "streamed" in chat_answer["body"]
    assert "message_stop" in claude_answer["body"]
    # the gateway asked for the usage chunk, so it could count the stream
    assert fake_upstream.received[0].body["stream_options"] == {"include_usage": True}
    summary = gateway.summary()
    assert (summary["input_tokens"], summary["output_tokens"]) == (
        2 * INPUT_TOKENS,
        2 * OUTPUT_TOKENS,
    )


def test_a_provider_error_passes_through_with_its_status(gateway: Gateway) -> None:
    [answer] = call_through(gateway, [("/v1/chat/completions", {"model": "status-503"})])
    assert answer["status"] == 503
    assert answer["body"]["error"]["message"] == "fake upstream says 503"
    summary = gateway.summary()
    assert (summary["calls"], summary["failed_calls"]) == (1, 1)
    [entry] = transcript(gateway)
    assert entry["status"] == 503


def test_nothing_is_retried(gateway: Gateway, fake_upstream: FakeUpstream) -> None:
    call_through(gateway, [("/v1/chat/completions", {"model": "status-429"})])
    assert len(fake_upstream.received) == 1


def test_a_wrong_token_is_refused_and_never_goes_upstream(
    gateway: Gateway, fake_upstream: FakeUpstream
) -> None:
    [answer] = call_through(gateway, [CHAT], token=PROVIDER_KEY)
    assert answer["status"] == 401
    assert "run's token" in answer["body"]["error"]["message"]
    assert fake_upstream.received == []


def test_an_unknown_model_costs_null_with_a_message(gateway: Gateway) -> None:
    [answer] = call_through(gateway, [("/v1/chat/completions", {"model": "my-local-llama"})])
    assert answer["status"] == 200
    summary = gateway.summary()
    assert summary["cost_usd"] is None
    assert summary["unpriced_models"] == ["my-local-llama"]
    assert "'my-local-llama' is not in the price table" in summary["messages"][0]
    assert summary["input_tokens"] == INPUT_TOKENS  # tokens are still counted


def test_a_token_budget_cuts_the_run_off_with_429(
    fake_upstream: FakeUpstream, tmp_path: Path
) -> None:
    gateway = make_gateway(fake_upstream, tmp_path, Budget(tokens=INPUT_TOKENS + OUTPUT_TOKENS))
    gateway.start(tmp_path / "gateway.sock")
    try:
        first, second = call_through(gateway, [CHAT, CHAT])
    finally:
        gateway.stop()
    assert first["status"] == 200
    assert second["status"] == 429
    assert second["body"]["error"]["code"] == "budget_exhausted"
    assert "150 of 150 tokens" in second["body"]["error"]["message"]
    assert len(fake_upstream.received) == 1
    summary = gateway.summary()
    assert summary["budget_exhausted"] is True
    assert (summary["calls"], summary["refused_calls"]) == (1, 1)


def test_a_cost_budget_refuses_a_model_it_cannot_price(
    fake_upstream: FakeUpstream, tmp_path: Path
) -> None:
    gateway = make_gateway(fake_upstream, tmp_path, Budget(cost_usd=1.0))
    gateway.start(tmp_path / "gateway.sock")
    try:
        [answer] = call_through(gateway, [("/v1/chat/completions", {"model": "mystery"})])
    finally:
        gateway.stop()
    assert answer["status"] == 400
    assert "--mle-price-table" in answer["body"]["error"]["message"]
    assert fake_upstream.received == []


def test_the_transcript_has_every_call_and_no_key(gateway: Gateway) -> None:
    call_through(gateway, [CHAT, ("/v1/chat/completions", {**CHAT[1], "stream": True})])
    entries = transcript(gateway)
    assert [e["status"] for e in entries] == [200, 200]
    first = entries[0]
    assert first["request"]["messages"][0]["content"] == "hi"
    assert first["response"]["usage"]["prompt_tokens"] == INPUT_TOKENS
    assert first["usage"]["input_tokens"] == INPUT_TOKENS
    assert first["cost_usd"] == pytest.approx(GPT_4O_MINI)
    assert first["latency_seconds"] >= 0
    text = gateway.transcript_path.read_text()
    assert PROVIDER_KEY not in text and gateway.token not in text


def test_a_key_in_a_request_body_is_redacted(gateway: Gateway) -> None:
    call_through(gateway, [("/v1/chat/completions", {**CHAT[1], "api_key": "sk-leaked"})])
    text = gateway.transcript_path.read_text()
    assert "sk-leaked" not in text and "[redacted]" in text


def test_a_missing_secret_is_a_clear_error(fake_upstream: FakeUpstream, tmp_path: Path) -> None:
    gateway = make_gateway(fake_upstream, tmp_path, TEST_OPENAI_KEY="")
    with pytest.raises(
        GatewayError, match=r"needs the secret TEST_OPENAI_KEY .* export TEST_OPENAI_KEY="
    ):
        gateway.start(tmp_path / "gateway.sock")


def test_a_socket_that_cannot_be_made_is_a_clear_error(
    fake_upstream: FakeUpstream, tmp_path: Path
) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    gateway = make_gateway(fake_upstream, tmp_path)
    with pytest.raises(GatewayError, match=r"cannot listen on .*a-file/gateway.sock"):
        gateway.start(blocker / "gateway.sock")


def test_an_unreachable_upstream_is_a_502_naming_it(tmp_path: Path) -> None:
    with FakeUpstream() as fake:
        gateway = make_gateway(fake, tmp_path)
    gateway.start(tmp_path / "gateway.sock")  # the fake is gone: nothing listens there now
    try:
        [answer] = call_through(gateway, [CHAT])
    finally:
        gateway.stop()
    assert answer["status"] == 502
    assert "could not reach http://127.0.0.1:" in answer["body"]["error"]["message"]
