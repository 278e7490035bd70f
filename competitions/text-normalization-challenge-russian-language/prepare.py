"""Prepare ``text-normalization-challenge-russian-language`` from Kaggle's files.

The split is the one of both text-normalisation competitions:
:mod:`pytest_mlebench.text_normalization` (by sentence, 10 %, MLE-bench's rows; tokens kept as
the text they are).
"""

from __future__ import annotations

from pathlib import Path

from pytest_mlebench.text_normalization import prepare_by_sentence

LANGUAGE = "ru"


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's ``ru_train.csv`` by sentence into train and test."""
    prepare_by_sentence(raw, public, private, LANGUAGE)
