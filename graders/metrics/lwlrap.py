"""Label-weighted label-ranking average precision (lwlrap), the metric of freesound-audio-tagging.

Each row scores every class; its true classes should rank first. For a true class ``i`` of a
row, the precision at its rank is ``L_i / R_i``: ``R_i`` the number of the row's classes scored
at least as high as ``i``, ``L_i`` how many of those are true. lwlrap is the mean of ``L_i / R_i``
over every (row, true class) pair, so each true label weighs the same, and a row weighs as much
as it has true labels (a row with none counts nothing). Ties count against the prediction, as in
scikit-learn's ``label_ranking_average_precision_score`` with per-row label-count weights, which
gives the same number.
"""

from __future__ import annotations

import numpy as np

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics.base import Columns, Metric, require_binary, require_same_shape

BLOCK_ROWS = 1024
"""Rows compared at a time: ``rows × classes × classes`` booleans (6.5 million for 80 classes)."""


def lwlrap(y_true: Columns, y_pred: Columns) -> float:
    """Mean over every true (row, class) pair of the precision at that class's rank in its row."""
    require_same_shape(y_true, y_pred, "lwlrap")
    truth, scores = y_true.floats(), y_pred.floats()
    for j, name in enumerate(y_true.names):
        require_binary(truth[:, j], name, "lwlrap")
    labels = int(np.count_nonzero(truth))
    if labels == 0:
        raise GraderError("lwlrap: the answers hold no true label at all")
    relevant = truth == 1
    total = 0.0
    for start in range(0, truth.shape[0], BLOCK_ROWS):
        block, true_block = scores[start : start + BLOCK_ROWS], relevant[start : start + BLOCK_ROWS]
        # at_least[r, i, j]: in row r, class j is scored at least as high as class i
        at_least = block[:, None, :] >= block[:, :, None]
        rank = at_least.sum(axis=2)
        true_above = (at_least & true_block[:, None, :]).sum(axis=2)
        total += float((true_above / rank)[true_block].sum())
    return total / labels


DECLARATIONS = (
    Metric(
        name="lwlrap",
        lower_is_better=False,
        value_kind="real",
        rows_sum_to_one=False,
        compute=lwlrap,
        description="label-weighted label-ranking average precision over class score columns",
    ),
)
