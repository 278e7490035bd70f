"""Prepare ``fine-food-reviews``: Amazon fine-food reviews (modeldata), keeping the original split.

modeldata's ``training_data`` and ``testing_data`` are used as train and test. Reviews whose
text appears earlier (in train, or twice in test) are kept once, so no test text has a known
label.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from pytest_mlebench import embedded

SHA256 = {
    "training_data": "6dec4b73f69bdf67c3d664dcfe28e1a5bbf01df2d94690d398ac8f4318ef4495",
    "testing_data": "704dd2b187f3c5d2d618b1234043dc2fb49c2785daad4413ce28bd1bcacc6899",
}
SEED = 20_240_208


def load_part(name: str) -> pd.DataFrame:
    """One of modeldata's parts with ``great`` = 1 for a five-star review, else 0."""
    frame = embedded.read_rdataset("modeldata", name, SHA256[name])
    embedded.require(list(frame.columns) == ["product", "review", "score"], "unexpected columns")
    score = frame["score"].astype(str)
    embedded.require(set(score) == {"great", "other"}, "unexpected score values")
    return pd.DataFrame(
        {
            "product": frame["product"].astype(str),
            "review": frame["review"].astype(str),
            "great": (score == "great").astype("int64"),
        }
    )


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Write train/test/sample_submission into ``public`` and answers into ``private``."""
    train = load_part("training_data").drop_duplicates("review")
    test = load_part("testing_data").drop_duplicates("review")
    test = test[~test["review"].isin(set(train["review"]))]
    rng = embedded.rng_for(SEED)
    ids = embedded.fresh_ids(len(train) + len(test), rng)
    train = train.assign(id=ids[: len(train)])[["id", "product", "review", "great"]]
    test = test.assign(id=ids[len(train) :])[["id", "product", "review", "great"]]
    train = embedded.shuffled_rows(train, pd.RangeIndex(len(train)).to_numpy(), rng)
    test = embedded.shuffled_rows(test, pd.RangeIndex(len(test)).to_numpy(), rng)
    answers = test[["id", "great"]]
    embedded.write_prepared(
        public,
        private,
        train=train,
        test=test.drop(columns="great"),
        answers=answers,
        sample=answers.assign(great=0.5),
    )
