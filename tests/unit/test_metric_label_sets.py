"""F1 over label sets: Kaggle's per-row mean F1, micro F1, the original's known-label variant."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics import f1_score
from sklearn.preprocessing import MultiLabelBinarizer

from pytest_mlebench.graders import Columns, get_metric
from pytest_mlebench.graders.metrics.sets import known_label_micro_f1

MEAN_F1 = get_metric("mean-f1")
MICRO_F1 = get_metric("micro-f1")


def _cols(truth: list[str], pred: list[str]) -> tuple[Columns, Columns]:
    return Columns.of({"t": truth}), Columns.of({"p": pred})


def _draw(rng: np.random.Generator, labels: list[str], low: int, high: int, rows: int) -> list[str]:
    """``rows`` cells of ``low`` to ``high - 1`` distinct labels each."""
    return [
        " ".join(rng.choice(labels, size=int(rng.integers(low, high)), replace=False))
        for _ in range(rows)
    ]


def test_mean_f1_hand_worked() -> None:
    # row 1: {c#, .net} vs {c#, java}: 2·1 / 4 = 0.5; row 2: {python} vs {python}: 1;
    # row 3: {php} vs {}: 0. Mean 0.5.
    truth = ["c# .net", "python", "php"]
    pred = ["java c#", "python python", ""]
    assert MEAN_F1.compute(*_cols(truth, pred)) == pytest.approx(0.5, abs=1e-12)
    assert MEAN_F1.compute(*_cols(["", "a"], ["", "a"])) == 1.0  # both empty: equal sets


def test_mean_f1_equals_sklearns_samples_average() -> None:
    rng = np.random.default_rng(0)
    labels = [f"t{k}" for k in range(12)]
    truth = [
        " ".join(rng.choice(labels, size=rng.integers(1, 5), replace=False)) for _ in range(300)
    ]
    pred = [
        " ".join(rng.choice(labels, size=rng.integers(0, 5), replace=False)) for _ in range(300)
    ]
    binarizer = MultiLabelBinarizer(classes=labels)
    expected = f1_score(
        binarizer.fit_transform([t.split() for t in truth]),
        binarizer.transform([p.split() for p in pred]),
        average="samples",
        zero_division=0,
    )
    assert MEAN_F1.compute(*_cols(truth, pred)) == pytest.approx(expected, abs=1e-12)


def test_micro_f1_counts_an_unknown_label_the_original_drops() -> None:
    # TP = 2 (c#, python), true labels 3, predicted 4 (one of them, "cobol", in no answer).
    truth = ["c# .net", "python"]
    pred = ["c# cobol", "python java"]
    assert MICRO_F1.compute(*_cols(truth, pred)) == pytest.approx(2 * 2 / (3 + 4))
    # the original: labels in no answer ("cobol", "java") are dropped before counting
    original = known_label_micro_f1(*_cols(truth, pred))
    binarizer = MultiLabelBinarizer(classes=sorted({".net", "c#", "python"}))
    y_true = binarizer.fit_transform([t.split() for t in truth])
    with pytest.warns(UserWarning, match="unknown class"):
        y_pred = binarizer.transform([p.split() for p in pred])
    assert original == pytest.approx(f1_score(y_true, y_pred, average="micro"), abs=1e-12)
    assert original == pytest.approx(2 * 2 / (3 + 2))  # both cobol and java are dropped


@pytest.mark.parametrize("seed", [0, 1])
def test_micro_f1_equals_sklearn_when_every_label_is_known(seed: int) -> None:
    rng = np.random.default_rng(seed)
    labels = [str(k) for k in range(30)]
    truth = [" ".join(rng.choice(labels, size=3, replace=False)) for _ in range(200)]
    pred = [
        " ".join(rng.choice(labels, size=rng.integers(0, 6), replace=False)) for _ in range(200)
    ]
    binarizer = MultiLabelBinarizer(classes=labels)
    expected = f1_score(
        binarizer.fit_transform([t.split() for t in truth]),
        binarizer.transform([p.split() for p in pred]),
        average="micro",
    )
    assert MICRO_F1.compute(*_cols(truth, pred)) == pytest.approx(expected, abs=1e-12)
