"""Pooled Kendall τ: hand-worked inversions, scipy's τ for one group, and the order rule."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import kendalltau

from pytest_mlebench.graders import (
    Columns,
    GraderError,
    SubmissionSpec,
    get_metric,
    score_submission,
    validate_submission,
)
from pytest_mlebench.graders.metrics.ordering import count_inversions

TAU = get_metric("kendall-tau")
SPEC = SubmissionSpec(id_column="id", target_columns=("cell_order",), metric="kendall-tau")


def _tau(truth: list[str], pred: list[str]) -> float:
    return TAU.compute(Columns.of({"t": truth}), Columns.of({"p": pred}))


def test_pooled_over_groups_hand_worked() -> None:
    # "a b c" predicted "b a c": 1 inversion of 3·2 = 6; "x y" predicted "y x": 1 of 2.
    # Pooled: 1 − 4·(1 + 1) / (6 + 2) = 0 (the mean of the two τ's would be (1/3 − 1)/2).
    assert _tau(["a b c", "x y"], ["b a c", "y x"]) == pytest.approx(0.0, abs=1e-12)
    assert _tau(["a b c d"], ["a b c d"]) == 1.0
    assert _tau(["a b c d"], ["d c b a"]) == -1.0


@pytest.mark.parametrize("size", [5, 300, 2500])  # 2500 spans several blocks
def test_inversions_and_scipys_tau_for_one_group(size: int) -> None:
    rng = np.random.default_rng(size)
    ranks = rng.permutation(size)
    brute = sum(
        int(ranks[i] > ranks[j])
        for i in range(min(size, 300))
        for j in range(i + 1, min(size, 300))
    )
    assert count_inversions(ranks[: min(size, 300)]) == brute
    items = [f"c{k:05d}" for k in range(size)]
    predicted = " ".join(items[r] for r in ranks)
    expected = kendalltau(np.arange(size), ranks).statistic
    assert _tau([" ".join(items)], [predicted]) == pytest.approx(expected, abs=1e-12)


def test_single_item_notebooks_alone_cannot_be_scored() -> None:
    with pytest.raises(GraderError, match="nothing to order"):
        _tau(["a", "b"], ["a", "b"])


def _submit(tmp_path: Path, orders: list[str]) -> tuple[Path, Path]:
    answers, submission = tmp_path / "answers.csv", tmp_path / "submission.csv"
    ids = ["00001756c60a", "0001daf4c2c76d"]
    pd.DataFrame({"id": ids, "cell_order": ["1862f0a6 448eb224 2a9e43d6", "a1 b2"]}).to_csv(
        answers, index=False
    )
    pd.DataFrame({"id": ids[::-1], "cell_order": orders[::-1]}).to_csv(submission, index=False)
    return submission, answers


@pytest.mark.parametrize(
    ("first", "reason"),
    [
        ("1862f0a6 448eb224", "1 cell of the notebook missing, e.g. '2a9e43d6'; list all 3 cells"),
        ("1862f0a6 448eb224 2a9e43d6 ffff0000", "1 cell id not in this notebook, e.g. 'ffff0000'"),
        ("1862f0a6 448eb224 448eb224", "cell id '448eb224' is listed twice"),
        ("1862f0a6 448eb224 ffff0000", "1 cell id not in this notebook, e.g. 'ffff0000'"),
    ],
)
def test_a_prediction_must_order_exactly_its_notebooks_cells(
    tmp_path: Path, first: str, reason: str
) -> None:
    submission, answers = _submit(tmp_path, [first, "b2 a1"])
    for check in (validate_submission, score_submission):
        result = check(submission, answers, SPEC)
        assert not result.valid and result.reason is not None
        assert result.reason.startswith("row id '00001756c60a': "), result.reason
        assert reason in result.reason


def test_a_valid_file_is_scored(tmp_path: Path) -> None:
    submission, answers = _submit(tmp_path, ["448eb224 1862f0a6 2a9e43d6", "a1 b2"])
    result = score_submission(submission, answers, SPEC)
    assert result.valid, result.reason
    assert result.score == pytest.approx(1 - 4 * 1 / (6 + 2))
