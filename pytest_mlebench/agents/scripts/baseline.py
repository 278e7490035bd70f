#!/usr/bin/env python3
"""The baseline agent: a generic scikit-learn solver for the data layouts of the embedded set.

It is copied into the sandbox and run with ``python3``. It reads only ``$DATA_DIR`` (the public
files and ``description.md``), works out the metric from the description and the data layout from
the files, trains a sensible model, writes ``$SUBMISSION_DIR/submission.csv`` in the columns of
``sample_submission.csv`` and asks ``$VALIDATE_SUBMISSION`` about it. Layouts it knows:

* tables (classification, regression, several targets, dates, categories), with a text column
  when there is one (tf-idf + linear model);
* a folder of images per split (pixels as features);
* long-format series in a separate CSV (``<id>, t, value``: per-series summary features);
* ratings (user, item) with a space-separated list to predict (popularity + item co-occurrence);
* survival data (a time and an event column in train only: a boosted exponential hazard model).

It needs only the standard library, numpy, pandas, scikit-learn and Pillow, uses
``$MLEBENCH_SEED`` for every random choice, logs what it does to ``$LOGS_DIR/baseline.log`` and
keeps to a share of ``$TIME_LIMIT_SECS``. When anything fails it falls back to the sample
submission, so it always leaves a valid file behind.
"""

from __future__ import annotations

import logging
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# OpenMP threads sleep instead of spinning while they wait: on a machine whose cores are shared
# (the local sandbox), spinning threads can slow gradient boosting down many times over.
os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")

import numpy as np
import pandas as pd

LOG = logging.getLogger("baseline")
TIME_SHARE = 0.5  # of TIME_LIMIT_SECS; the rest is slack for reading, writing and validating
HOLDOUT_SHARE = 0.2
MAX_CATEGORIES = 250  # gradient boosting's native categories must fit in its 255 bins
MAX_HOLDOUT_ROWS = 20_000
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff")
POSITIVE_WORDS = ("1", "yes", "true", "y", "positive", "pos")

# Order matters: specific names are matched before the generic words they contain.
METRIC_PATTERNS: tuple[tuple[str, str], ...] = (
    ("map", r"map@\s*\d+|mean average precision"),
    ("cindex", r"concordance|c-index|harrell"),
    ("qwk", r"kappa"),
    ("smape", r"smape|symmetric mean absolute percentage"),
    ("rmsle", r"rmsle|root mean squared logarithmic|mean squared log(arithmic)? error"),
    ("rmse_log", r"between the logarithms|rmse of log|logarithm of the (sale )?price"),
    ("logloss", r"log[- ]?loss|logarithmic loss|cross[- ]entropy"),
    ("auc", r"roc|auc|area under"),
    ("f1", r"\bf1\b|f-score|f1-score"),
    ("mae", r"mean absolute error|\bmae\b"),
    ("rmse", r"root mean squared? error|\brmse\b"),
    ("accuracy", r"accuracy"),
)
PROBABILITY_METRICS = {"auc", "logloss"}
LABEL_METRICS = {"accuracy", "f1", "qwk"}


# --------------------------------------------------------------------------- environment


@dataclass(frozen=True)
class Env:
    """The sandbox contract, read from the environment."""

    data: Path
    submission: Path
    logs: Path
    code: Path | None
    time_limit: float
    seed: int
    validator: str | None
    started: float = field(default_factory=time.monotonic)

    @classmethod
    def from_environ(cls) -> Env:
        code = os.environ.get("CODE_DIR")
        return cls(
            data=Path(os.environ.get("DATA_DIR", "/home/data")),
            submission=Path(os.environ.get("SUBMISSION_DIR", "/home/submission")),
            logs=Path(os.environ.get("LOGS_DIR", "/home/logs")),
            code=Path(code) if code else None,
            time_limit=float(os.environ.get("TIME_LIMIT_SECS") or 3600),
            seed=int(os.environ.get("MLEBENCH_SEED") or 0),
            validator=os.environ.get("VALIDATE_SUBMISSION") or None,
        )

    def seconds_left(self) -> float:
        """Seconds of this agent's own budget (a share of the time limit) still unused."""
        return TIME_SHARE * self.time_limit - (time.monotonic() - self.started)


@dataclass
class Task:
    """What the agent found in the data folder."""

    train: pd.DataFrame
    test: pd.DataFrame
    sample: pd.DataFrame
    metric: str
    id_column: str
    targets: list[str]
    seed: int
    env: Env

    def submission(self, values: dict[str, Any]) -> pd.DataFrame:
        frame = self.sample[[self.id_column]].copy()
        for column in self.targets:
            frame[column] = values[column]
        return frame


def main() -> int:
    env = Env.from_environ()
    _setup_logging(env.logs)
    output = env.submission / "submission.csv"
    env.submission.mkdir(parents=True, exist_ok=True)
    try:
        task = load_task(env)
        submission = solve(task)
        submission.to_csv(output, index=False)
        LOG.info("wrote %s (%d rows) after %.0f s", output, len(submission), _elapsed(env))
        if not validate(env, output):
            raise RuntimeError("the validator rejected the submission")
    except Unsupported as exc:
        LOG.warning("not supported: %s; writing the sample submission instead", exc)
        shutil.copyfile(env.data / "sample_submission.csv", output)
        validate(env, output)
    except Exception:
        LOG.exception("falling back to the sample submission")
        shutil.copyfile(env.data / "sample_submission.csv", output)
        validate(env, output)
    _save_code(env)
    return 0


