"""Ranking metrics: mean average precision at k."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics.base import Array, Columns, require_same_shape

if TYPE_CHECKING:
    import pandas as pd


def map_at_k(y_true: Columns, y_pred: Columns, k: int = 10) -> float:
    """Mean average precision at ``k`` over rows (Kaggle's ``mapk``).

    Each cell is a space-separated list of item ids: the answer lists the relevant items, the
    prediction ranks items best first. ``AP@k = Σᵢ P(i)·rel(i) / min(|relevant|, k)`` over the
    first ``k`` predicted items, where ``P(i)`` is the precision of the first ``i`` items and a
    repeated item counts only at its first position. A row with no relevant items scores 0.
    """
    import pandas as pd  # only ranking metrics need it; grading numbers never imports pandas

    require_same_shape(y_true, y_pred, "map-at-k")
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise GraderError(f"map-at-k: parameter k must be a positive integer, not {k!r}")
    rows = y_true.rows
    relevant = _tokens(y_true.arrays[0]).drop_duplicates()
    ranked = _tokens(y_pred.arrays[0])
    ranked = ranked[ranked["rank"] < k].drop_duplicates(subset=["row", "item"])
    hit = pd.MultiIndex.from_frame(ranked[["row", "item"]]).isin(
        pd.MultiIndex.from_frame(relevant[["row", "item"]])
    )
    ranked_rows = ranked["row"].to_numpy()
    hits_so_far = pd.Series(hit.astype(np.int64)).groupby(ranked_rows).cumsum().to_numpy()
    precision = np.where(hit, hits_so_far / (ranked["rank"].to_numpy() + 1.0), 0.0)
    precision_sum = np.bincount(ranked_rows, weights=precision, minlength=rows)
    denominator = np.minimum(np.bincount(relevant["row"].to_numpy(), minlength=rows), k)
    average_precision = np.divide(
        precision_sum, denominator, out=np.zeros(rows), where=denominator > 0
    )
    return float(average_precision.mean())


def _tokens(cells: Array) -> pd.DataFrame:
    """One row per (row number, item, rank within the row) of whitespace-separated cells."""
    import pandas as pd

    lists = pd.Series(cells, dtype=object).fillna("").astype(str).str.split()
    items = lists.explode().dropna()
    row = items.index.to_numpy(dtype=np.int64)
    rank = items.groupby(row).cumcount().to_numpy(dtype=np.int64)
    return pd.DataFrame({"row": row, "item": items.astype(str).to_numpy(), "rank": rank})
