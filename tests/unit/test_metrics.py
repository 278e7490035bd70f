"""Every metric against values worked out by hand, its direction, and the registry's errors."""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np
import pytest

from pytest_mlebench.graders import METRICS, Columns, GraderError, UnknownMetricError, get_metric

E = math.e


def frames(truth: dict[str, list[Any]], pred: dict[str, list[Any]]) -> tuple[Columns, Columns]:
    return Columns.of(truth), Columns.of(pred)


CASES = [
    # --- accuracy: matching cells / all cells
    pytest.param("accuracy", {"t": [1, 2, 3, 4]}, {"p": [1, 2, 0, 4]}, {}, 0.75, id="accuracy"),
    pytest.param(
        "accuracy",
        {"t": ["cat", "dog", "cat"]},
        {"p": ["cat", "cat", "cat"]},
        {},
        2 / 3,
        id="accuracy-text",
    ),
    # two columns, 3 of 4 cells match
    pytest.param(
        "accuracy",
        {"a": ["x", "y"], "b": ["u", "v"]},
        {"a": ["x", "y"], "b": ["u", "w"]},
        {},
        0.75,
        id="accuracy-two-columns",
    ),
    # --- roc-auc: positives {0.35, 0.8} vs negatives {0.1, 0.4}: 3 of 4 pairs ordered right
    pytest.param(
        "roc-auc",
        {"t": [0, 0, 1, 1]},
        {"p": [0.1, 0.4, 0.35, 0.8]},
        {},
        0.75,
        id="roc-auc",
    ),
    # positive 0.5 ties negative 0.5 (counts 1/2); the other 3 pairs are right: 3.5 / 4
    pytest.param(
        "roc-auc",
        {"t": [0, 1, 0, 1]},
        {"p": [0.5, 0.5, 0.2, 0.9]},
        {},
        0.875,
        id="roc-auc-tie",
    ),
    # any real score: positives {10, 100} above negatives {-3, 2}
    pytest.param(
        "roc-auc",
        {"t": [0, 1, 0, 1]},
        {"p": [-3.0, 10.0, 2.0, 100.0]},
        {},
        1.0,
        id="roc-auc-real-scores",
    ),
    # all tied: every pair counts 1/2
    pytest.param(
        "roc-auc",
        {"t": [0, 1, 1]},
        {"p": [7.0, 7.0, 7.0]},
        {},
        0.5,
        id="roc-auc-constant",
    ),
    # --- mean-column-roc-auc: column a 0.75 (as above), column b 1.0 → 0.875
    pytest.param(
        "mean-column-roc-auc",
        {"a": [0, 0, 1, 1], "b": [1, 0, 1, 0]},
        {"a": [0.1, 0.4, 0.35, 0.8], "b": [0.9, 0.1, 0.8, 0.2]},
        {},
        0.875,
        id="mean-column-roc-auc",
    ),
    # --- log-loss: -(ln 0.8 + ln(1 - 0.4)) / 2 = (0.2231436 + 0.5108256) / 2
    pytest.param(
        "log-loss",
        {"t": [1, 0]},
        {"p": [0.8, 0.4]},
        {},
        (-math.log(0.8) - math.log(0.6)) / 2,
        id="log-loss",
    ),
    # clipping: p = 0 for a positive costs -ln(1e-15) = 34.5387764; the negative costs ~0
    pytest.param(
        "log-loss",
        {"t": [1, 0]},
        {"p": [0.0, 0.0]},
        {},
        -math.log(1e-15) / 2,
        id="log-loss-clipped",
    ),
    # --- multi-class-log-loss: -(ln 0.7 + ln 0.5) / 2 = (0.3566749 + 0.6931472) / 2
    pytest.param(
        "multi-class-log-loss",
        {"a": [1, 0], "b": [0, 1], "c": [0, 0]},
        {"a": [0.7, 0.3], "b": [0.2, 0.5], "c": [0.1, 0.2]},
        {},
        (-math.log(0.7) - math.log(0.5)) / 2,
        id="multi-class-log-loss",
    ),
    # a row summing to 0.8 is rescaled: 0.4 / 0.8 = 0.5 → ln 2
    pytest.param(
        "multi-class-log-loss",
        {"a": [1], "b": [0], "c": [0]},
        {"a": [0.4], "b": [0.2], "c": [0.2]},
        {},
        math.log(2),
        id="multi-class-log-loss-rescaled",
    ),
    # --- rmse: errors 1, 0, 2 → sqrt(5 / 3)
    pytest.param("rmse", {"t": [1, 2, 3]}, {"p": [2, 2, 5]}, {}, math.sqrt(5 / 3), id="rmse"),
    # --- mae: errors 1, 0, 2 → 1
    pytest.param("mae", {"t": [1, 2, 3]}, {"p": [2, 2, 5]}, {}, 1.0, id="mae"),
    # --- rmsle: log1p(e - 1) = 1, so log differences are 1 and 0 → sqrt(1 / 2)
    pytest.param(
        "rmsle",
        {"t": [0.0, E - 1]},
        {"p": [E - 1, E - 1]},
        {},
        math.sqrt(0.5),
        id="rmsle",
    ),
    # --- mean-column-rmsle: column a has log differences 1, 1 (RMSLE 1), column b is exact
    pytest.param(
        "mean-column-rmsle",
        {"a": [0.0, 0.0], "b": [3.0, 3.0]},
        {"a": [E - 1, E - 1], "b": [3.0, 3.0]},
        {},
        0.5,
        id="mean-column-rmsle",
    ),
    # --- rmse-log: ln e - ln 1 = 1 and ln e - ln e = 0 → sqrt(1 / 2)
    pytest.param("rmse-log", {"t": [1.0, E]}, {"p": [E, E]}, {}, math.sqrt(0.5), id="rmse-log"),
    # --- quadratic-weighted-kappa
    pytest.param(
        "quadratic-weighted-kappa",
        {"t": [0, 1, 2, 3]},
        {"p": [0, 1, 2, 3]},
        {},
        1.0,
        id="qwk-perfect",
    ),
    # observed mean (t - p)^2 = 1/4; expected var t 1/4 + var p 3/16 + (1/2 - 3/4)^2 = 1/2
    # → 1 - (1/4) / (1/2) = 0.5 (equal to unweighted kappa for two labels)
    pytest.param(
        "quadratic-weighted-kappa",
        {"t": [0, 0, 1, 1]},
        {"p": [0, 1, 1, 1]},
        {},
        0.5,
        id="qwk-two-labels",
    ),
    # observed 1/3; expected 2/3 + 8/9 + 1/9 = 5/3 → 1 - (1/3) / (5/3) = 0.8
    pytest.param(
        "quadratic-weighted-kappa",
        {"t": [0, 1, 2]},
        {"p": [0, 2, 2]},
        {},
        0.8,
        id="qwk-three",
    ),
    # complete disagreement at the ends of the scale: observed 16, expected 4 + 4 + 0 → -1
    pytest.param(
        "quadratic-weighted-kappa",
        {"t": [0, 4]},
        {"p": [4, 0]},
        {},
        -1.0,
        id="qwk-reversed",
    ),
    # distances are grade values, not positions among the grades present (grades 0, 1, 4 here):
    # observed (0 + 9 + 0)/3 = 3; expected var t 26/9 + var p 32/9 + (5/3 - 8/3)^2 = 67/9
    # → 1 - 27/67 = 40/67 (weighting by position among {0, 1, 4}, as MLE-bench did, gives 0.8)
    pytest.param(
        "quadratic-weighted-kappa",
        {"t": [0, 1, 4]},
        {"p": [0, 4, 4]},
        {},
        40 / 67,
        id="qwk-fixed-scale",
    ),
    # --- macro-f1: F1 = 2 TP / (answered + predicted): a 2/3, b 2/4, c 0 → 7/18
    pytest.param(
        "macro-f1",
        {"t": ["a", "a", "b", "c"]},
        {"p": ["a", "b", "b", "b"]},
        {},
        7 / 18,
        id="macro-f1",
    ),
    # --- map-at-k: row 1 hits at ranks 1 and 3: (1/1 + 2/3) / min(2, 10) = 5/6; row 2 misses;
    # row 3 has no relevant items and scores 0 → (5/6) / 3 = 5/18
    pytest.param(
        "map-at-k",
        {"t": ["a b", "x", ""]},
        {"p": ["a c b", "y z", "q"]},
        {},
        5 / 18,
        id="map-at-k",
    ),
    # k = 2 keeps "d a": one hit at rank 2 → (1/2) / min(3, 2) = 0.25
    pytest.param("map-at-k", {"t": ["a b c"]}, {"p": ["d a b"]}, {"k": 2}, 0.25, id="map-at-2"),
    # a repeated item counts once: 1/1 / 1
    pytest.param("map-at-k", {"t": ["a"]}, {"p": ["a a"]}, {}, 1.0, id="map-at-k-repeat"),
    # --- smape: 200·10/210, 0/0 → 0, 200·100/100 = 200 → mean
    pytest.param(
        "smape",
        {"t": [100.0, 0.0, 50.0]},
        {"p": [110.0, 0.0, -50.0]},
        {},
        (200 * 10 / 210 + 0 + 200) / 3,
        id="smape",
    ),
    # --- c-index: risk falls with time → every comparable pair concordant
    pytest.param(
        "c-index",
        {"time": [1, 2, 3, 4], "event": [1, 1, 1, 1]},
        {"r": [4, 3, 2, 1]},
        {},
        1.0,
        id="c-index-perfect",
    ),
    pytest.param(
        "c-index",
        {"time": [1, 2, 3, 4], "event": [1, 1, 1, 1]},
        {"r": [1, 2, 3, 4]},
        {},
        0.0,
        id="c-index-reversed",
    ),
    # comparable: (1,2) concordant 0.6 > 0.5, (1,3) discordant; 2 is censored → 1/2
    pytest.param(
        "c-index",
        {"time": [1, 2, 3], "event": [1, 0, 1]},
        {"r": [0.6, 0.5, 0.7]},
        {},
        0.5,
        id="c-index-censored",
    ),
    # (1,2) tied risk counts 1/2, (1,3) discordant → 0.5 / 2
    pytest.param(
        "c-index",
        {"time": [1, 2, 3], "event": [1, 0, 1]},
        {"r": [0.5, 0.5, 0.7]},
        {},
        0.25,
        id="c-index-tied-risk",
    ),
    # equal times: event vs censored is comparable (0.8 > 0.3), (1,3) concordant → 1
    pytest.param(
        "c-index",
        {"time": [2, 2, 3], "event": [1, 0, 1]},
        {"r": [0.8, 0.3, 0.1]},
        {},
        1.0,
        id="c-index-tied-time-censored",
    ),
    # equal times, two events: not comparable; (1,3) concordant, (2,3) discordant → 1/2
    pytest.param(
        "c-index",
        {"time": [2, 2, 3], "event": [1, 1, 0]},
        {"r": [0.8, 0.3, 0.5]},
        {},
        0.5,
        id="c-index-tied-time-events",
    ),
]