def _setup_logging(logs: Path) -> None:
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stdout)]
    try:
        logs.mkdir(parents=True, exist_ok=True)
        handlers.append(logging.FileHandler(logs / "baseline.log"))
    except OSError:
        pass
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(message)s", handlers=handlers, force=True
    )


def _elapsed(env: Env) -> float:
    return time.monotonic() - env.started


def _save_code(env: Env) -> None:
    if env.code is None:
        return
    try:
        env.code.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(__file__, env.code / "baseline.py")
    except OSError:
        pass


def validate(env: Env, path: Path) -> bool:
    """Ask the sandbox's validator; True when it says valid (or when there is none)."""
    if not env.validator:
        return True
    for command in ([env.validator, str(path)], ["sh", env.validator, str(path)]):
        try:
            result = subprocess.run(command, capture_output=True, text=True, timeout=300)
        except OSError:
            continue
        LOG.info("validator: %s", (result.stdout or result.stderr).strip()[:500])
        return result.returncode == 0
    LOG.warning("could not run the validator %s", env.validator)
    return True


# --------------------------------------------------------------------------- task detection


class Unsupported(Exception):
    """A data layout this agent has no solver for (said plainly, not as a crash)."""


def load_task(env: Env) -> Task:
    sample = pd.read_csv(env.data / "sample_submission.csv")
    description = _read_text(env.data / "description.md")
    metric = detect_metric(description)
    if not (env.data / "train.csv").is_file():
        found = ", ".join(sorted(p.name for p in env.data.iterdir())[:8])
        raise Unsupported(f"no train.csv among the public files ({found})")
    train = pd.read_csv(env.data / "train.csv")
    test_path = env.data / "test.csv"
    test = pd.read_csv(test_path) if test_path.is_file() else sample[[sample.columns[0]]]
    task = Task(
        train=train,
        test=test,
        sample=sample,
        metric=metric,
        id_column=str(sample.columns[0]),
        targets=[str(c) for c in sample.columns[1:]],
        seed=env.seed,
        env=env,
    )
    LOG.info(
        "metric %s; train %s, test %s; id %r, targets %s",
        metric,
        train.shape,
        test.shape,
        task.id_column,
        task.targets[:5],
    )
    return task


def _read_text(path: Path) -> str:
    try:
        return path.read_text("utf-8", errors="replace")
    except OSError:
        return ""


def detect_metric(description: str) -> str:
    """The metric named in the description's evaluation section (or the whole text)."""
    text = description.lower()
    match = re.search(r"#+\s*evaluation(.*?)(\n#+\s|\Z)", text, re.DOTALL)
    section = match.group(1) if match else text
    for name, pattern in METRIC_PATTERNS:
        if re.search(pattern, section):
            return name
    return "accuracy"


def solve(task: Task) -> pd.DataFrame:
    """Pick the solver for the layout found and return the submission frame."""
    if _is_ranking(task):
        LOG.info("layout: recommendation (ranked lists)")
        return solve_ranking(task)
    image_dir = task.env.data / "train"
    if image_dir.is_dir() and _has_images(image_dir):
        LOG.info("layout: image folders")
        return solve_images(task)
    series = _find_series_files(task)
    if series is not None:
        LOG.info("layout: long-format series %s", [p.name for p in series])
        return solve_series(task, *series)
    survival = _survival_columns(task)
    if survival is not None:
        LOG.info("layout: survival (time %r, event %r)", *survival)
        return solve_survival(task, *survival)
    return solve_table(task)


# --------------------------------------------------------------------------- tables


@dataclass
class Features:
    """Model-ready features of train and test."""

    train: pd.DataFrame
    test: pd.DataFrame
    categorical: list[str]
    text: str | None = None


def table_features(train: pd.DataFrame, test: pd.DataFrame, drop: Sequence[str]) -> Features:
    """Numeric, date-derived and category-coded columns; the longest free-text column apart."""
    columns = [c for c in test.columns if c in train.columns and c not in drop]
    both = pd.concat([train[columns], test[columns]], ignore_index=True)
    out = pd.DataFrame(index=both.index)
    categorical: list[str] = []
    text = _text_column(both)
    for column in columns:
        values = both[column]
        if column == text:
            continue
        if pd.api.types.is_bool_dtype(values) or pd.api.types.is_numeric_dtype(values):
            out[column] = values.astype(float)
        elif _looks_like_dates(values):
            out = out.join(_date_features(column, pd.to_datetime(values, errors="coerce")))
        elif values.nunique() <= min(MAX_CATEGORIES, max(50, int(0.05 * len(values)))):
            out[column] = values.astype("category").cat.codes.replace(-1, np.nan).astype(float)
            categorical.append(column)
    n = len(train)
    return Features(
        out.iloc[:n].reset_index(drop=True), out.iloc[n:].reset_index(drop=True), categorical, text
    )


