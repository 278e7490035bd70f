"""Familiarity against the real local model server (SmolLM2-135M, llama.cpp).

llama.cpp's server returns no prompt log-probabilities (it ignores vLLM's ``prompt_logprobs`` and
the completions API's ``echo``; checked on ``xllamacpp`` 2026.10.11549), so the measure forces the
text's own tokens with a token-id grammar and reads each one's log-probability
(:mod:`pytest_mlebench.familiarity.forced_tokens`). Here its figures are checked against a second,
independent way of asking the same server: one request per token, the prompt the text so far
and the next token made the answer by ``logit_bias`` (the reported log-probability is the raw
model's, unbiased). The measure looks up the two byte tokens of ``≈``; that way gives no figure
for the first (the server holds back an answer that ends inside a character) but one for the
second, and the tokens after them check that forcing goes on from the right place. One short
text each: a few seconds on one thread.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.familiarity.forced_tokens import llama_server, score_text, text_tokens
from pytest_mlebench.local_model import LocalModelServer
from tests.factories import write_competition
from tests.real_model.conftest import MODEL

PROVERB = "A journey of a thousand miles begins with a single step."
WITH_SPLIT = "A guess scores log 20 ≈ 3.0 in log-loss."  # ≈: two byte tokens in SmolLM2
SHUFFLED = "Step miles a single of journey begins thousand a with a."


def completion(root: str, payload: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        root + "/completion", json.dumps(payload).encode(), {"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=120) as answer:
        parsed: dict[str, Any] = json.loads(answer.read())
        return parsed


def one_by_one(root: str, tokens: list[int]) -> list[float | None]:
    """Each token's log-probability after the ones before it, one request each (``None`` where
    the server gives none: a token that ends inside a character)."""
    values: list[float | None] = []
    for end in range(1, len(tokens)):
        answer = completion(root, {
            "prompt": tokens[:end], "n_predict": 1, "n_probs": 1, "temperature": 0,
            "logit_bias": [[tokens[end], 100]], "cache_prompt": True,
        })  # fmt: skip
        entries = answer.get("completion_probabilities") or [{"id": tokens[end], "logprob": None}]
        assert entries[0]["id"] == tokens[end]
        values.append(entries[0]["logprob"])
    return values


@pytest.mark.parametrize(("text", "lookups", "withheld"), [(PROVERB, 0, 0), (WITH_SPLIT, 2, 1)])
def test_forced_tokens_equal_one_request_per_token(
    model_server: LocalModelServer, text: str, lookups: int, withheld: int
) -> None:
    server = llama_server(model_server.base_url, None)
    assert server is not None and server.model == MODEL
    score = score_text(server, text)
    tokens = text_tokens(server, text)
    assert sum(tokens.split) == lookups and score.lookups == lookups
    reference = one_by_one(server.root, tokens.ids)
    assert len(score.logprobs) == len(reference) == len(tokens.ids) - 1 >= 10
    pairs = [
        (got, want) for got, want in zip(score.logprobs, reference, strict=True) if want is not None
    ]
    assert len(pairs) == len(reference) - withheld
    assert [got for got, _ in pairs] == pytest.approx([want for _, want in pairs], abs=1e-4)
    assert all(value < 0 for value in score.logprobs)
    assert min(score.logprobs) < -5  # not floored, not biased


def test_the_command_finds_a_proverb_more_familiar_than_its_words_shuffled(
    model_server: LocalModelServer,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "local-server-needs-no-key")
    defs = tmp_path / "defs"
    for cid, text in (("proverb", PROVERB), ("shuffled", SHUFFLED)):
        (write_competition(defs, cid) / "description.md").write_text(text + "\n")
    code = main([
        "familiarity", "--model", MODEL, "--competitions-dir", str(defs), "-c", "proverb",
        "-c", "shuffled", "--gateway-upstream", f"openai={model_server.base_url}",
        "--json", str(tmp_path / "f.json"), "--transcript", str(tmp_path / "t.jsonl"),
    ])  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0, err
    assert f"familiarity of {MODEL} (standard descriptions, mean log-prob per token, by " in out
    figures = json.loads((tmp_path / "f.json").read_text())
    assert figures["method"] == "forced-tokens"
    scores = {cid: entry["mean_logprob"] for cid, entry in figures["competitions"].items()}
    assert scores["proverb"] > scores["shuffled"] + 1.0