@pytest.mark.parametrize(("name", "truth", "pred", "params", "expected"), CASES)
def test_metric_matches_hand_computed_value(
    name: str,
    truth: dict[str, list[Any]],
    pred: dict[str, list[Any]],
    params: dict[str, Any],
    expected: float,
) -> None:
    y_true, y_pred = frames(truth, pred)
    assert get_metric(name).compute(y_true, y_pred, **params) == pytest.approx(expected, rel=1e-9)


DIRECTIONS = {
    "accuracy": False,
    "roc-auc": False,
    "mean-column-roc-auc": False,
    "log-loss": True,
    "multi-class-log-loss": True,
    "rmse": True,
    "mae": True,
    "rmsle": True,
    "mean-column-rmsle": True,
    "rmse-log": True,
    "quadratic-weighted-kappa": False,
    "macro-f1": False,
    "map-at-k": False,
    "smape": True,
    "c-index": False,
    "pearson": False,
    "masked-mae": True,
    "masked-mcrmse": True,
    "laplace-log-likelihood": False,
    "group-log-mae": True,
    "mean-angular-error": True,
    "mae-rounded": True,
    "mcc": False,
    "mean-column-spearman": False,
    "word-jaccard": False,
    "jigsaw-bias-auc": False,
    "kendall-tau": False,
    "mean-f1": False,
    "micro-f1": False,
    "span-f1": False,
    "binarised-bias-auc": False,
    "known-label-micro-f1": False,
    "span-accuracy": False,
    "present-label-kappa": False,
    "integer-macro-f1": False,
    "weighted-auc": False,
    "kl-divergence": True,
    "probabilistic-f1": False,
    "study-weighted-log-loss": True,
    "top-1-error": True,
    "window-kl-divergence": True,
    "mean-levenshtein": True,
    "sequence-levenshtein-rate": True,
    "lwlrap": False,
    "box-map": False,
    "box-map-sklearn": False,
    "box-map-coco-corners-as-sizes": False,
    "box3d-map": False,
    "box3d-map-per-sample": False,
    "centre-f1": False,
    "salt-iou-sweep": False,
    "salt-iou-sweep-histogram": False,
    "contrails-global-dice": False,
    "mean-dice": False,
    "mean-f0.5": False,
    "phone-percentile-distance": True,
    "dice-hausdorff": False,
    "dice-hausdorff-classes-merged": False,
}


