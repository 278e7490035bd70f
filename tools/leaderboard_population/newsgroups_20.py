"""Reference population for ``newsgroups-20`` (multi-class log loss): priors to calibrated blends."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.calibration import CalibratedClassifierCV
from sklearn.linear_model import LogisticRegression, SGDClassifier
from sklearn.naive_bayes import ComplementNB, MultinomialNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import LinearSVC

from leaderboard_population.common import Entry, read_public, subsample
from leaderboard_population.text import normalised, vectorise

CORPORA = ["binary words top 2k", "word counts", "tf-idf 1-2 grams"]
MODELS = {
    "multinomial nb alpha=1": ("naive bayes", lambda: MultinomialNB(alpha=1.0), CORPORA),
    "multinomial nb alpha=0.01": ("naive bayes", lambda: MultinomialNB(alpha=0.01), CORPORA),
    "complement nb": ("naive bayes", lambda: ComplementNB(alpha=0.3), CORPORA[1:]),
    "knn k=30 cosine": (
        "knn",
        lambda: KNeighborsClassifier(30, metric="cosine", weights="distance"),
        CORPORA[2:],
    ),
    "sgd log-loss": (
        "linear",
        lambda: SGDClassifier(loss="log_loss", alpha=2e-5, max_iter=30, tol=None, random_state=0),
        CORPORA[1:],
    ),
    "logreg C=1": ("linear", lambda: LogisticRegression(C=1.0, max_iter=300), CORPORA[2:]),
    "logreg C=20": ("linear", lambda: LogisticRegression(C=20.0, max_iter=300), CORPORA[2:]),
    "calibrated linear svm": (
        "linear",
        lambda: CalibratedClassifierCV(LinearSVC(C=0.5), cv=3, method="sigmoid"),
        CORPORA[2:],
    ),
}
FLOOR = 1e-4


def entries(public: Path) -> Iterator[Entry]:
    """Yield every reference submission for ``newsgroups-20``."""
    train, test, sample = read_public(public)
    groups = [c for c in sample.columns if c != "id"]
    yield Entry("uniform", "constant", sample)
    prior = train["newsgroup"].value_counts(normalize=True).reindex(groups).to_numpy()
    yield Entry(
        "class frequencies", "constant", _frame(sample, groups, np.tile(prior, (len(test), 1)))
    )
    y = train["newsgroup"].map({g: i for i, g in enumerate(groups)}).to_numpy()
    corpora = {c.name: c for c in vectorise(train["text"], test["text"], CORPORA)}
    kept: dict[str, np.ndarray] = {}
    for name, (family, make, corpus_names) in MODELS.items():
        for corpus_name in corpus_names:
            corpus = corpora[corpus_name]
            for rows, seed in ((0.1, 1), (1.0, 0)):
                fit = subsample(len(y), rows, seed)
                proba = _proba(make().fit(corpus.train[fit], y[fit]), corpus.test, len(groups))
                share = "" if rows >= 1 else f" rows={rows:.0%}"
                if rows >= 1:
                    kept[f"{name} on {corpus_name}"] = proba
                yield Entry(
                    f"{name} on {corpus_name}{share}", family, _frame(sample, groups, proba)
                )
    for name in ("logreg C=20 on tf-idf 1-2 grams", "calibrated linear svm on tf-idf 1-2 grams"):
        sharpened = normalised(kept[name] ** 1.3, FLOOR)
        yield Entry(f"{name}, sharpened", "linear", _frame(sample, groups, sharpened))
    blends = {
        "logreg + calibrated svm": [
            "logreg C=20 on tf-idf 1-2 grams",
            "calibrated linear svm on tf-idf 1-2 grams",
        ],
        "logreg + svm + sgd": [
            "logreg C=20 on tf-idf 1-2 grams",
            "calibrated linear svm on tf-idf 1-2 grams",
            "sgd log-loss on tf-idf 1-2 grams",
        ],
    }
    for label, names in blends.items():
        blend = normalised(np.mean([kept[n] for n in names], axis=0), FLOOR)
        yield Entry(f"blend {label}", "ensemble", _frame(sample, groups, blend))


def _proba(model: object, x_test: object, classes: int) -> np.ndarray:
    proba = np.zeros((x_test.shape[0], classes))  # type: ignore[attr-defined]
    proba[:, model.classes_] = model.predict_proba(x_test)  # type: ignore[attr-defined]
    return normalised(np.round(proba, 6), 1e-6)


def _frame(sample: pd.DataFrame, groups: list[str], proba: np.ndarray) -> pd.DataFrame:
    return sample.assign(**{g: proba[:, i] for i, g in enumerate(groups)})
