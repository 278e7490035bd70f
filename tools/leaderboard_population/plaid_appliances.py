"""Reference population for ``plaid-appliances`` (macro-F1): nearest neighbours to ensembles.

Besides hand-made summary statistics, the strong tier uses random convolutional kernel
features (the ROCKET recipe: many random dilated kernels, each giving the share of positive
outputs and the maximum) on every series tiled to a common length, with a ridge or logistic
classifier on top, and probability averages of those with forests and boosting on the
statistics. Each kernel seed is a separate entry.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.ensemble import (
    ExtraTreesClassifier,
    HistGradientBoostingClassifier,
    RandomForestClassifier,
)
from sklearn.linear_model import LogisticRegression, RidgeClassifierCV
from sklearn.neighbors import KNeighborsClassifier
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from leaderboard_population.common import Entry, subsample

RESAMPLED = 128
TILED = 512
KERNELS = 1000
KERNEL_SEEDS = (0, 1, 2)


def load(public: Path, part: str) -> dict[int, np.ndarray]:
    long = pd.read_csv(public / f"{part}_series.csv").sort_values(["series_id", "t"])
    return {int(k): g.to_numpy(dtype=float) for k, g in long.groupby("series_id")["value"]}


def basic(values: np.ndarray) -> list[float]:
    return [values.size, values.mean(), values.std(), values.min(), values.max()]


def rich(values: np.ndarray) -> list[float]:
    """Amplitude, shape, spectrum, autocorrelation and how the series changes over time."""
    centred = values - values.mean()
    spectrum = np.abs(np.fft.rfft(centred))
    bands = [b.sum() / (spectrum.sum() + 1e-12) for b in np.array_split(spectrum[1:], 12)]
    diff = np.diff(values)
    rms = np.sqrt(np.mean(values**2))
    energy = (centred**2).sum() + 1e-12
    lags = [(centred[:-lag] * centred[lag:]).sum() / energy for lag in (1, 2, 5, 10, 20, 50)]
    parts = np.array_split(values, 8)
    return [
        *basic(values),
        *np.percentile(values, [1, 5, 10, 25, 50, 75, 90, 95, 99]),
        np.abs(values).mean(),
        rms,
        np.abs(values).max() / (rms + 1e-12),
        diff.std(),
        np.abs(diff).mean(),
        np.mean(np.signbit(centred[1:]) != np.signbit(centred[:-1])),
        (np.argmax(spectrum[1:]) + 1) / values.size,
        *bands,
        *lags,
        *[part.mean() for part in parts],
        *[part.std() for part in parts],
    ]


def resampled(values: np.ndarray) -> list[float]:
    grid = np.linspace(0, values.size - 1, RESAMPLED)
    curve = np.interp(grid, np.arange(values.size), values)
    return list((curve - curve.mean()) / (curve.std() + 1e-12))


FEATURE_SETS = {"basic stats": basic, "rich stats": rich, "resampled shape": resampled}
MODELS = {
    "1-nn": ("knn", lambda s: KNeighborsClassifier(1)),
    "knn k=7": ("knn", lambda s: KNeighborsClassifier(7)),
    "tree": ("decision tree", lambda s: DecisionTreeClassifier(random_state=s)),
    "logreg": ("linear", lambda s: LogisticRegression(C=1.0, max_iter=3000)),
    "svm rbf": ("svm", lambda s: SVC(C=10.0)),
    "random forest 300": (
        "forest",
        lambda s: RandomForestClassifier(300, random_state=s, n_jobs=1),
    ),
    "extra trees 500 balanced": (
        "forest",
        lambda s: ExtraTreesClassifier(500, class_weight="balanced", random_state=s, n_jobs=1),
    ),
    "hgb": (
        "gradient boosting",
        lambda s: HistGradientBoostingClassifier(max_iter=200, learning_rate=0.1, random_state=s),
    ),
}


def entries(public: Path) -> Iterator[Entry]:
    """Yield every reference submission for ``plaid-appliances``."""
    train = pd.read_csv(public / "train.csv")
    sample = pd.read_csv(public / "sample_submission.csv")
    train_series, test_series = load(public, "train"), load(public, "test")
    labels = train["appliance"].to_numpy()
    yield Entry("most common type", "constant", sample)
    lengths = np.array([test_series[k].size for k in sample["series_id"]])
    by_length = train.assign(n=[train_series[k].size for k in train["series_id"]])
    typical = by_length.groupby("n")["appliance"].agg(lambda s: s.mode().iloc[0])
    guess = [typical.get(n, sample["appliance"].iloc[0]) for n in lengths]
    yield Entry("most common type of that length", "rule", sample.assign(appliance=guess))
    matrices = {}
    for name, extract in FEATURE_SETS.items():
        x_train = np.array([extract(train_series[k]) for k in train["series_id"]])
        x_test = np.array([extract(test_series[k]) for k in sample["series_id"]])
        matrices[name] = (x_train, x_test)
    votes: list[np.ndarray] = []
    for set_name, (x_train, x_test) in matrices.items():
        for model_name, (family, make) in MODELS.items():
            for rows, seed in ((0.3, 1), (1.0, 0)):
                fit = subsample(len(labels), rows, seed)
                model = make_pipeline(StandardScaler(), make(seed)).fit(x_train[fit], labels[fit])
                predicted = model.predict(x_test)
                share = "" if rows >= 1 else f" rows={rows:.0%}"
                if rows >= 1 and family == "forest" and set_name == "rich stats":
                    votes.append(predicted)
                label = f"{model_name} on {set_name}{share}"
                yield Entry(label, family, sample.assign(appliance=predicted))
    combined = (matrices["rich stats"][0], matrices["rich stats"][1])
    for seed in (0, 1, 2, 3, 4, 5):
        model = ExtraTreesClassifier(
            1000, class_weight="balanced", max_features=0.2, random_state=seed, n_jobs=1
        ).fit(combined[0], labels)
        predicted = model.predict(combined[1])
        votes.append(predicted)
        yield Entry(
            f"extra trees 1000 balanced on rich stats seed={seed}",
            "forest",
            sample.assign(appliance=predicted),
        )
    vote = pd.DataFrame(np.stack(votes)).mode(axis=0).iloc[0].to_numpy()
    yield Entry("majority vote of forests on rich stats", "ensemble", sample.assign(appliance=vote))
    tiled = np.array(
        [np.resize(train_series[k], TILED) for k in train["series_id"]]
        + [np.resize(test_series[k], TILED) for k in sample["series_id"]]
    )
    yield from _kernel_entries(tiled, matrices["rich stats"], labels, sample)


def random_kernel_features(series: np.ndarray, n_kernels: int, seed: int) -> np.ndarray:
    """ROCKET-style features of equal-length series: per kernel, share positive and maximum."""
    rng = np.random.default_rng(seed)
    scaled = (series - series.mean(axis=1, keepdims=True)) / (
        series.std(axis=1, keepdims=True) + 1e-8
    )
    length = scaled.shape[1]
    columns = []
    for _ in range(n_kernels):
        size = int(rng.choice([7, 9, 11]))
        weights = rng.normal(size=size)
        weights -= weights.mean()
        bias = rng.uniform(-1.0, 1.0)
        dilation = int(2 ** rng.uniform(0, np.log2((length - 1) / (size - 1))))
        pad = (size - 1) * dilation // 2 if rng.random() < 0.5 else 0
        padded = np.pad(scaled, ((0, 0), (pad, pad)))
        width = padded.shape[1] - (size - 1) * dilation
        output = bias + sum(
            weights[j] * padded[:, j * dilation : j * dilation + width] for j in range(size)
        )
        columns += [(output > 0).mean(axis=1), output.max(axis=1)]
    return np.stack(columns, axis=1)


def _kernel_entries(
    tiled: np.ndarray,
    stats: tuple[np.ndarray, np.ndarray],
    labels: np.ndarray,
    sample: pd.DataFrame,
) -> Iterator[Entry]:
    """Ridge on kernel features, and probability averages with forests and boosting."""
    n_train = len(labels)
    triples = []
    for seed in KERNEL_SEEDS:
        features = random_kernel_features(tiled, KERNELS, seed)
        x_train, x_test = features[:n_train], features[n_train:]
        ridge = make_pipeline(StandardScaler(), RidgeClassifierCV(alphas=np.logspace(-3, 3, 10)))
        predicted = ridge.fit(x_train, labels).predict(x_test)
        name = f"rocket {KERNELS} kernels + ridge seed={seed}"
        yield Entry(name, "random kernels", sample.assign(appliance=predicted))
        logistic = make_pipeline(StandardScaler(), LogisticRegression(C=0.1, max_iter=3000))
        kernel_proba = logistic.fit(x_train, labels).predict_proba(x_test)
        forest = ExtraTreesClassifier(
            500, class_weight="balanced", max_features=0.3, random_state=seed, n_jobs=1
        ).fit(stats[0], labels)
        boosting = HistGradientBoostingClassifier(
            max_iter=300, learning_rate=0.05, random_state=seed
        ).fit(stats[0], labels)
        pair = forest.predict_proba(stats[1]) + boosting.predict_proba(stats[1])
        classes = forest.classes_
        name = f"extra trees + hgb on rich stats, mean probability seed={seed}"
        yield Entry(name, "ensemble", sample.assign(appliance=classes[pair.argmax(axis=1)]))
        triple = (pair + kernel_proba) / 3
        triples.append(triple)
        name = f"extra trees + hgb + rocket logreg, mean probability seed={seed}"
        yield Entry(name, "ensemble", sample.assign(appliance=classes[triple.argmax(axis=1)]))
    average = np.mean(triples, axis=0)
    name = "extra trees + hgb + rocket logreg over three seeds, mean probability"
    yield Entry(name, "ensemble", sample.assign(appliance=classes[average.argmax(axis=1)]))