def test_registry_holds_exactly_the_documented_metrics() -> None:
    assert set(METRICS) == set(DIRECTIONS)


@pytest.mark.parametrize(("name", "lower_is_better"), DIRECTIONS.items())
def test_metric_direction(name: str, lower_is_better: bool) -> None:
    metric = get_metric(name)
    assert metric.name == name
    assert metric.lower_is_better is lower_is_better
    assert metric.description


def test_unknown_metric_error_lists_known_names() -> None:
    with pytest.raises(UnknownMetricError) as caught:
        get_metric("rmse-typo")
    assert isinstance(caught.value, ValueError)
    assert isinstance(caught.value, GraderError)
    message = str(caught.value)
    assert "'rmse-typo'" in message
    assert all(name in message for name in DIRECTIONS)


@pytest.mark.parametrize(
    ("name", "truth", "pred", "match"),
    [
        ("roc-auc", {"t": [1, 1]}, {"p": [0.2, 0.3]}, "only one class"),
        ("roc-auc", {"t": [0, 2]}, {"p": [0.2, 0.3]}, "only 0 and 1"),
        ("log-loss", {"t": [0.5, 1]}, {"p": [0.2, 0.3]}, "only 0 and 1"),
        ("multi-class-log-loss", {"a": [1], "b": [1]}, {"a": [0.5], "b": [0.5]}, "one-hot"),
        ("rmsle", {"t": [-1.0]}, {"p": [1.0]}, ">= 0"),
        ("rmse-log", {"t": [0.0]}, {"p": [1.0]}, "> 0"),
        ("quadratic-weighted-kappa", {"t": [0.5, 1]}, {"p": [0, 1]}, "whole numbers"),
        ("c-index", {"time": [1, 2], "event": [0, 0]}, {"r": [1, 2]}, "no comparable"),
        ("c-index", {"time": [1, 2], "event": [2, 0]}, {"r": [1, 2]}, "only 0 and 1"),
    ],
)
def test_unusable_answers_raise_grader_error(
    name: str, truth: dict[str, list[Any]], pred: dict[str, list[Any]], match: str
) -> None:
    y_true, y_pred = frames(truth, pred)
    with pytest.raises(GraderError, match=match):
        get_metric(name).compute(y_true, y_pred)