def _text_column(frame: pd.DataFrame) -> str | None:
    best, best_length = None, 40.0
    for column in frame.columns:
        if frame[column].dtype == object or pd.api.types.is_string_dtype(frame[column]):
            values = frame[column].dropna().astype(str)
            length = float(values.str.len().mean()) if len(values) else 0.0
            if length > best_length and values.str.contains(" ").mean() > 0.5:
                best, best_length = column, length
    return best


def _looks_like_dates(values: pd.Series) -> bool:
    if not (values.dtype == object or pd.api.types.is_string_dtype(values)):
        return False
    head = values.dropna().astype(str).head(200)
    if head.empty or not head.str.match(r"^\d{4}-\d{2}-\d{2}").all():
        return False
    return bool(pd.to_datetime(head, errors="coerce").notna().all())


def _date_features(column: str, stamps: pd.Series) -> pd.DataFrame:
    """Calendar features, a trend and US public holidays (demand data depends on them)."""
    from pandas.tseries.holiday import USFederalHolidayCalendar

    days = stamps.dt.normalize()
    holidays = USFederalHolidayCalendar().holidays(days.min(), days.max())
    features = {
        "year": stamps.dt.year,
        "month": stamps.dt.month,
        "day": stamps.dt.day,
        "dayofweek": stamps.dt.dayofweek,
        "dayofyear": stamps.dt.dayofyear,
        "weekofyear": stamps.dt.isocalendar().week.astype(float),
        "trend": (stamps - stamps.min()).dt.total_seconds() / 86400.0,
        "holiday": days.isin(holidays).astype(float),
        "near_holiday": _near(days, holidays),
    }
    if (stamps.dt.hour != 0).any():
        features["hour"] = stamps.dt.hour
    return pd.DataFrame({f"{column}_{k}": np.asarray(v, dtype=float) for k, v in features.items()})


def _near(days: pd.Series, holidays: pd.DatetimeIndex) -> np.ndarray:
    near = pd.DatetimeIndex(
        sorted({h + pd.Timedelta(days=d) for h in holidays for d in (-1, 1, 2, -2)})
    )
    return days.isin(near).astype(float).to_numpy()


def solve_table(task: Task) -> pd.DataFrame:
    """One model per target column, or one multi-class model whose classes are the columns."""
    drop = [task.id_column, *task.targets]
    label_column = _class_label_column(task)
    if label_column is not None:
        LOG.info("layout: table, class probabilities of %r as columns", label_column)
        features = table_features(task.train, task.test, [*drop, label_column])
        probabilities = fit_classes(task, features, task.train[label_column].astype(str))
        return task.submission({c: probabilities[c] for c in task.targets})
    missing = [t for t in task.targets if t not in task.train.columns]
    if missing:
        raise Unsupported(f"target columns {missing} are not in train.csv")
    LOG.info("layout: table with %d target column(s)", len(task.targets))
    features = table_features(task.train, task.test, drop)
    values = {t: fit_target(task, features, task.train[t]) for t in task.targets}
    return task.submission(values)


def _class_label_column(task: Task) -> str | None:
    """A train column whose values are the submission's target columns (one-hot classes)."""
    if len(task.targets) < 2 or all(t in task.train.columns for t in task.targets):
        return None
    wanted = set(task.targets)
    for column in task.train.columns:
        values = set(task.train[column].dropna().astype(str).unique())
        if values and values <= wanted:
            return str(column)
    return None


def is_classification(target: pd.Series, metric: str) -> bool:
    if metric in PROBABILITY_METRICS | LABEL_METRICS:
        return True
    if metric in {"rmse", "rmsle", "rmse_log", "mae", "smape"}:
        return False
    return not pd.api.types.is_float_dtype(target) and target.nunique() <= 20


def fit_target(task: Task, features: Features, target: pd.Series) -> np.ndarray:
    """Predictions for one target column, in the form its metric needs."""
    rows = target.notna().to_numpy()
    if is_classification(target, task.metric):
        labels = target[rows].astype(str)
        probabilities = fit_classes(task, _subset(features, rows), labels)
        if task.metric in PROBABILITY_METRICS:
            return probabilities[_positive_class(labels)].to_numpy()
        predicted = probabilities.idxmax(axis=1).to_numpy()
        return _restore_type(predicted, target)
    return fit_regression(task, _subset(features, rows), target[rows].astype(float))


def _subset(features: Features, rows: np.ndarray) -> Features:
    if rows.all():
        return features
    train = features.train[rows].reset_index(drop=True)
    return Features(train, features.test, features.categorical, features.text)


def _positive_class(labels: pd.Series) -> str:
    classes = sorted(labels.unique())
    for word in POSITIVE_WORDS:
        for value in classes:
            if value.strip().lower() == word:
                return value
    return str(labels.value_counts().idxmin())


def _restore_type(values: np.ndarray, like: pd.Series) -> np.ndarray:
    if pd.api.types.is_numeric_dtype(like):
        return pd.to_numeric(pd.Series(values)).to_numpy()
    return values


# --------------------------------------------------------------------------- model selection


