"""The series layout: long-format series in separate CSVs (``<id>, t, value`` or ``<id>, value``)
summarised per series (moments, quantiles, spectrum, shape), then extra trees and boosting."""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pandas as pd

from .features import Features
from .models import boosting, full_proba
from .regression import fit_regression
from .search import choose_blend, class_scorer, clipped, holdout_split
from .targets import is_classification, positive_class, restore_type
from .task import PROBABILITY_METRICS, Task

LOG = logging.getLogger("baseline")
SPLIT_FILES = {"train.csv", "test.csv", "sample_submission.csv"}


def find_series_files(task: Task) -> tuple[Path, Path] | None:
    """(train series, test series) CSVs in long format keyed by the submission id column."""
    found: dict[str, Path] = {}
    for path in sorted(task.env.data.glob("*.csv")):
        if path.name in SPLIT_FILES:
            continue
        header = pd.read_csv(path, nrows=5)
        if task.id_column in header.columns and header.shape[1] in (2, 3):
            part = "test" if "test" in path.stem.lower() else "train"
            found[part] = path
    if "train" in found and "test" in found:
        return found["train"], found["test"]
    return None


def series_features(path: Path, id_column: str) -> pd.DataFrame:
    """Summary features per series: moments, quantiles, differences, spectrum, shape."""
    long = pd.read_csv(path)
    value = next(c for c in long.columns[::-1] if c != id_column)
    if long.shape[1] == 3:
        order = next(c for c in long.columns if c not in (id_column, value))
        long = long.sort_values([id_column, order], kind="stable")
    rows = {}
    for key, values in long.groupby(id_column, sort=False)[value]:
        rows[key] = _describe_series(values.to_numpy(dtype=float))
    return pd.DataFrame.from_dict(rows, orient="index")


def _describe_series(v: np.ndarray) -> dict[str, float]:
    v = v[np.isfinite(v)]
    if v.size < 4:
        v = np.pad(v, (0, 4 - v.size))
    diff = np.diff(v)
    centred = v - v.mean()
    features: dict[str, float] = {
        "length": float(v.size),
        "mean": float(v.mean()),
        "std": float(v.std()),
        "min": float(v.min()),
        "max": float(v.max()),
        "abs_mean": float(np.abs(v).mean()),
        "rms": float(np.sqrt(np.mean(v**2))),
        "diff_std": float(diff.std()),
        "diff_abs_mean": float(np.abs(diff).mean()),
        "crossings": float(np.mean(np.signbit(centred[1:]) != np.signbit(centred[:-1]))),
        "peak_to_rms": float(np.abs(v).max() / (np.sqrt(np.mean(v**2)) + 1e-12)),
    }
    for q in (1, 5, 10, 25, 50, 75, 90, 95, 99):
        features[f"q{q}"] = float(np.percentile(v, q))
    spectrum = np.abs(np.fft.rfft(centred))
    total = spectrum.sum() + 1e-12
    bins = np.array_split(spectrum[1:], 16)
    for i, part in enumerate(bins):
        features[f"fft{i}"] = float(part.sum() / total) if part.size else 0.0
    features["dominant"] = float(np.argmax(spectrum[1:]) + 1) / v.size
    for i, part in enumerate(np.array_split(v, 8)):
        features[f"seg_mean{i}"] = float(part.mean())
        features[f"seg_std{i}"] = float(part.std())
    for lag in (1, 2, 5, 10, 20):
        if lag < v.size:
            a, b = centred[:-lag], centred[lag:]
            features[f"acf{lag}"] = float((a * b).sum() / ((centred**2).sum() + 1e-12))
    return features


def solve_series(task: Task, train_path: Path, test_path: Path) -> pd.DataFrame:
    train_features = series_features(train_path, task.id_column)
    test_features = series_features(test_path, task.id_column)
    train_ids, test_ids = task.train[task.id_column], task.sample[task.id_column]
    x_train = train_features.reindex(train_ids.to_numpy()).reset_index(drop=True)
    x_test = test_features.reindex(test_ids.to_numpy()).reset_index(drop=True)
    LOG.info("series features: %s (%.0f s)", x_train.shape, task.env.elapsed())
    features = Features(x_train, x_test.reindex(columns=x_train.columns), [])
    values = {}
    for target in task.targets:
        if target not in task.train.columns:
            raise RuntimeError(f"target {target!r} not in train.csv")
        values[target] = fit_series_target(task, features, task.train[target])
    return task.submission(values)


def fit_series_target(task: Task, features: Features, target: pd.Series) -> np.ndarray:
    """Extra trees and boosting on the summary features, blended on a holdout."""
    from sklearn.ensemble import ExtraTreesClassifier

    if not is_classification(target, task.metric):
        return fit_regression(task, features, target.astype(float))
    labels = target.astype(str)
    classes = sorted(labels.unique())
    y = labels.map({c: i for i, c in enumerate(classes)}).to_numpy()
    x_train = features.train.fillna(0.0).to_numpy()
    x_test = features.test.fillna(0.0).to_numpy()

    def trees(fit: np.ndarray, hold: np.ndarray | None, y_: np.ndarray) -> np.ndarray:
        model = ExtraTreesClassifier(
            n_estimators=500,
            max_features=0.3,
            random_state=task.seed,
            class_weight="balanced",
            n_jobs=2,
        )
        model.fit(x_train[fit], y_[fit])
        return full_proba(model, x_test if hold is None else x_train[hold], len(classes))

    builders = [("extra trees", trees), ("gradient boosting", boosting(task, features, True))]
    fit_rows, hold_rows = holdout_split(len(y), task.seed, labels)
    holdout = [clipped(build(fit_rows, hold_rows, y)) for _, build in builders]
    weights = choose_blend(
        class_scorer(task.metric, y[hold_rows], len(classes)), holdout, [n for n, _ in builders]
    )
    everything = np.arange(len(y))
    test = [
        build(everything, None, y) if w > 0 else 0.0
        for (_, build), w in zip(builders, weights, strict=True)
    ]
    proba = pd.DataFrame(
        np.asarray(sum(w * p for w, p in zip(weights, test, strict=True))), columns=classes
    )
    if task.metric in PROBABILITY_METRICS:
        return proba[positive_class(labels)].to_numpy()
    return restore_type(proba.idxmax(axis=1).to_numpy(), target)
