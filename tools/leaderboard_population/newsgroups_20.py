"""Reference population for ``newsgroups-20`` (multi-class log loss): priors to blends."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import sparse
from sklearn.calibration import CalibratedClassifierCV
from sklearn.linear_model import SGDClassifier
from sklearn.naive_bayes import ComplementNB, MultinomialNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import LinearSVC

from leaderboard_population.common import Entry, read_public, subsample
from leaderboard_population.text import normalised, vectorise

CORPORA = ["binary words top 2k", "word counts", "tf-idf 1-2 grams"]
MODELS = {
    **{
        f"multinomial nb alpha={alpha:g}": (
            "naive bayes",
            lambda alpha=alpha: MultinomialNB(alpha=alpha),
            CORPORA,
        )
        for alpha in (1.0, 0.1, 0.01, 0.001)
    },
    "complement nb": ("naive bayes", lambda: ComplementNB(alpha=0.3), CORPORA[1:]),
    "knn k=30 cosine": (
        "knn",
        lambda: KNeighborsClassifier(30, metric="cosine", weights="distance"),
        CORPORA[2:],
    ),
    **{
        f"sgd logistic alpha={alpha:g}": (
            "linear",
            lambda alpha=alpha: SGDClassifier(
                loss="log_loss", alpha=alpha, max_iter=30, tol=None, random_state=0
            ),
            CORPORA[2:],
        )
        for alpha in (1e-4, 2e-5)
    },
    **{
        f"calibrated linear svm C={c:g}": (
            "linear",
            lambda c=c: CalibratedClassifierCV(LinearSVC(C=c), cv=3, method="sigmoid"),
            CORPORA[2:],
        )
        for c in (0.1, 0.5)
    },
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
    best = {
        "svm": "calibrated linear svm C=0.5 on tf-idf 1-2 grams",
        "nb": "multinomial nb alpha=0.01 on tf-idf 1-2 grams",
        "sgd": "sgd logistic alpha=2e-05 on tf-idf 1-2 grams",
    }
    for power in (1.3, 1.6):
        for key in ("svm", "sgd"):
            sharpened = normalised(kept[best[key]] ** power, FLOOR)
            label = f"{best[key]}, sharpened ^{power:g}"
            yield Entry(label, "linear", _frame(sample, groups, sharpened))
    yield from _words_and_chars(train, test, sample, groups, y, kept[best["nb"]])
    blends = {"svm + nb": ["svm", "nb"], "svm + nb + sgd": ["svm", "nb", "sgd"]}
    for label, keys in blends.items():
        blend = normalised(np.mean([kept[best[k]] for k in keys], axis=0), FLOOR)
        yield Entry(f"blend {label}", "ensemble", _frame(sample, groups, blend))
        geometric = normalised(np.exp(np.mean([np.log(kept[best[k]]) for k in keys], axis=0)))
        sharp = normalised(geometric**1.3, FLOOR)
        yield Entry(
            f"geometric blend {label}, sharpened", "ensemble", _frame(sample, groups, sharp)
        )


def _words_and_chars(
    train: pd.DataFrame,
    test: pd.DataFrame,
    sample: pd.DataFrame,
    groups: list[str],
    y: np.ndarray,
    bayes: np.ndarray,
) -> Iterator[Entry]:
    """A calibrated SVM on word and character n-grams, alone and blended with naive Bayes."""
    words, chars = vectorise(train["text"], test["text"], ["tf-idf 1-2 grams", "tf-idf char 2-5"])
    x_train = sparse.hstack([words.train, chars.train]).tocsr()
    x_test = sparse.hstack([words.test, chars.test]).tocsr()
    model = CalibratedClassifierCV(LinearSVC(C=0.5), cv=3, method="sigmoid").fit(x_train, y)
    svm = _proba(model, x_test, len(groups))
    yield Entry("calibrated linear svm on words + chars", "linear", _frame(sample, groups, svm))
    for weight, power in ((0.5, 1.0), (0.3, 1.2), (0.5, 1.3)):
        blend = normalised((weight * svm + (1 - weight) * bayes) ** power, FLOOR)
        label = f"blend {weight:g} svm words + chars, {1 - weight:g} nb, power {power:g}"
        yield Entry(label, "ensemble", _frame(sample, groups, blend))


def _proba(model: object, x_test: object, classes: int) -> np.ndarray:
    proba = np.zeros((x_test.shape[0], classes))  # type: ignore[attr-defined]
    proba[:, model.classes_] = model.predict_proba(x_test)  # type: ignore[attr-defined]
    return normalised(np.round(proba, 6), 1e-6)


def _frame(sample: pd.DataFrame, groups: list[str], proba: np.ndarray) -> pd.DataFrame:
    return sample.assign(**{g: proba[:, i] for i, g in enumerate(groups)})
