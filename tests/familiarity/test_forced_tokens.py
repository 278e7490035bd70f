"""Familiarity by forced tokens, against a FAKE llama.cpp server (``fake_llama_server.py``).

The fake's model scores each word ``-len(word) / 10 - position / 100``, so every expected figure
is known and a request with the wrong prompt before its forced tokens gets other figures. The
real server's figures are checked in ``tests/real_model/test_familiarity_local.py``.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.errors import MLEBenchError
from pytest_mlebench.familiarity import forced_tokens
from pytest_mlebench.familiarity.forced_tokens import (
    chunk_request,
    followed_logprobs,
    llama_server,
    score_text,
    token_grammar,
)
from pytest_mlebench.familiarity.measure import measure
from pytest_mlebench.integrity.judge import judge_setup
from tests.factories import write_competition
from tests.familiarity.fake_llama_server import FakeLlamaServer, fake_logprob

KEY = "sk-fake-familiarity"
TEXT = "one three fifteen seven to eleven"


def expected(text: str, first: int = 1) -> list[float]:
    """The fake model's figures of ``text``'s words from word ``first`` on (word 0 is context)."""
    words = text.split()
    return [fake_logprob(word, position) for position, word in enumerate(words)][first:]


def test_the_grammar_names_each_token_in_order() -> None:
    assert token_grammar([5, 17, 5]) == "root ::= <[5]> <[17]> <[5]>"
    request = chunk_request([9, 4], [5, 17])
    assert request["prompt"] == [9, 4] and request["n_predict"] == 2
    assert request["n_probs"] >= 1 and request["post_sampling_probs"] is False
    assert request["cache_prompt"] is True


@pytest.mark.parametrize(
    ("taken", "kept"),
    [([5, 17], [-0.5, -1.7]), ([5, 18], [-0.5]), ([5], [-0.5]), ([6, 17], []), ([], [])],
)
def test_the_answer_counts_up_to_where_it_departs(taken: list[int], kept: list[float]) -> None:
    answer = {"completion_probabilities": [{"id": t, "logprob": -t / 10} for t in taken]}
    assert followed_logprobs(answer, [5, 17]) == pytest.approx(kept)


def test_an_answer_without_figures_is_an_error() -> None:
    with pytest.raises(MLEBenchError, match="no completion_probabilities"):
        followed_logprobs({"content": "x"}, [5, 17])
    with pytest.raises(MLEBenchError, match="log-probability None"):
        followed_logprobs({"completion_probabilities": [{"id": 5, "logprob": None}]}, [5])


def test_scored_in_chunks_each_with_the_text_so_far(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forced_tokens, "CHUNK_TOKENS", 2)
    with FakeLlamaServer() as fake:
        server = llama_server(fake.url, None)
        assert server is not None and server.context == 4096 and server.model == "fake-llama"
        score = score_text(server, TEXT)
    assert score.logprobs == pytest.approx(expected(TEXT))
    assert (score.chunk_requests, score.lookups) == (3, 0)
    completions = [body for path, body in fake.received if path == "/completion"]
    assert [len(body["prompt"]) for body in completions] == [1, 3, 5]
    assert [body["n_predict"] for body in completions] == [2, 2, 1]


def test_bytes_of_a_split_character_are_looked_up_never_forced() -> None:
    with FakeLlamaServer(split_words=frozenset({"fifteen"})) as fake:
        server = llama_server(fake.url, None)
        assert server is not None
        score = score_text(server, TEXT)
        split, anchor = fake.vocabulary.index("fifteen"), fake.vocabulary.index(".")
    assert score.logprobs == pytest.approx(expected(TEXT))
    assert (score.chunk_requests, score.lookups) == (2, 1)
    grammars = [body["grammar"] for path, body in fake.received if "grammar" in body]
    assert all(f"<[{split}]>" not in grammar for grammar in grammars)
    lookups = [body for path, body in fake.received if "logit_bias" in body]
    assert [len(body["prompt"]) for body in lookups] == [2]  # "one three", then "fifteen"
    assert lookups[0]["logit_bias"] == [[anchor, 1000.0]]  # the answer made a whole token


def test_a_token_where_the_answer_departs_is_looked_up() -> None:
    with FakeLlamaServer(grammar_skips=frozenset({"fifteen", "eleven"})) as fake:
        server = llama_server(fake.url, None)
        assert server is not None
        score = score_text(server, TEXT)
    assert score.logprobs == pytest.approx(expected(TEXT))
    assert (score.chunk_requests, score.lookups) == (2, 2)
    lookups = [body for path, body in fake.received if "logit_bias" in body]
    assert [len(body["prompt"]) for body in lookups] == [2, 5]  # "fifteen", then "eleven"


def test_a_start_token_makes_the_first_word_scored() -> None:
    with FakeLlamaServer(start_token=True) as fake:
        server = llama_server(fake.url, None)
        assert server is not None
        values = score_text(server, TEXT).logprobs
    assert values == pytest.approx(expected("<s> " + TEXT))
    assert len(values) == len(TEXT.split())


def test_texts_the_server_cannot_score_are_said_plainly() -> None:
    with FakeLlamaServer(context=4) as fake:
        server = llama_server(fake.url, None)
        assert server is not None
        with pytest.raises(MLEBenchError, match="6 tokens, more than the server's context of 4"):
            score_text(server, TEXT)
        with pytest.raises(MLEBenchError, match="fewer than two tokens"):
            score_text(server, "alone")
    with FakeLlamaServer(grammar_skips=frozenset({"seven"}), lists_candidates=False) as fake:
        server = llama_server(fake.url, None)
        assert server is not None
        with pytest.raises(MLEBenchError, match="did not list token 4 among all its candidates"):
            score_text(server, TEXT)
    lookups = [body["n_probs"] for path, body in fake.received if "logit_bias" in body]
    assert lookups == list(forced_tokens.LOOKUP_CANDIDATES)  # 256, then the whole vocabulary


def test_measure_forces_tokens_on_a_llama_server_with_the_key(tmp_path: Path) -> None:
    texts = {"a": TEXT, "b": "x yy zzz"}
    with FakeLlamaServer(alias="fake-model") as fake:
        setup = judge_setup("fake-model", None, {"openai": fake.url}, None, {"OPENAI_API_KEY": KEY})
        result = measure(setup, texts, tmp_path / "transcript.jsonl")
        other = judge_setup(
            "other-model", None, {"openai": fake.url}, None, {"OPENAI_API_KEY": KEY}
        )
        with pytest.raises(MLEBenchError, match="serves fake-model, not other-model: pass --model"):
            measure(other, texts, tmp_path / "transcript.jsonl")
    assert result.method == "forced-tokens"
    for cid, text in texts.items():
        assert result.familiarity[cid] == pytest.approx(
            math.fsum(expected(text)) / len(expected(text))
        )
        assert result.tokens[cid] == len(text.split()) - 1
    assert result.to_dict()["server"]["scored_tokens"] == 7
    assert result.to_dict()["server"]["lookups"] == 0
    assert {path for path, _ in fake.received} == {"/tokenize", "/completion"}  # no chat


def test_the_command_reports_forced_token_figures(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    defs = tmp_path / "defs"
    (write_competition(defs, "c1") / "description.md").write_text("# c1\n\nshort words\n")
    with FakeLlamaServer(alias="fake-model") as fake:
        code = main([
            "familiarity", "--model", "fake-model", "--competitions-dir", str(defs), "-c", "c1",
            "--gateway-upstream", f"openai={fake.url}", "--json", str(tmp_path / "f.json"),
            "--transcript", str(tmp_path / "t.jsonl"),
        ])  # fmt: skip
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "by forced-tokens" in out
    figures = json.loads((tmp_path / "f.json").read_text())
    assert figures["method"] == "forced-tokens"
    assert figures["competitions"]["c1"]["mean_logprob"] == pytest.approx(
        math.fsum(expected("# c1 short words")) / 3
    )
    assert not (tmp_path / "t.jsonl").exists()  # the gateway was not used
