"""Model search on a holdout: split off a holdout, score each candidate model's predictions on it
with the competition's metric, pick the best single model or blend, then refit on all train rows.

``fit_classes`` runs that search for class probabilities; the layouts with their own candidates
(images, series, survival) and ``regression`` use the same split, scorer and blend choice.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd

from .features import Features
from .models import FitPredict, boosting, linear
from .task import Task
from .text import text_classifiers

LOG = logging.getLogger("baseline")
HOLDOUT_SHARE = 0.2
MAX_HOLDOUT_ROWS = 20_000
MAX_LINEAR_ROWS = 200_000


def holdout_split(n: int, seed: int, labels: pd.Series | None = None) -> tuple[np.ndarray, ...]:
    """(fit rows, holdout rows) of ``n`` train rows, stratified by ``labels`` when they allow."""
    from sklearn.model_selection import train_test_split

    size = min(HOLDOUT_SHARE, MAX_HOLDOUT_ROWS / n)
    stratify = labels if labels is not None and labels.value_counts().min() >= 2 else None
    return tuple(
        train_test_split(np.arange(n), test_size=size, random_state=seed, stratify=stratify)
    )


def choose_blend(
    scores: Callable[[np.ndarray], float], predictions: Sequence[np.ndarray], names: Sequence[str]
) -> np.ndarray:
    """Weights over the models' holdout predictions (single models and an even blend)."""
    options: list[np.ndarray] = [np.eye(len(predictions))[i] for i in range(len(predictions))]
    if len(predictions) > 1:
        options.append(np.full(len(predictions), 1.0 / len(predictions)))
        options += [
            np.array(
                [0.7 if j == i else 0.3 / (len(predictions) - 1) for j in range(len(predictions))]
            )
            for i in range(len(predictions))
        ]
    results = [
        (scores(sum(w * p for w, p in zip(weights, predictions, strict=True))), i)
        for i, weights in enumerate(options)
    ]
    best = max(results)[1]
    LOG.info(
        "holdout: %s -> weights %s",
        ", ".join(f"{names[i]}={results[i][0]:.5f}" for i in range(len(predictions))),
        np.round(options[best], 2).tolist(),
    )
    return options[best]


def fit_classes(task: Task, features: Features, labels: pd.Series) -> pd.DataFrame:
    """Class probabilities for the test rows (columns = class names), from a chosen blend."""
    classes = sorted(labels.unique())
    y = labels.map({c: i for i, c in enumerate(classes)}).to_numpy()
    models = _classifier_builders(task, features)
    fit_rows, hold_rows = holdout_split(len(y), task.seed, labels)
    holdout = []
    for name, build in models:
        holdout.append(clipped(build(fit_rows, hold_rows, y)))
        LOG.info("fitted %s on the fit part (%.0f s)", name, task.env.elapsed())
    score = class_scorer(task.metric, y[hold_rows], len(classes))
    weights = choose_blend(score, holdout, [n for n, _ in models])
    everything = np.arange(len(y))
    test = [
        clipped(build(everything, None, y)) if w > 0 else 0.0
        for (name, build), w in zip(models, weights, strict=True)
    ]
    blended = np.asarray(sum(w * p for w, p in zip(weights, test, strict=True)))
    if task.metric == "logloss":
        mixed = np.asarray(sum(w * p for w, p in zip(weights, holdout, strict=True)))
        power = _sharpening(score, mixed)
        blended = blended**power
    return pd.DataFrame(blended / blended.sum(axis=1, keepdims=True), columns=classes)


def clipped(probabilities: np.ndarray) -> np.ndarray:
    """Probabilities kept away from 0 (a log loss of a certain miss is infinite)."""
    return np.clip(probabilities, 1e-6, 1.0)


def class_scorer(metric: str, truth: np.ndarray, n_classes: int) -> Callable[[np.ndarray], float]:
    """Higher-is-better score of holdout class probabilities under ``metric``."""
    from sklearn.metrics import accuracy_score, cohen_kappa_score, f1_score, log_loss, roc_auc_score

    def score(proba: np.ndarray) -> float:
        proba = proba / proba.sum(axis=1, keepdims=True)
        if metric == "auc" and n_classes == 2:
            return float(roc_auc_score(truth, proba[:, 1]))
        if metric == "logloss" or metric == "auc":
            return -float(log_loss(truth, proba, labels=list(range(n_classes))))
        label = proba.argmax(axis=1)
        if metric == "f1":
            return float(f1_score(truth, label, average="macro"))
        if metric == "qwk":
            return float(cohen_kappa_score(truth, label, weights="quadratic"))
        return float(accuracy_score(truth, label))

    return score


def _sharpening(score: Callable[[np.ndarray], float], holdout: np.ndarray) -> float:
    """The power applied to blended probabilities that scores best on the holdout."""
    results = {power: score(holdout**power) for power in (0.8, 1.0, 1.2, 1.4, 1.7, 2.0)}
    best = max(results, key=lambda power: results[power])
    LOG.info("probability power %.1f (holdout %.5f)", best, results[best])
    return best


def _classifier_builders(task: Task, features: Features) -> list[tuple[str, FitPredict]]:
    """(name, fit-and-predict) pairs; each returns probabilities for the holdout or the test."""
    builders: list[tuple[str, FitPredict]] = []
    if features.text is not None:
        builders.extend(text_classifiers(task, features))
    if features.train.shape[1] > 0:
        builders.append(("gradient boosting", boosting(task, features, classify=True)))
        if len(features.train) <= MAX_LINEAR_ROWS:
            builders.append(("linear", linear(task, features, classify=True)))
    return builders
