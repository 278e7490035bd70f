"""Tests of datakit.vocab."""

import json
from pathlib import Path

from datakit.vocab import build_vocab, tokenize, top_tokens

FIXTURES = json.loads((Path(__file__).parent / "fixtures.json").read_text("utf-8"))


def test_tokenize_lowercases_and_splits():
    assert tokenize("Hello, World 42!") == ["hello", "world", "42"]


def test_top_tokens_most_frequent_first():
    assert top_tokens(FIXTURES["corpus"], 3) == FIXTURES["corpus_top"][:3]


def test_top_tokens_ties_are_alphabetical():
    assert top_tokens(FIXTURES["tie_texts"], 2) == FIXTURES["tie_top"]


def test_build_vocab_reserves_zero():
    vocab = build_vocab(FIXTURES["corpus"], 4)
    assert sorted(vocab.values()) == [1, 2, 3, 4]