def holdout_split(n: int, seed: int, labels: pd.Series | None = None) -> tuple[np.ndarray, ...]:
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
    models = _classifier_builders(task, features, len(classes))
    fit_rows, hold_rows = holdout_split(len(y), task.seed, labels)
    holdout = []
    for name, build in models:
        holdout.append(_proba(build(fit_rows, hold_rows, y), len(classes)))
        LOG.info("fitted %s on the fit part (%.0f s)", name, _elapsed(task.env))
    score = _class_scorer(task.metric, y[hold_rows], len(classes))
    weights = choose_blend(score, holdout, [n for n, _ in models])
    everything = np.arange(len(y))
    test = [
        _proba(build(everything, None, y), len(classes)) if w > 0 else 0.0
        for (name, build), w in zip(models, weights, strict=True)
    ]
    blended = np.asarray(sum(w * p for w, p in zip(weights, test, strict=True)))
    if task.metric == "logloss":
        mixed = np.asarray(sum(w * p for w, p in zip(weights, holdout, strict=True)))
        power = _sharpening(score, mixed)
        blended = blended**power
    return pd.DataFrame(blended / blended.sum(axis=1, keepdims=True), columns=classes)


def _sharpening(score: Callable[[np.ndarray], float], holdout: np.ndarray) -> float:
    """The power applied to blended probabilities that scores best on the holdout."""
    results = {power: score(holdout**power) for power in (0.8, 1.0, 1.2, 1.4, 1.7, 2.0)}
    best = max(results, key=lambda power: results[power])
    LOG.info("probability power %.1f (holdout %.5f)", best, results[best])
    return best


def _proba(result: tuple[np.ndarray, np.ndarray], n_classes: int) -> np.ndarray:
    return np.clip(result, 1e-6, 1.0)


def _class_scorer(metric: str, truth: np.ndarray, n_classes: int) -> Callable[[np.ndarray], float]:
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


def _classifier_builders(task: Task, features: Features, n_classes: int) -> list[tuple[str, Any]]:
    """(name, fit-and-predict) pairs; each returns probabilities for the holdout or the test."""
    builders: list[tuple[str, Any]] = []
    if features.text is not None:
        builders.extend(_text_classifiers(task, features))
    if features.train.shape[1] > 0:
        builders.append(("gradient boosting", _boosting(task, features, classify=True)))
        if len(features.train) <= 200_000:
            builders.append(("linear", _linear(task, features, classify=True)))
    return builders


def _rows(frame: pd.DataFrame, rows: np.ndarray) -> pd.DataFrame:
    return frame.iloc[rows].reset_index(drop=True)


def _boosting(task: Task, features: Features, classify: bool, loss: str | None = None) -> Any:
    from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor

    mask = [c in features.categorical for c in features.train.columns]

    def run(fit: np.ndarray, hold: np.ndarray | None, y: np.ndarray) -> np.ndarray:
        params: dict[str, Any] = dict(
            max_iter=600,
            learning_rate=0.06,
            max_leaf_nodes=31,
            min_samples_leaf=20,
            l2_regularization=1.0,
            early_stopping=True,
            validation_fraction=0.15,
            n_iter_no_change=30,
            categorical_features=mask if any(mask) else None,
            random_state=task.seed,
        )
        x_fit = _rows(features.train, fit)
        x_out = features.test if hold is None else _rows(features.train, hold)
        if classify:
            model = HistGradientBoostingClassifier(**params)
            model.fit(x_fit, y[fit])
            return _full_proba(model, x_out, int(y.max()) + 1)
        model = HistGradientBoostingRegressor(loss=loss or "squared_error", **params)
        model.fit(x_fit, y[fit])
        return np.asarray(model.predict(x_out))

    return run


def _softmax_scores(model: Any, x: Any, n_classes: int, sharpness: float = 2.0) -> np.ndarray:
    """Class scores of a margin classifier (an SVM) turned into probabilities by a softmax."""
    decision = np.asarray(model.decision_function(x), dtype=float)
    if decision.ndim == 1:
        decision = np.column_stack([-decision, decision])
    weights = np.exp(sharpness * (decision - decision.max(axis=1, keepdims=True)))
    proba = np.zeros((decision.shape[0], n_classes))
    proba[:, model.classes_.astype(int)] = weights / weights.sum(axis=1, keepdims=True)
    return proba


def _full_proba(model: Any, x: Any, n_classes: int) -> np.ndarray:
    """Probabilities for every class, also those missing from the part the model saw."""
    proba = np.zeros((x.shape[0], n_classes))
    proba[:, model.classes_.astype(int)] = model.predict_proba(x)
    return proba


def _linear_matrix(features: Features) -> tuple[Any, Any]:
    from sklearn.preprocessing import OneHotEncoder, StandardScaler

    numeric = [c for c in features.train.columns if c not in features.categorical]
    parts_train, parts_test = [], []
    if numeric:
        median = features.train[numeric].median()
        train_num = features.train[numeric].fillna(median).fillna(0.0)
        test_num = features.test[numeric].fillna(median).fillna(0.0)
        skewed = [c for c in numeric if train_num[c].min() >= 0 and train_num[c].skew() > 2]
        train_num[skewed], test_num[skewed] = (
            np.log1p(train_num[skewed]),
            np.log1p(test_num[skewed]),
        )
        scaler = StandardScaler().fit(train_num)
        parts_train.append(np.clip(scaler.transform(train_num), -8, 8))
        parts_test.append(np.clip(scaler.transform(test_num), -8, 8))
    if features.categorical:
        encoder = OneHotEncoder(handle_unknown="ignore", sparse_output=False, min_frequency=3)
        cats = features.train[features.categorical].fillna(-1)
        encoder.fit(cats)
        parts_train.append(encoder.transform(cats))
        parts_test.append(encoder.transform(features.test[features.categorical].fillna(-1)))
    return np.hstack(parts_train), np.hstack(parts_test)


