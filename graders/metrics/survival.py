"""Survival metrics: Harrell's concordance index."""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics.base import Columns, FloatArray, Metric

IntArray = npt.NDArray[np.int64]


def concordance_index(y_true: Columns, y_pred: Columns) -> float:
    """Harrell's C: the share of comparable pairs whose risk order matches their event order.

    ``y_true`` has two columns, time then event (1 = event observed, 0 = censored); ``y_pred``
    has one risk column, higher meaning an earlier event. A pair is comparable when the subject
    with the shorter time had an event; at equal times, an event is comparable with a censored
    subject (the event is taken as earlier) but two events are not. A comparable pair counts 1
    when the earlier subject has the higher risk and 0.5 when the risks are tied.
    """
    if y_true.shape[1] != 2 or y_pred.shape[1] != 1 or y_true.rows != y_pred.rows:
        raise GraderError("c-index: needs answers (time, event) and one risk column per row")
    time, event, risk = y_true.float_column(0), y_true.float_column(1), y_pred.float_column()
    if not np.all((event == 0) | (event == 1)):
        raise GraderError("c-index: the event column of the answers must hold only 0 and 1")
    # Sort by time, events before censored at equal times, then by risk.
    order = np.lexsort((risk, -event, time))
    time, event, risk = time[order], event[order] == 1, risk[order]
    risk_rank = np.unique(risk, return_inverse=True)[1].astype(np.int64)
    lower, equal = _later_lower_and_equal(risk_rank)
    later = np.arange(time.size - 1, -1, -1, dtype=np.int64)
    # Pairs of events at one time are not comparable; sorted by risk, they add no concordant
    # pair, but they do add the tied pairs counted by their equal risks.
    same_time_events = _pairs_within(time[event])
    same_time_and_risk_events = _pairs_within(time[event], risk[event])
    comparable = int(later[event].sum()) - same_time_events
    if comparable == 0:
        raise GraderError("c-index: the answers have no comparable pair of subjects")
    concordant = int(lower[event].sum())
    tied = int(equal[event].sum()) - same_time_and_risk_events
    return (concordant + 0.5 * tied) / comparable


def _later_lower_and_equal(rank: IntArray) -> tuple[IntArray, IntArray]:
    """For each position ``i``: how many later positions have a lower / equal rank.

    Bottom-up merge counting: at each level, positions are grouped in blocks of ``2·width``;
    each position in a block's left half counts, by binary search, the ranks in the right half.
    Every pair of positions meets in exactly one level, so the counts are exact, in
    ``O(n log² n)`` vectorised work.
    """
    size = rank.size
    lower = np.zeros(size, dtype=np.int64)
    equal = np.zeros(size, dtype=np.int64)
    position = np.arange(size, dtype=np.int64)
    span = int(rank.max(initial=0)) + 1
    width = 1
    while width < size:
        block = position // (2 * width)
        left = position % (2 * width) < width
        right_keys = np.sort(block[~left] * span + rank[~left])
        base = block[left] * span
        keys = base + rank[left]
        first = np.searchsorted(right_keys, base, side="left")
        below = np.searchsorted(right_keys, keys, side="left")
        through = np.searchsorted(right_keys, keys, side="right")
        lower[left] += below - first
        equal[left] += through - below
        width *= 2
    return lower, equal


def _pairs_within(*keys: FloatArray) -> int:
    """Number of unordered pairs of rows that agree on all ``keys``."""
    import pandas as pd  # only the c-index needs it; grading numbers never imports pandas

    if keys[0].size == 0:
        return 0
    counts = pd.DataFrame({str(i): key for i, key in enumerate(keys)}).value_counts().to_numpy()
    return int((counts * (counts - 1) // 2).sum())


DECLARATIONS = (
    Metric(
        name="c-index",
        perfect=1.0,
        lower_is_better=False,
        value_kind="risk",
        rows_sum_to_one=False,
        compute=concordance_index,
        description="Harrell's concordance of risk scores with (time, event) answers",
        arity="survival",
    ),
)