@pytest.mark.parametrize("k", [0, -1, 2.5, True])
def test_map_at_k_rejects_a_bad_k(k: object) -> None:
    y_true, y_pred = frames({"t": ["a"]}, {"p": ["a"]})
    with pytest.raises(GraderError, match="positive integer"):
        get_metric("map-at-k").compute(y_true, y_pred, k=k)


def brute_force_c_index(time: np.ndarray, event: np.ndarray, risk: np.ndarray) -> float:
    """Every ordered pair, the definition written out (O(n²), small n only)."""
    earlier = (time[:, None] < time[None, :]) | (
        (time[:, None] == time[None, :]) & (event[None, :] == 0)
    )
    comparable = earlier & (event[:, None] == 1)
    concordant = comparable & (risk[:, None] > risk[None, :])
    tied = comparable & (risk[:, None] == risk[None, :])
    return float((concordant.sum() + 0.5 * tied.sum()) / comparable.sum())


@pytest.mark.parametrize("seed", range(6))
def test_c_index_matches_the_pairwise_definition(seed: int) -> None:
    rng = np.random.default_rng(seed)
    size = int(rng.integers(2, 300))
    # Few distinct values, so tied times and tied risks are common.
    time = rng.integers(0, 20, size).astype(float)
    event = rng.integers(0, 2, size).astype(float)
    event[0] = 1.0
    time[0] = -1.0
    risk = rng.integers(0, 8, size).astype(float)
    y_true, y_pred = frames({"time": list(time), "event": list(event)}, {"r": list(risk)})
    expected = brute_force_c_index(time, event, risk)
    assert get_metric("c-index").compute(y_true, y_pred) == pytest.approx(expected, rel=1e-12)