def _linear(task: Task, features: Features, classify: bool) -> Any:
    from sklearn.linear_model import LogisticRegression, RidgeCV

    x_train, x_test = _linear_matrix(features)

    def run(fit: np.ndarray, hold: np.ndarray | None, y: np.ndarray) -> np.ndarray:
        x_out = x_test if hold is None else x_train[hold]
        if classify:
            model = LogisticRegression(C=0.5, max_iter=2000)
            model.fit(x_train[fit], y[fit])
            return _full_proba(model, x_out, int(y.max()) + 1)
        model = RidgeCV(alphas=np.logspace(-2, 3, 12))
        model.fit(x_train[fit], y[fit])
        return np.asarray(model.predict(x_out))

    return run


def _text_matrices(task: Task, text: str) -> tuple[Any, Any, Any, Any]:
    """Word 1-2 gram and character tf-idf matrices of train and test."""
    from scipy.sparse import hstack
    from sklearn.feature_extraction.text import TfidfVectorizer

    train_text = task.train[text].fillna("").astype(str)
    test_text = task.test[text].fillna("").astype(str)
    words = TfidfVectorizer(
        ngram_range=(1, 2), min_df=2, max_df=0.9, sublinear_tf=True, max_features=300_000
    )
    chars = TfidfVectorizer(
        analyzer="char_wb", ngram_range=(2, 5), min_df=3, sublinear_tf=True, max_features=200_000
    )
    words_train, words_test = words.fit_transform(train_text), words.transform(test_text)
    both_train = hstack([words_train, chars.fit_transform(train_text)]).tocsr()
    both_test = hstack([words_test, chars.transform(test_text)]).tocsr()
    LOG.info("tf-idf: %d features (%.0f s)", both_train.shape[1], _elapsed(task.env))
    return words_train.tocsr(), words_test.tocsr(), both_train, both_test


def _text_classifiers(task: Task, features: Features) -> list[tuple[str, Any]]:
    """A calibrated linear SVM on words and characters, and naive Bayes on words."""
    from sklearn.calibration import CalibratedClassifierCV
    from sklearn.naive_bayes import MultinomialNB
    from sklearn.svm import LinearSVC

    assert features.text is not None
    words_train, words_test, both_train, both_test = _text_matrices(task, features.text)

    def svm(fit: np.ndarray, hold: np.ndarray | None, y: np.ndarray) -> np.ndarray:
        model = CalibratedClassifierCV(LinearSVC(C=0.5), cv=3, method="sigmoid")
        model.fit(both_train[fit], y[fit])
        return _full_proba(model, both_test if hold is None else both_train[hold], int(y.max()) + 1)

    def bayes(fit: np.ndarray, hold: np.ndarray | None, y: np.ndarray) -> np.ndarray:
        model = MultinomialNB(alpha=0.02).fit(words_train[fit], y[fit])
        return _full_proba(
            model, words_test if hold is None else words_train[hold], int(y.max()) + 1
        )

    return [("tfidf+svm", svm), ("tfidf+naive bayes", bayes)]


# --------------------------------------------------------------------------- regression


TARGET_TRANSFORMS: dict[
    str, tuple[Callable[[np.ndarray], np.ndarray], Callable[[np.ndarray], np.ndarray]]
] = {
    "log1p": (np.log1p, np.expm1),
    "log": (np.log, np.exp),
    "none": (lambda v: v, lambda v: v),
}


def fit_regression(task: Task, features: Features, target: pd.Series) -> np.ndarray:
    """Predictions for a numeric target, trained on a scale that suits the metric."""
    y_raw = target.to_numpy(dtype=float)
    transform = _regression_transform(task.metric, y_raw)
    forward, backward = TARGET_TRANSFORMS[transform]
    y = forward(y_raw)
    LOG.info("regression on the %s scale", transform)
    builders = [("gradient boosting", _boosting(task, features, classify=False))]
    if features.text is not None:
        builders.append(("tfidf+ridge", _text_regressor(task, features)))
    if features.train.shape[1] > 0:
        builders.append(("linear", _linear(task, features, classify=False)))
    fit_rows, hold_rows = holdout_split(len(y), task.seed)
    holdout = [build(fit_rows, hold_rows, y) for _, build in builders]
    truth = y_raw[hold_rows]
    weights = choose_blend(
        lambda p: -_regression_error(task.metric, truth, _clip(backward(p), task.metric)),
        holdout,
        [n for n, _ in builders],
    )
    everything = np.arange(len(y))
    blended = sum(
        w * build(everything, None, y)
        for (_, build), w in zip(builders, weights, strict=True)
        if w > 0
    )
    return _clip(backward(np.asarray(blended)), task.metric)


def _regression_transform(metric: str, y: np.ndarray) -> str:
    if metric in {"rmsle", "smape", "mae"} and (y >= 0).all():
        return "log1p"
    if metric == "rmse_log" and (y > 0).all():
        return "log"
    return "none"


