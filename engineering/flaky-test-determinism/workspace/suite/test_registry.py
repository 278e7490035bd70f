"""Tests of datakit.registry."""

import json
from pathlib import Path

from datakit import registry

FIXTURES = json.loads((Path(__file__).parent / "fixtures.json").read_text("utf-8"))


def test_words_tokenizer_is_builtin():
    assert registry.get("words")("A b") == ["a", "b"]


def test_register_a_custom_tokenizer():
    name = FIXTURES["custom_tokenizer"]
    registry.register(name, lambda text: list(text.replace(" ", "")))
    assert name in registry.available()
    assert registry.get(name)("a b") == ["a", "b"]
