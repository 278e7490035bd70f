"""The recommendation layout: ratings (user, item) in train and a space-separated list of items to
predict per user. Item co-occurrence from each user's recent items, backed by recent popularity."""

from __future__ import annotations

import logging
import re
from typing import Any

import numpy as np
import pandas as pd

from .task import Task, read_text

LOG = logging.getLogger("baseline")
DEFAULT_CUTOFF = 10  # list length when the description names no MAP@K
RECENT_ITEMS = 50
NEIGHBOURS = 100
POPULAR_ITEMS = 200


def is_ranking(task: Task) -> bool:
    """Whether the one target column of the sample holds space-separated lists."""
    if len(task.targets) != 1:
        return False
    values = task.sample[task.targets[0]].dropna().astype(str)
    return bool(len(values)) and values.str.contains(" ").mean() > 0.5


def _item_column(task: Task) -> str:
    target = task.targets[0]
    for candidate in (target.rstrip("s"), target[:-1], target.removesuffix("Ids") + "Id"):
        if candidate in task.train.columns and candidate != task.id_column:
            return candidate
    others = [c for c in task.train.columns if c != task.id_column]
    return max(others, key=lambda c: task.train[c].nunique())


def solve_ranking(task: Task) -> pd.DataFrame:
    """Item co-occurrence scores from each user's recent items, backed by recent popularity."""
    user, item = task.id_column, _item_column(task)
    k = _cutoff(task)
    ratings = task.train.dropna(subset=[user, item])
    order = next((c for c in ratings.columns if "time" in c.lower() or "date" in c.lower()), None)
    if order is not None:
        ratings = ratings.sort_values([user, order], kind="stable")
    popularity = _recent_popularity(ratings, item, order)
    neighbours = _cooccurrence(ratings, user, item)
    seen = ratings.groupby(user)[item].apply(list).to_dict()
    lists = []
    for person in task.sample[user]:
        history = seen.get(person, [])
        lists.append(" ".join(str(i) for i in _recommend(history, neighbours, popularity, k)))
    LOG.info("ranked %d items for %d users (%.0f s)", k, len(lists), task.env.elapsed())
    return task.submission({task.targets[0]: lists})


def _cutoff(task: Task) -> int:
    match = re.search(r"map@\s*(\d+)", read_text(task.env.data / "description.md").lower())
    return int(match.group(1)) if match else DEFAULT_CUTOFF


def _recent_popularity(ratings: pd.DataFrame, item: str, order: str | None) -> pd.Series:
    if order is None:
        return ratings[item].value_counts().astype(float)
    stamp = pd.to_numeric(ratings[order], errors="coerce").fillna(0).to_numpy(dtype=float)
    span = max(stamp.max() - stamp.min(), 1.0)
    weight = np.exp((stamp - stamp.max()) / (0.25 * span))
    return pd.Series(weight, index=ratings[item].to_numpy()).groupby(level=0).sum()


def _cooccurrence(ratings: pd.DataFrame, user: str, item: str) -> dict[Any, pd.Series]:
    """For each item, cosine-normalised co-occurrence with other items (top 100)."""
    from scipy.sparse import csr_matrix

    users = ratings[user].astype("category")
    items = ratings[item].astype("category")
    matrix = csr_matrix(
        (np.ones(len(ratings)), (users.cat.codes.to_numpy(), items.cat.codes.to_numpy()))
    )
    matrix.data[:] = 1.0
    counts = np.asarray(matrix.sum(axis=0)).ravel()
    co = (matrix.T @ matrix).tocsr()
    names = items.cat.categories.to_numpy()
    table: dict[Any, pd.Series] = {}
    for row in range(co.shape[0]):
        start, end = co.indptr[row], co.indptr[row + 1]
        cols, vals = co.indices[start:end], co.data[start:end]
        keep = cols != row
        cols, vals = cols[keep], vals[keep] / np.sqrt(counts[row] * counts[cols[keep]] + 1e-9)
        top = np.argsort(-vals)[:NEIGHBOURS]
        table[names[row]] = pd.Series(vals[top], index=names[cols[top]])
    return table


def _recommend(
    history: list[Any], neighbours: dict[Any, pd.Series], popularity: pd.Series, k: int
) -> list[Any]:
    seen = set(history)
    scores: dict[Any, float] = {}
    recent = history[-RECENT_ITEMS:]
    for position, item in enumerate(recent):
        weight = 0.5 + position / max(1, len(recent))
        for other, value in neighbours.get(item, pd.Series(dtype=float)).items():
            if other not in seen:
                scores[other] = scores.get(other, 0.0) + weight * value
    prior = popularity / popularity.max()
    for other, value in prior.nlargest(POPULAR_ITEMS).items():
        if other not in seen:
            scores[other] = scores.get(other, 0.0) + 0.5 * value
    ranked = sorted(scores.items(), key=lambda pair: -pair[1])
    return [item for item, _ in ranked[:k]]