def _regression_error(metric: str, truth: np.ndarray, pred: np.ndarray) -> float:
    if metric == "rmsle":
        return float(np.sqrt(np.mean((np.log1p(pred) - np.log1p(truth)) ** 2)))
    if metric == "rmse_log":
        return float(np.sqrt(np.mean((np.log(pred) - np.log(truth)) ** 2)))
    if metric == "smape":
        denominator = np.abs(truth) + np.abs(pred)
        safe = np.where(denominator == 0, 1.0, denominator)
        return float(np.mean(200 * np.abs(pred - truth) / safe))
    if metric == "mae":
        return float(np.mean(np.abs(pred - truth)))
    return float(np.sqrt(np.mean((pred - truth) ** 2)))


def _clip(values: np.ndarray, metric: str) -> np.ndarray:
    values = np.nan_to_num(np.asarray(values, dtype=float), nan=0.0, posinf=1e12, neginf=-1e12)
    if metric in {"rmsle", "smape"}:
        return np.clip(values, 0.0, None)
    if metric == "rmse_log":
        return np.clip(values, 1e-6, None)
    return values


def _text_regressor(task: Task, features: Features) -> Any:
    from sklearn.feature_extraction.text import TfidfVectorizer
    from sklearn.linear_model import Ridge

    assert features.text is not None
    vectorizer = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True)
    x_train = vectorizer.fit_transform(task.train[features.text].fillna("").astype(str))
    x_test = vectorizer.transform(task.test[features.text].fillna("").astype(str))

    def run(fit: np.ndarray, hold: np.ndarray | None, y: np.ndarray) -> np.ndarray:
        model = Ridge(alpha=1.0).fit(x_train[fit], y[fit])
        return np.asarray(model.predict(x_test if hold is None else x_train[hold]))

    return run


# --------------------------------------------------------------------------- survival


def _survival_columns(task: Task) -> tuple[str, str] | None:
    """(time, event) when train has exactly two extra columns, one of them 0/1."""
    extra = [c for c in task.train.columns if c not in task.test.columns and c not in task.targets]
    if len(task.targets) != 1 or task.targets[0] in task.train.columns or len(extra) != 2:
        return None
    binary = [c for c in extra if set(task.train[c].dropna().unique()) <= {0, 1}]
    if len(binary) != 1:
        return None
    event = binary[0]
    duration = next(c for c in extra if c != event)
    if not pd.api.types.is_numeric_dtype(task.train[duration]):
        return None
    return duration, event


def solve_survival(task: Task, duration: str, event: str) -> pd.DataFrame:
    """Exponential hazard rates: Poisson boosting on event / time weighted by time."""
    from sklearn.ensemble import HistGradientBoostingRegressor
    from sklearn.linear_model import PoissonRegressor

    features = table_features(task.train, task.test, [task.id_column, duration, event])
    times = np.clip(task.train[duration].to_numpy(dtype=float), 1e-3, None)
    times = np.maximum(times, np.quantile(times, 0.01))
    events = task.train[event].to_numpy(dtype=float)
    rate = events / times
    mask = [c in features.categorical for c in features.train.columns]
    x_lin_train, x_lin_test = _linear_matrix(features)

    def boosted(fit: np.ndarray, x_out: pd.DataFrame) -> np.ndarray:
        model = HistGradientBoostingRegressor(
            loss="poisson",
            max_iter=300,
            learning_rate=0.04,
            max_leaf_nodes=15,
            min_samples_leaf=40,
            categorical_features=mask if any(mask) else None,
            early_stopping=True,
            random_state=task.seed,
        )
        model.fit(_rows(features.train, fit), rate[fit], sample_weight=times[fit])
        return np.log(np.asarray(model.predict(x_out)))

    def linear(fit: np.ndarray, x_out: np.ndarray) -> np.ndarray:
        model = PoissonRegressor(alpha=1e-4, max_iter=1000)
        scale = times[fit].mean()
        model.fit(x_lin_train[fit], rate[fit] * scale, sample_weight=times[fit] / scale)
        return np.log(np.asarray(model.predict(x_out)))

    fit_rows, hold_rows = holdout_split(len(rate), task.seed, task.train[event].astype(str))
    holdout = [
        _ranks(boosted(fit_rows, _rows(features.train, hold_rows))),
        _ranks(linear(fit_rows, x_lin_train[hold_rows])),
    ]
    truth_time, truth_event = times[hold_rows], events[hold_rows]
    weights = choose_blend(
        lambda risk: concordance(truth_time, truth_event, risk), holdout, ["boosting", "poisson"]
    )
    everything = np.arange(len(rate))
    test = [_ranks(boosted(everything, features.test)), _ranks(linear(everything, x_lin_test))]
    return task.submission(
        {task.targets[0]: sum(w * p for w, p in zip(weights, test, strict=True))}
    )


def _ranks(values: np.ndarray) -> np.ndarray:
    return pd.Series(values).rank().to_numpy() / len(values)


def concordance(time_: np.ndarray, event: np.ndarray, risk: np.ndarray) -> float:
    """Harrell's C on at most 3,000 rows (quadratic, vectorised)."""
    if len(time_) > 3000:
        keep = np.random.default_rng(0).choice(len(time_), 3000, replace=False)
        time_, event, risk = time_[keep], event[keep], risk[keep]
    earlier = (time_[:, None] < time_[None, :]) & (event[:, None] == 1)
    concordant = (risk[:, None] > risk[None, :]) & earlier
    tied = (risk[:, None] == risk[None, :]) & earlier
    return float((concordant.sum() + 0.5 * tied.sum()) / max(1, earlier.sum()))


