"""Ordering metrics: Kendall's τ of predicted orders, pooled over groups (AI4Code's notebooks).

Each answer cell is a group's items in their true order and each prediction the same items in a
predicted order, both space-separated ids. :func:`order_rule` (run by validation) makes sure a
prediction lists exactly its group's items, each once, so a metric never sees a foreign id.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.messages import count, show_value
from pytest_mlebench.graders.metrics.base import Array, Columns, Metric, require_same_shape

IntArray = npt.NDArray[np.int64]
BLOCK = 1024
"""Items per block when counting the inversions of a long order (bounded temporaries)."""


def pooled_kendall_tau(y_true: Columns, y_pred: Columns) -> float:
    """``1 − 4·Σ inversions / Σ n(n − 1)`` over all groups (Kaggle's AI4Code metric).

    For a group of ``n`` items, the inversions are the pairs the prediction puts in the opposite
    order of the truth; sums run over every group, so a long notebook weighs more than a short
    one. Equal to Kendall's τ for one group; 1 for every order right, −1 for every one reversed.
    """
    require_same_shape(y_true, y_pred, "kendall-tau")
    inversions = 0
    pairs = 0
    for truth, predicted in zip(y_true.values(0), y_pred.values(0), strict=True):
        position = {item: rank for rank, item in enumerate(str(truth).split())}
        ranks = np.fromiter((position[item] for item in str(predicted).split()), dtype=np.int64)
        inversions += count_inversions(ranks)
        pairs += len(position) * (len(position) - 1)
    if pairs == 0:
        raise GraderError("kendall-tau: no answer lists two items or more; nothing to order")
    return 1.0 - 4.0 * inversions / pairs


def count_inversions(ranks: IntArray) -> int:
    """The number of pairs ``i < j`` with ``ranks[i] > ranks[j]``."""
    total = 0
    for start in range(0, ranks.size, BLOCK):
        block = ranks[start : start + BLOCK]
        # pairs inside the block, then the block against everything before it
        total += int(np.count_nonzero(np.triu(block[:, None] > block[None, :], k=1)))
        before = np.sort(ranks[:start])
        total += int((before.size - np.searchsorted(before, block, side="right")).sum())
    return total


def order_rule(y_true: Columns, y_pred: Columns) -> tuple[int, str] | None:
    """The first row whose prediction is not an order of exactly its answer's items."""
    truths: Array = y_true.values(0)
    for row, (truth, predicted) in enumerate(zip(truths, y_pred.values(0), strict=True)):
        expected = str(truth).split()
        given = str(predicted).split()
        if len(given) == len(expected) and set(given) == set(expected):
            continue
        return row, _order_problem(expected, given)
    return None


def _order_problem(expected: list[str], given: list[str]) -> str:
    seen: set[str] = set()
    for item in given:
        if item in seen:
            return f"cell id {show_value(item)} is listed twice; list each cell once"
        seen.add(item)
    unknown = sorted(set(given) - set(expected))
    if unknown:
        return (
            f"{count(len(unknown), 'cell id')} not in this notebook, e.g. "
            f"{show_value(unknown[0])}; list only the notebook's own cells"
        )
    missing = [item for item in expected if item not in seen]
    return (
        f"{count(len(missing), 'cell')} of the notebook missing, e.g. {show_value(missing[0])}; "
        f"list all {len(expected)} cells, each once"
    )


DECLARATIONS = (
    Metric(
        name="kendall-tau",
        lower_is_better=False,
        value_kind="text",
        rows_sum_to_one=False,
        compute=pooled_kendall_tau,
        description="Kendall's tau of predicted item orders, inversions pooled over rows",
        arity="one",
        check_rows=order_rule,
    ),
)
