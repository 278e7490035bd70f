"""Reference population for ``movielens-top10`` (MAP@10): random lists to EASE and blends."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import sparse
from sklearn.decomposition import TruncatedSVD

from leaderboard_population.common import Entry

K = 10
DAY = 86_400


class Ratings:
    """The visible ratings as a user x movie matrix, with lookups both ways."""

    def __init__(self, train: pd.DataFrame, users: pd.Series) -> None:
        self.train = train
        self.users = users.to_numpy()
        self.movies = np.sort(train["movieId"].unique())
        self.user_index = {u: i for i, u in enumerate(self.users)}
        rows = train["userId"].map(self.user_index).to_numpy()
        cols = np.searchsorted(self.movies, train["movieId"].to_numpy())
        self.matrix = sparse.csr_matrix(
            (np.ones(len(train)), (rows, cols)), shape=(len(self.users), len(self.movies))
        )
        self.last_seen = train.groupby("userId")["timestamp"].max()

    def top(self, scores: np.ndarray, exclude_seen: bool = True) -> list[str]:
        """The ten best movies per user (rows of ``scores``), seen ones removed."""
        scores = np.array(scores, dtype=float)
        if exclude_seen:
            scores[self.matrix.nonzero()] = -np.inf
        best = np.argpartition(-scores, K, axis=1)[:, :K]
        order = np.take_along_axis(scores, best, axis=1).argsort(axis=1)[:, ::-1]
        ranked = np.take_along_axis(best, order, axis=1)
        return [" ".join(str(m) for m in self.movies[row]) for row in ranked]


def entries(public: Path) -> Iterator[Entry]:
    """Yield every reference submission for ``movielens-top10``."""
    train = pd.read_csv(public / "train.csv")
    sample = pd.read_csv(public / "sample_submission.csv")
    data = Ratings(train, sample["userId"])
    n_users, n_movies = data.matrix.shape
    rng = np.random.default_rng(0)
    yield Entry(
        "random movies", "constant", _sub(sample, data.top(rng.random((n_users, n_movies))))
    )
    counts = np.asarray(data.matrix.sum(axis=0)).ravel()
    yield Entry(
        "most rated, seen included",
        "popularity",
        _sub(sample, data.top(np.tile(counts, (n_users, 1)), False)),
    )
    yield Entry("most rated", "popularity", _sub(sample, data.top(np.tile(counts, (n_users, 1)))))
    yield from _rating_rules(data, sample)
    windows = {days: time_popularity(data, days) for days in (7, 30, 90, 180, 365, 730)}
    for days, scores in windows.items():
        yield Entry(
            f"popular within {days} days of the user's last rating",
            "popularity",
            _sub(sample, data.top(scores)),
        )
    yield from _neighbours(data, sample, windows[180])
    yield from _factors(data, sample, windows[180])


def _sub(sample: pd.DataFrame, lists: list[str]) -> pd.DataFrame:
    return sample.assign(movieIds=lists)


def _rating_rules(data: Ratings, sample: pd.DataFrame) -> Iterator[Entry]:
    stats = data.train.groupby("movieId")["rating"].agg(["mean", "size"]).reindex(data.movies)
    for minimum in (5, 50):
        score = np.where(stats["size"] >= minimum, stats["mean"], 0.0)
        yield Entry(
            f"best mean rating, at least {minimum} ratings",
            "popularity",
            _sub(sample, data.top(np.tile(score, (len(data.users), 1)))),
        )


def time_popularity(data: Ratings, days: int) -> np.ndarray:
    """Per user: how often others rated each movie within ``days`` of the user's last rating."""
    train = data.train.sort_values("timestamp", kind="stable")
    cols = np.searchsorted(data.movies, train["movieId"].to_numpy())
    stamps = train["timestamp"].to_numpy()
    last = data.last_seen.reindex(data.users).to_numpy()
    scores = np.zeros((len(data.users), len(data.movies)))
    for user, moment in enumerate(last):
        lo = np.searchsorted(stamps, moment - days * DAY)
        hi = np.searchsorted(stamps, moment + days * DAY)
        np.add.at(scores[user], cols[lo:hi], 1.0)
    return scores + 1e-6 * np.asarray(data.matrix.sum(axis=0)).ravel()