# --------------------------------------------------------------------------- images


def _has_images(folder: Path) -> bool:
    return any(p.suffix.lower() in IMAGE_SUFFIXES for p in list(folder.iterdir())[:50])


def _image_index(folder: Path) -> dict[str, Path]:
    return {p.stem: p for p in folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES}


def load_pixels(paths: Sequence[Path], side: int, mode: str) -> np.ndarray:
    from PIL import Image

    rows = []
    for path in paths:
        with Image.open(path) as image:
            image = image.convert(mode)
            if image.size != (side, side):
                image = image.resize((side, side))
            rows.append(np.asarray(image, dtype=np.float32).ravel() / 255.0)
    return np.stack(rows)


def _image_mode_and_side(path: Path) -> tuple[str, int]:
    from PIL import Image

    with Image.open(path) as image:
        mode = "L" if image.mode in ("L", "1", "I", "I;16") else "RGB"
        return mode, min(max(image.size), 32 if mode == "L" else 24)


def solve_images(task: Task) -> pd.DataFrame:
    """Pixels of the (small, resized) images, PCA, then boosting and an RBF SVM on a subsample."""
    train_index = _image_index(task.env.data / "train")
    test_index = _image_index(task.env.data / "test")
    key = task.train[task.id_column].astype(str)
    label_column = next(c for c in task.train.columns if c != task.id_column)
    mode, side = _image_mode_and_side(next(iter(train_index.values())))
    x_train = load_pixels([train_index[k] for k in key], side, mode)
    x_test = load_pixels([test_index[str(k)] for k in task.sample[task.id_column]], side, mode)
    LOG.info(
        "read %d + %d images of %dx%d %s (%.0f s)",
        len(x_train),
        len(x_test),
        side,
        side,
        mode,
        _elapsed(task.env),
    )
    labels = task.train[label_column].astype(str)
    features = _image_features(x_train, x_test, side, task.seed)
    frame = Features(pd.DataFrame(features[0]), pd.DataFrame(features[1]), [])
    probabilities = fit_images(task, frame, labels)
    if task.metric in PROBABILITY_METRICS and len(task.targets) == 1:
        values = probabilities[_positive_class(labels)].to_numpy()
    elif len(task.targets) > 1:
        return task.submission({c: probabilities[c].to_numpy() for c in task.targets})
    else:
        values = _restore_type(probabilities.idxmax(axis=1).to_numpy(), task.train[label_column])
    return task.submission({task.targets[0]: values})


def _image_features(
    x_train: np.ndarray, x_test: np.ndarray, side: int, seed: int
) -> tuple[np.ndarray, np.ndarray]:
    from sklearn.decomposition import PCA

    pca = PCA(n_components=min(80, x_train.shape[1]), random_state=seed)
    sample = np.random.default_rng(seed).choice(len(x_train), min(20_000, len(x_train)), False)
    pca.fit(x_train[sample])
    return pca.transform(x_train), pca.transform(x_test)


def fit_images(task: Task, features: Features, labels: pd.Series) -> pd.DataFrame:
    """Class probabilities from an RBF SVM (on up to 25k rows) blended with boosting."""
    from sklearn.svm import SVC

    classes = sorted(labels.unique())
    y = labels.map({c: i for i, c in enumerate(classes)}).to_numpy()
    budget_rows = 25_000 if task.env.seconds_left() > 1500 else 10_000
    x_train = features.train.to_numpy()
    scale = x_train.std(axis=0).mean()

    def svm(fit: np.ndarray, hold: np.ndarray | None, y_: np.ndarray) -> np.ndarray:
        rows = (
            fit
            if len(fit) <= budget_rows
            else np.random.default_rng(task.seed).choice(fit, budget_rows, replace=False)
        )
        model = SVC(C=10.0, gamma=1.0 / (x_train.shape[1] * scale**2))
        model.fit(x_train[rows], y_[rows])
        x_out = features.test.to_numpy() if hold is None else x_train[hold]
        return _softmax_scores(model, x_out, len(classes))

    builders = [("rbf svm", svm), ("gradient boosting", _boosting(task, features, classify=True))]
    fit_rows, hold_rows = holdout_split(len(y), task.seed, labels)
    holdout = []
    for name, build in builders:
        holdout.append(_proba(build(fit_rows, hold_rows, y), len(classes)))
        LOG.info("fitted %s on the fit part (%.0f s)", name, _elapsed(task.env))
    score = _class_scorer(task.metric, y[hold_rows], len(classes))
    weights = choose_blend(score, holdout, [n for n, _ in builders])
    everything = np.arange(len(y))
    test = [
        build(everything, None, y) if w > 0 else 0.0
        for (_, build), w in zip(builders, weights, strict=True)
    ]
    return pd.DataFrame(
        np.asarray(sum(w * p for w, p in zip(weights, test, strict=True))), columns=classes
    )


# --------------------------------------------------------------------------- series


