"""Tests of datakit.pipeline (and the tokenizers it can use)."""

import json
from pathlib import Path

from datakit import registry
from datakit.pipeline import fit, transform

FIXTURES = json.loads((Path(__file__).parent / "fixtures.json").read_text("utf-8"))


def test_only_builtin_tokenizers_by_default():
    assert registry.available() == ["words"]


def test_fit_builds_the_vocabulary():
    vocab = fit(FIXTURES["corpus"], k=len(FIXTURES["corpus_top"]))
    assert list(vocab) == FIXTURES["corpus_top"]


def test_transform_uses_the_fitted_vocabulary():
    assert transform(FIXTURES["probe"]) == FIXTURES["probe_ids"]