def _neighbours(data: Ratings, sample: pd.DataFrame, time_pop: np.ndarray) -> Iterator[Entry]:
    binary = data.matrix
    norms = np.sqrt(np.asarray(binary.sum(axis=0)).ravel()) + 1e-9
    similarity = (binary.T @ binary).toarray() / np.outer(norms, norms)
    np.fill_diagonal(similarity, 0.0)
    for neighbours in (10, 50, 200, 1000):
        pruned = similarity.copy()
        cut = np.partition(pruned, -neighbours, axis=1)[:, -neighbours][:, None]
        pruned[pruned < cut] = 0.0
        scores = binary @ pruned
        yield Entry(
            f"item-knn cosine, {neighbours} neighbours",
            "neighbours",
            _sub(sample, data.top(scores)),
        )
    user_norms = np.sqrt(np.asarray(binary.sum(axis=1)).ravel()) + 1e-9
    user_similarity = (binary @ binary.T).toarray() / np.outer(user_norms, user_norms)
    np.fill_diagonal(user_similarity, 0.0)
    for neighbours in (5, 20, 50, 150):
        pruned = user_similarity.copy()
        cut = np.partition(pruned, -neighbours, axis=1)[:, -neighbours][:, None]
        pruned[pruned < cut] = 0.0
        yield Entry(
            f"user-knn cosine, {neighbours} neighbours",
            "neighbours",
            _sub(sample, data.top(binary.T.dot(pruned.T).T)),
        )
    for last in (5, 10, 50):
        recent_scores = _recent_matrix(data, last) @ similarity
        label = f"item-knn cosine from the last {last} ratings"
        yield Entry(label, "neighbours", _sub(sample, data.top(recent_scores)))
    scores = _recent_matrix(data, 20) @ similarity
    yield Entry(
        "item-knn cosine from the last 20 ratings", "neighbours", _sub(sample, data.top(scores))
    )
    blend = _unit(scores) + 0.5 * _unit(time_pop)
    yield Entry(
        "item-knn from recent ratings + time-aware popularity",
        "ensemble",
        _sub(sample, data.top(blend)),
    )


def _recent_matrix(data: Ratings, last: int) -> sparse.csr_matrix:
    recent = data.train.sort_values(["userId", "timestamp"]).groupby("userId").tail(last)
    rows = recent["userId"].map(data.user_index).to_numpy()
    cols = np.searchsorted(data.movies, recent["movieId"].to_numpy())
    return sparse.csr_matrix((np.ones(len(recent)), (rows, cols)), shape=data.matrix.shape)


def _unit(scores: np.ndarray) -> np.ndarray:
    top = np.abs(scores).max(axis=1, keepdims=True) + 1e-12
    return np.asarray(scores) / top


def _factors(data: Ratings, sample: pd.DataFrame, time_pop: np.ndarray) -> Iterator[Entry]:
    for rank in (5, 10, 20, 50, 100):
        svd = TruncatedSVD(n_components=rank, random_state=0)
        users = svd.fit_transform(data.matrix)
        yield Entry(
            f"truncated svd rank {rank}",
            "matrix factorisation",
            _sub(sample, data.top(users @ svd.components_)),
        )
    counts = np.asarray(data.matrix.sum(axis=0)).ravel()
    keep = np.flatnonzero(counts >= 3)
    x = data.matrix[:, keep].toarray()
    gram = x.T @ x
    for strength in (10.0, 50.0, 100.0, 300.0, 1000.0, 3000.0):
        inverse = np.linalg.inv(gram + strength * np.eye(len(keep)))
        weights = -inverse / np.diag(inverse)
        np.fill_diagonal(weights, 0.0)
        scores = np.zeros(data.matrix.shape)
        scores[:, keep] = x @ weights
        yield Entry(
            f"ease lambda={strength:g}", "linear autoencoder", _sub(sample, data.top(scores))
        )
        for weight in (0.1, 0.3, 1.0):
            blend = _unit(scores) + weight * _unit(time_pop)
            yield Entry(
                f"ease lambda={strength:g} + {weight:g} x time-aware popularity",
                "ensemble",
                _sub(sample, data.top(blend)),
            )