def _find_series_files(task: Task) -> tuple[Path, Path] | None:
    """(train series, test series) CSVs in long format keyed by the submission id column."""
    found: dict[str, Path] = {}
    for path in sorted(task.env.data.glob("*.csv")):
        if path.name in {"train.csv", "test.csv", "sample_submission.csv"}:
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
    LOG.info("series features: %s (%.0f s)", x_train.shape, _elapsed(task.env))
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
        return _full_proba(model, x_test if hold is None else x_train[hold], len(classes))

    builders = [("extra trees", trees), ("gradient boosting", _boosting(task, features, True))]
    fit_rows, hold_rows = holdout_split(len(y), task.seed, labels)
    holdout = [_proba(build(fit_rows, hold_rows, y), len(classes)) for _, build in builders]
    weights = choose_blend(
        _class_scorer(task.metric, y[hold_rows], len(classes)), holdout, [n for n, _ in builders]
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
        return proba[_positive_class(labels)].to_numpy()
    return _restore_type(proba.idxmax(axis=1).to_numpy(), target)


# --------------------------------------------------------------------------- ranking


def _is_ranking(task: Task) -> bool:
    if len(task.targets) != 1:
        return False
    values = task.sample[task.targets[0]].dropna().astype(str)
    return bool(len(values)) and values.str.contains(" ").mean() > 0.5


def _item_column(task: Task) -> str:
    target = task.targets[0]
    for candidate in (target.rstrip("s"), target[:-1], target.removesuffix("Ids") + "Id"):
        if candidate in task.train.columns and candidate != task.id_column:
            return candidate
    others = [c for c in task.train.columns if c != task.id_column]
    return max(others, key=lambda c: task.train[c].nunique())


def solve_ranking(task: Task) -> pd.DataFrame:
    """Item co-occurrence scores from each user's recent items, backed by recent popularity."""
    user, item = task.id_column, _item_column(task)
    k = _cutoff(task)
    ratings = task.train.dropna(subset=[user, item])
    order = next((c for c in ratings.columns if "time" in c.lower() or "date" in c.lower()), None)
    if order is not None:
        ratings = ratings.sort_values([user, order], kind="stable")
    popularity = _recent_popularity(ratings, item, order)
    neighbours = _cooccurrence(ratings, user, item)
    seen = ratings.groupby(user)[item].apply(list).to_dict()
    lists = []
    for person in task.sample[user]:
        history = seen.get(person, [])
        lists.append(" ".join(str(i) for i in _recommend(history, neighbours, popularity, k)))
    LOG.info("ranked %d items for %d users (%.0f s)", k, len(lists), _elapsed(task.env))
    return task.submission({task.targets[0]: lists})


def _cutoff(task: Task) -> int:
    match = re.search(r"map@\s*(\d+)", _read_text(task.env.data / "description.md").lower())
    return int(match.group(1)) if match else 10


def _recent_popularity(ratings: pd.DataFrame, item: str, order: str | None) -> pd.Series:
    if order is None:
        return ratings[item].value_counts().astype(float)
    stamp = pd.to_numeric(ratings[order], errors="coerce").fillna(0).to_numpy(dtype=float)
    span = max(stamp.max() - stamp.min(), 1.0)
    weight = np.exp((stamp - stamp.max()) / (0.25 * span))
    return pd.Series(weight, index=ratings[item].to_numpy()).groupby(level=0).sum()


def _cooccurrence(ratings: pd.DataFrame, user: str, item: str) -> dict[Any, pd.Series]:
    """For each item, cosine-normalised co-occurrence with other items (top 100)."""
    from scipy.sparse import csr_matrix

    users = ratings[user].astype("category")
    items = ratings[item].astype("category")
    matrix = csr_matrix(
        (np.ones(len(ratings)), (users.cat.codes.to_numpy(), items.cat.codes.to_numpy()))
    )
    matrix.data[:] = 1.0
    counts = np.asarray(matrix.sum(axis=0)).ravel()
    co = (matrix.T @ matrix).tocsr()
    names = items.cat.categories.to_numpy()
    table: dict[Any, pd.Series] = {}
    for row in range(co.shape[0]):
        start, end = co.indptr[row], co.indptr[row + 1]
        cols, vals = co.indices[start:end], co.data[start:end]
        keep = cols != row
        cols, vals = cols[keep], vals[keep] / np.sqrt(counts[row] * counts[cols[keep]] + 1e-9)
        top = np.argsort(-vals)[:100]
        table[names[row]] = pd.Series(vals[top], index=names[cols[top]])
    return table


def _recommend(
    history: list[Any], neighbours: dict[Any, pd.Series], popularity: pd.Series, k: int
) -> list[Any]:
    seen = set(history)
    scores: dict[Any, float] = {}
    recent = history[-50:]
    for position, item in enumerate(recent):
        weight = 0.5 + position / max(1, len(recent))
        for other, value in neighbours.get(item, pd.Series(dtype=float)).items():
            if other not in seen:
                scores[other] = scores.get(other, 0.0) + weight * value
    prior = popularity / popularity.max()
    for other, value in prior.nlargest(200).items():
        if other not in seen:
            scores[other] = scores.get(other, 0.0) + 0.5 * value
    ranked = sorted(scores.items(), key=lambda pair: -pair[1])
    return [item for item, _ in ranked[:k]]


if __name__ == "__main__":
    sys.exit(main())
