"""Prepare ``movielens-top10``: MovieLens ratings (dslabs ``movielens``, ml-latest-small).

For every user the chronologically last 20 % of their ratings are hidden; the task is to
recommend ten movies each user will rate next. Users get fresh random ids. The data are read
from the installed package at prepare time only (GroupLens terms restrict redistribution).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from pytest_mlebench import embedded

SHA256 = "f11eb406d322dbeff4445a4e4954b6a37b6c210af3f2142310e895d2ee15f3c5"
SEED = 20_240_212
HIDDEN_FRACTION = 0.2
MOVIE_COLUMNS = ["movieId", "title", "year", "genres"]


def load_ratings() -> pd.DataFrame:
    """All 100,004 ratings: ``userId``, ``movieId``, ``rating``, ``timestamp`` and movie data."""
    frame = embedded.read_rdataset("dslabs", "movielens", SHA256)
    embedded.require(len(frame) == 100_004, f"expected 100004 ratings, got {len(frame)}")
    embedded.require(
        not frame.duplicated(["userId", "movieId"]).any(), "a user rated a movie twice"
    )
    return frame


def hidden_mask(ratings: pd.DataFrame) -> np.ndarray:
    """True for each user's last 20 % of ratings by time (ties broken by movie id)."""
    ordered = ratings.sort_values(["userId", "timestamp", "movieId"])
    position = ordered.groupby("userId").cumcount()
    count = ordered.groupby("userId")["movieId"].transform("size")
    hidden = (count - position) <= (count * HIDDEN_FRACTION).round().clip(lower=1)
    return hidden.reindex(ratings.index).to_numpy()


def movie_table(ratings: pd.DataFrame) -> pd.DataFrame:
    movies = ratings[MOVIE_COLUMNS].drop_duplicates("movieId").sort_values("movieId")
    movies = movies.assign(title=movies["title"].astype(str), genres=movies["genres"].astype(str))
    return movies.assign(year=movies["year"].astype("Int64")).reset_index(drop=True)


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Write ratings, movies, users and the sample submission; hidden movies go to ``private``."""
    ratings = load_ratings()
    rng = embedded.rng_for(SEED)
    users = np.sort(ratings["userId"].unique())
    user_ids = dict(zip(users.tolist(), embedded.fresh_ids(len(users), rng).tolist(), strict=True))
    ratings = ratings.assign(userId=ratings["userId"].map(user_ids))
    hidden = hidden_mask(ratings)
    visible = ratings.loc[~hidden, ["userId", "movieId", "rating", "timestamp"]]
    visible = visible.sort_values(["userId", "timestamp", "movieId"]).reset_index(drop=True)
    answers = (
        ratings.loc[hidden]
        .sort_values(["userId", "timestamp", "movieId"])
        .groupby("userId")["movieId"]
        .agg(lambda ids: " ".join(str(i) for i in ids))
        .rename("movieIds")
        .reset_index()
    )
    test = answers[["userId"]]
    counts = visible.groupby("movieId").size()
    top = counts.sort_values(ascending=False, kind="stable").index[:10]
    sample = test.assign(movieIds=" ".join(str(i) for i in top))
    embedded.write_csv(movie_table(ratings), public / "movies.csv")
    embedded.write_prepared(
        public,
        private,
        train=visible,
        test=test,
        answers=answers,
        sample=sample,
        id_column="userId",
        disjoint_ids=False,
    )