def test_c_index_scores_ten_thousand_rows_quickly() -> None:
    rng = np.random.default_rng(0)
    size = 10_000
    y_true = Columns.of({"time": rng.random(size), "event": rng.integers(0, 2, size)})
    y_pred = Columns.of({"r": rng.random(size)})
    start = time.perf_counter()
    score = get_metric("c-index").compute(y_true, y_pred)
    assert time.perf_counter() - start < 1.0
    assert 0.45 < score < 0.55


@pytest.mark.parametrize("seed", range(4))
def test_roc_auc_matches_the_pairwise_definition(seed: int) -> None:
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 2, 200)
    labels[:2] = [0, 1]
    scores = rng.integers(0, 10, 200).astype(float)
    positive, negative = scores[labels == 1], scores[labels == 0]
    pairs = (positive[:, None] > negative[None, :]) + 0.5 * (positive[:, None] == negative[None, :])
    y_true, y_pred = frames({"t": list(labels)}, {"p": list(scores)})
    assert get_metric("roc-auc").compute(y_true, y_pred) == pytest.approx(pairs.mean(), rel=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_quadratic_weighted_kappa_uses_the_fixed_grade_scale(seed: int) -> None:
    """Equal to scikit-learn's kappa over all grades 0-4, whichever grades the files hold."""
    from sklearn.metrics import cohen_kappa_score

    rng = np.random.default_rng(seed)
    truth = rng.choice([0, 1, 4], size=60)  # grades 2 and 3 absent
    pred = np.clip(truth + rng.integers(-1, 2, size=60), 0, 4)
    pred[pred == 3] = 2
    y_true, y_pred = frames({"t": list(truth)}, {"p": list(pred)})
    fixed = cohen_kappa_score(truth, pred, labels=list(range(5)), weights="quadratic")
    present = cohen_kappa_score(truth, pred, weights="quadratic")
    score = get_metric("quadratic-weighted-kappa").compute(y_true, y_pred)
    assert score == pytest.approx(fixed, rel=1e-12)
    assert score != pytest.approx(present, rel=1e-6)
