"""lwlrap: a hand-worked case, scikit-learn's weighted LRAP, ties, and answers without labels."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import label_ranking_average_precision_score

from pytest_mlebench.graders import Columns, GraderError, get_metric
from pytest_mlebench.graders.metrics import lwlrap as module

LWLRAP = get_metric("lwlrap")


def _columns(matrix: np.ndarray) -> Columns:
    return Columns.of_matrix(tuple(f"c{j}" for j in range(matrix.shape[1])), matrix.astype(float))


def _score(truth: list[list[int]], scores: list[list[float]]) -> float:
    return LWLRAP.compute(_columns(np.array(truth)), _columns(np.array(scores)))


def test_hand_worked() -> None:
    # row 1: true {a, c}, scores a 0.9, b 0.8, c 0.1: a at rank 1 (1/1), c at rank 3 (2/3)
    # row 2: true {b}, scores b highest: 1/1. Three labels: (1 + 2/3 + 1) / 3 = 8/9
    assert _score([[1, 0, 1], [0, 1, 0]], [[0.9, 0.8, 0.1], [0.1, 0.7, 0.2]]) == pytest.approx(
        8 / 9
    )


def test_a_tie_counts_against_the_prediction() -> None:
    # all three scored equal: the true class is at rank 3 with 1 true above → 1/3
    assert _score([[0, 1, 0]], [[0.5, 0.5, 0.5]]) == pytest.approx(1 / 3)


@pytest.mark.parametrize("seed", range(4))
def test_equals_sklearn_lrap_weighted_by_label_count(seed: int) -> None:
    rng = np.random.default_rng(seed)
    truth = (rng.random((2500, 80)) < 0.02).astype(int)  # > 1 block, some rows without labels
    truth[0, :3] = 1
    scores = rng.random((2500, 80)).round(2)  # rounding makes ties
    weights = truth.sum(axis=1)
    expected = label_ranking_average_precision_score(truth, scores, sample_weight=weights)
    assert LWLRAP.compute(_columns(truth), _columns(scores)) == pytest.approx(expected, rel=1e-12)
    assert module.BLOCK_ROWS < 2500


def test_answers_without_any_label_are_a_grader_error() -> None:
    with pytest.raises(GraderError, match="no true label"):
        _score([[0, 0]], [[0.1, 0.2]])
