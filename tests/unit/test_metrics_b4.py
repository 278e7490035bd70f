"""Hand-worked values of the image and signal metrics: weighted AUC, KL divergence, pF1,
the study-weighted log loss and top-1 error; and how a submission for each is validated."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

from pytest_mlebench.graders import (
    Columns,
    GraderError,
    SubmissionSpec,
    get_metric,
    score_submission,
)


def _compute(name: str, truth: dict[str, list[Any]], pred: dict[str, list[Any]]) -> float:
    return float(get_metric(name).compute(Columns.of(truth), Columns.of(pred)))


LN2 = math.log(2)


@pytest.mark.parametrize(
    ("name", "truth", "pred", "expected"),
    [
        # ROC corners (0,0) (0,.5) (.5,.5) (.5,1) (1,1): band [0,.4] full (0.4), band [.4,1]
        # 0.1·0.5 + 0.6·0.5 = 0.35; (2·0.4 + 0.35) / (2·0.4 + 0.6) = 1.15 / 1.4
        pytest.param(
            "weighted-auc", {"t": [0, 0, 1, 1]}, {"p": [0.1, 0.4, 0.35, 0.8]}, 1.15 / 1.4,
            id="weighted-auc-hand",
        ),
        pytest.param("weighted-auc", {"t": [0, 1]}, {"p": [0.1, 0.9]}, 1.0, id="weighted-auc-1"),
        pytest.param("weighted-auc", {"t": [0, 1]}, {"p": [0.9, 0.1]}, 0.0, id="weighted-auc-0"),
        # constant scores: the diagonal; band [0,.4]: 0.4 − 0.4²/2 = 0.32, band [.4,1]: 0.6²/2
        pytest.param(
            "weighted-auc", {"t": [0, 1, 0, 1]}, {"p": [0.5] * 4}, (2 * 0.32 + 0.18) / 1.4,
            id="weighted-auc-diagonal",
        ),
        # votes (1,1,0) → (.5,.5,0) against (.25,.75,0): .5 ln 2 + .5 ln(2/3) = .5 ln(4/3);
        # votes (0,0,2) → (0,0,1) against (0,0,1): 0 (up to the clip); mean .25 ln(4/3)
        pytest.param(
            "kl-divergence", {"a": [1, 0], "b": [1, 0], "c": [0, 2]},
            {"a": [0.25, 0.0], "b": [0.75, 0.0], "c": [0.0, 1.0]}, 0.25 * math.log(4 / 3),
            id="kl-hand",
        ),
        # Σp·y = 1, Σp = 1.4, Σy = 2: P = 5/7, R = 1/2, F = 2·(5/14) / (17/14) = 10/17
        pytest.param(
            "probabilistic-f1", {"t": [1, 0, 1, 0]}, {"p": [0.8, 0.4, 0.2, 0.0]}, 10 / 17,
            id="pf1-hand",
        ),
        pytest.param("probabilistic-f1", {"t": [1, 0]}, {"p": [1.0, 0.0]}, 1.0, id="pf1-perfect"),
        pytest.param("probabilistic-f1", {"t": [1, 0]}, {"p": [0.0, 0.0]}, 0.0, id="pf1-zeros"),
        pytest.param("probabilistic-f1", {"t": [1, 0]}, {"p": [0.0, 0.7]}, 0.0, id="pf1-missed"),
        # study A: overall + (w 14) and C1 − (w 1) at 0.5: ln 2; study B: overall − (w 7) at
        # 0.5, C2 + (w 2) at 1: 7 ln 2 / 9; mean (ln 2 + 7 ln 2 / 9) / 2 = 8 ln 2 / 9
        pytest.param(
            "study-weighted-log-loss",
            {"t": [1, 0, 0, 1],
             "k": ["1.2.3_patient_overall", "1.2.3_C1", "1.2.4_patient_overall", "1.2.4_C2"]},
            {"p": [0.5, 0.5, 0.5, 1.0]}, 8 * LN2 / 9, id="weighted-log-loss-hand",
        ),
        pytest.param(
            "top-1-error", {"t": [1, 2, 3, 4]}, {"p": [1, 2, 0, 0]}, 0.5, id="top-1-error"
        ),
        pytest.param("top-1-error", {"t": [7, 9]}, {"p": [7, 9]}, 0.0, id="top-1-error-0"),
    ],
)  # fmt: skip
def test_hand_worked_values(
    name: str, truth: dict[str, list[Any]], pred: dict[str, list[Any]], expected: float
) -> None:
    assert _compute(name, truth, pred) == pytest.approx(expected, rel=1e-9, abs=1e-12)


def test_weighted_auc_matches_a_dense_integration_of_the_bands() -> None:
    rng = np.random.default_rng(3)
    labels = rng.integers(0, 2, 300).astype(float)
    scores = np.round(labels * 0.3 + rng.random(300), 2)  # ties on purpose
    order = np.argsort(-scores, kind="stable")
    distinct = np.r_[np.flatnonzero(np.diff(scores[order])), 299]
    tp = np.r_[0, np.cumsum(labels[order])[distinct]] / labels.sum()
    fp = np.r_[0, (distinct + 1) - np.cumsum(labels[order])[distinct]] / (300 - labels.sum())
    grid = np.linspace(0, 1, 400_001)
    curve = np.interp(grid, fp, tp)  # vertical steps have no width
    bands = [(0.0, 0.4, 2.0), (0.4, 1.0, 1.0)]
    dense = sum(w * np.trapezoid(np.clip(curve - lo, 0, hi - lo), grid) for lo, hi, w in bands)
    expected = dense / 1.4
    got = _compute("weighted-auc", {"t": list(labels)}, {"p": list(scores)})
    assert got == pytest.approx(expected, abs=1e-5)


@pytest.mark.parametrize(
    ("name", "truth", "pred", "match"),
    [
        ("weighted-auc", {"t": [1, 1]}, {"p": [0.1, 0.2]}, "only one class"),
        ("kl-divergence", {"a": [0], "b": [0]}, {"a": [0.5], "b": [0.5]}, "no votes"),
        ("kl-divergence", {"a": [-1], "b": [2]}, {"a": [0.5], "b": [0.5]}, ">= 0"),
        ("probabilistic-f1", {"t": [0, 0]}, {"p": [0.1, 0.2]}, "no positive"),
        ("study-weighted-log-loss", {"t": [1], "k": ["1.2_C9"]}, {"p": [0.5]}, "<study>_<target>"),
    ],
)
def test_unusable_answers_raise_grader_error(
    name: str, truth: dict[str, list[Any]], pred: dict[str, list[Any]], match: str
) -> None:
    with pytest.raises(GraderError, match=match):
        _compute(name, truth, pred)


def _grade(tmp_path: Path, spec: SubmissionSpec, answers: pd.DataFrame, rows: pd.DataFrame):
    answers.to_csv(tmp_path / "answers.csv", index=False)
    rows.to_csv(tmp_path / "submission.csv", index=False)
    return score_submission(tmp_path / "submission.csv", tmp_path / "answers.csv", spec)


PF1 = SubmissionSpec(id_column="id", target_columns=("cancer",), metric="probabilistic-f1")
PF1_ANSWERS = pd.DataFrame({"id": ["1_L", "1_R", "2_L"], "cancer": [1, 0, 0]})


def test_an_all_zero_pf1_submission_is_valid_and_scores_zero(tmp_path: Path) -> None:
    result = _grade(tmp_path, PF1, PF1_ANSWERS, PF1_ANSWERS.assign(cancer=0.0))
    assert result.valid, result.reason
    assert result.score == 0.0


@pytest.mark.parametrize(
    ("change", "word"),
    [
        (lambda frame: frame.assign(cancer=[0.5, np.nan, 0.1]), "cancer"),
        (lambda frame: frame.assign(cancer=[0.5, 1.5, 0.1]), "cancer"),
        (lambda frame: frame.iloc[1:], "missing"),
        (lambda frame: pd.concat([frame, frame.iloc[:1]]), "1_L"),
        (lambda frame: frame.assign(id=["1_L", "1_R", "3_L"]), "3_L"),
    ],
    ids=["nan", "above-one", "missing-id", "repeated-id", "foreign-id"],
)
def test_pf1_submissions_that_are_invalid_say_why(tmp_path: Path, change: Any, word: str) -> None:
    result = _grade(tmp_path, PF1, PF1_ANSWERS, change(PF1_ANSWERS.assign(cancer=0.3)))
    assert not result.valid and result.score is None
    assert result.reason and word in result.reason


KL = SubmissionSpec(id_column="eeg_id", target_columns=("a", "b"), metric="kl-divergence")


def test_kl_rows_must_sum_to_one_and_nan_is_invalid(tmp_path: Path) -> None:
    answers = pd.DataFrame({"eeg_id": [10, 11], "a": [3, 0], "b": [1, 2]})
    good = _grade(
        tmp_path, KL, answers, pd.DataFrame({"eeg_id": [11, 10], "a": [0, 0.75], "b": [1, 0.25]})
    )
    assert good.valid, good.reason
    assert good.score == pytest.approx(0.0, abs=1e-12)
    off = _grade(
        tmp_path, KL, answers, pd.DataFrame({"eeg_id": [10, 11], "a": [0.9, 0.5], "b": [0.9, 0.5]})
    )
    assert not off.valid and off.reason
    nan = _grade(
        tmp_path, KL, answers, pd.DataFrame({"eeg_id": [10, 11], "a": [np.nan, 0.5], "b": [1, 0.5]})
    )
    assert not nan.valid and nan.reason


def test_top1_error_rejects_a_fractional_label(tmp_path: Path) -> None:
    spec = SubmissionSpec(id_column="id", target_columns=("predicted",), metric="top-1-error")
    answers = pd.DataFrame({"id": [1, 2], "predicted": [5, 7]})
    result = _grade(tmp_path, spec, answers, answers.assign(predicted=[5.5, 7]))
    assert not result.valid and result.reason


def test_hms_worked_example_pooled_votes_against_per_window_rows() -> None:
    """The hms README: one EEG, windows voted 3 × seizure and 3 × LPD, predicted (.5, .5, 0…)."""
    classes = ("seizure", "lpd", "gpd", "lrda", "grda", "other")
    prediction = {name: [0.5 if name in ("seizure", "lpd") else 0.0] for name in classes}
    pooled = {name: [3 if name in ("seizure", "lpd") else 0] for name in classes}
    assert _compute("kl-divergence", pooled, prediction) == pytest.approx(0.0, abs=1e-12)
    windows = {name: [3 * (name == "seizure"), 3 * (name == "lpd")] for name in classes}
    repeated = {name: values * 2 for name, values in prediction.items()}
    assert _compute("kl-divergence", windows, repeated) == pytest.approx(LN2)


def test_kl_matches_the_published_metric_examples() -> None:
    # the examples of Kaggle's published KL-divergence metric (its docstring)
    first = _compute(
        "kl-divergence",
        {"ham": [0, 1, 1, 0], "spam": [1, 0, 0, 1]},
        {"ham": [0.1, 0.9, 0.8, 0.35], "spam": [0.9, 0.1, 0.2, 0.65]},
    )
    assert first == pytest.approx(0.216161, abs=1e-6)
    second = _compute(
        "kl-divergence",
        {"ham": [0, 0.5, 0.5], "spam": [0.1, 0.5, 0.5], "other": [0.9, 0, 0]},
        {"ham": [0.2, 0.3, 0.5], "spam": [0.1, 0.5, 0.5], "other": [0.7, 0.2, 0]},
    )
    assert second == pytest.approx(0.160531, abs=1e-6)


def test_window_kl_is_the_mean_over_windows_hand_worked() -> None:
    # the hms README: windows (1, 0) and (0, 1) of one EEG: ȳ = (.5, .5), A = 0, n = 2; a
    # prediction (.5, .5) gives (2·(0 − ln .5)) / 2 = ln 2. A second EEG of one window (1, 0)
    # predicted (1, 0): 0 (up to the clip). Mean over 3 windows: 2 ln 2 / 3.
    truth = {"a": [0.5, 1.0], "b": [0.5, 0.0], "plogp": [0.0, 0.0], "windows": [2, 1]}
    pred = {"a": [0.5, 1.0], "b": [0.5, 0.0]}
    assert _compute("window-kl-divergence", truth, pred) == pytest.approx(2 * LN2 / 3)
