"""Reference population for ``fine-food-reviews`` (ROC-AUC), weak to strong.

- constant and one-feature rules (length, exclamation marks, a small word lexicon);
- naive Bayes, kNN, ridge, linear SVM and logistic regression with fixed settings on four
  vectorisations (binary top words, counts, tf-idf 1-2 grams, tf-idf characters), each also
  on 20 % of the rows; the linear models on words + characters; NB-logistic regression;
- fixed rank blends of those;
- tuned components: complement NB, logistic regression, NB-logistic regression and ridge on
  negation-marked word 1-3 grams and character 1-6 grams, each with its smoothing or
  regularisation chosen by 5-fold cross-validated AUC on train (two fold seeds), scored on
  test by the mean of the fold models;
- ensembles of the tuned components: even rank blends of fixed subsets, greedy (Caruana)
  rank blends and a stacked logistic regression, their weights fitted on out-of-fold ranks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import sparse
from sklearn.linear_model import LogisticRegression, RidgeClassifier
from sklearn.metrics import roc_auc_score
from sklearn.naive_bayes import ComplementNB, MultinomialNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import LinearSVC

from leaderboard_population.common import Entry, rank_average, read_public, subsample
from leaderboard_population.text import Corpus, CrossFit, cross_fit, folds, joined, vectorise

POSITIVE = r"\b(great|love|loves|best|delicious|excellent|perfect|favorite|wonderful)\b"
NEGATIVE = r"\b(not|but|disappoint\w*|bad|never|however|ok|okay|too)\b"
MODELS = {
    "multinomial nb": ("naive bayes", lambda: MultinomialNB(alpha=1.0)),
    "complement nb": ("naive bayes", lambda: ComplementNB(alpha=0.5)),
    "knn k=25 cosine": ("knn", lambda: KNeighborsClassifier(25, metric="cosine")),
    "ridge classifier": ("linear", lambda: RidgeClassifier(alpha=3.0)),
    "linear svm C=0.1": ("linear", lambda: LinearSVC(C=0.1)),
    "logreg C=1": ("linear", lambda: LogisticRegression(C=1.0, max_iter=3000)),
    "logreg C=10": ("linear", lambda: LogisticRegression(C=10.0, max_iter=3000)),
}
CORPORA = ["binary words top 2k", "word counts", "tf-idf 1-2 grams", "tf-idf char 2-5"]
NB_ONLY = {"multinomial nb", "complement nb"}
FIXED_BLENDS = {
    "logreg words + chars": [
        "logreg C=10 on tf-idf 1-2 grams",
        "logreg C=10 on tf-idf char 2-5",
    ],
    "logreg + svm + nb": [
        "logreg C=10 on tf-idf 1-2 grams",
        "linear svm C=0.1 on tf-idf char 2-5",
        "multinomial nb on word counts",
    ],
    "naive bayes on tf-idf + ridge": [
        "complement nb on tf-idf 1-2 grams",
        "multinomial nb on tf-idf 1-2 grams",
        "ridge classifier on tf-idf 1-2 grams",
    ],
    "complement nb + svm + logreg on words and chars": [
        "complement nb on tf-idf 1-2 grams",
        "linear svm C=0.1 on words + chars",
        "logreg C=10 on words + chars",
    ],
    "complement nb + ridge on words and chars": [
        "complement nb on tf-idf 1-2 grams",
        "ridge classifier on words + chars",
    ],
}
TUNED_CORPORA = [
    "negation-marked tf-idf 1-3 grams",
    "negation-marked binary 1-3 grams",
    "tf-idf char 1-6",
]
FOLD_SEEDS = (0, 1)
GREEDY_STEPS = 12


class NbLogisticRegression:
    """Logistic regression on binary features scaled by their naive-Bayes log-count ratio."""

    def __init__(self, c: float = 4.0, alpha: float = 1.0) -> None:
        self.c, self.alpha = c, alpha

    def fit(self, x: sparse.csr_matrix, y: np.ndarray) -> NbLogisticRegression:
        binary = (x > 0).astype(float)
        positive = np.asarray(binary[y == 1].sum(axis=0)).ravel() + self.alpha
        negative = np.asarray(binary[y == 0].sum(axis=0)).ravel() + self.alpha
        ratio = np.log((positive / positive.sum()) / (negative / negative.sum()))
        self.scale_ = sparse.diags(ratio)
        self.model_ = LogisticRegression(C=self.c, max_iter=3000).fit(binary @ self.scale_, y)
        return self

    def decision_function(self, x: sparse.csr_matrix) -> np.ndarray:
        return np.asarray(self.model_.decision_function((x > 0).astype(float) @ self.scale_))


@dataclass(frozen=True)
class Tuned:
    """A model family whose one hyperparameter is chosen by cross-validated AUC on train."""

    name: str
    family: str
    corpus: str
    make: Callable[[float], Any]
    grid: tuple[float, ...]
    parameter: str


TUNED = [
    Tuned(
        "complement nb",
        "naive bayes",
        "negation-marked tf-idf 1-3 grams",
        lambda a: ComplementNB(alpha=a),
        (0.1, 0.3, 1.0),
        "alpha",
    ),
    Tuned(
        "logreg",
        "linear",
        "negation-marked tf-idf 1-3 grams",
        lambda c: LogisticRegression(C=c, max_iter=3000),
        (1.0, 3.0, 10.0),
        "C",
    ),
    Tuned(
        "nb-logreg",
        "linear",
        "negation-marked binary 1-3 grams",
        lambda c: NbLogisticRegression(c=c),
        (0.03, 0.1, 0.3),
        "C",
    ),
    Tuned(
        "logreg",
        "linear",
        "tf-idf char 1-6",
        lambda c: LogisticRegression(C=c, max_iter=3000),
        (1.0, 3.0, 10.0),
        "C",
    ),
    Tuned(
        "ridge classifier",
        "linear",
        "negation-marked words + chars",
        lambda a: RidgeClassifier(alpha=a),
        (1.0, 3.0, 10.0),
        "alpha",
    ),
]
# Even rank blends of tuned components, fixed a priori (indices into TUNED).
SUBSETS = {
    "nb + nb-logreg + char logreg": (0, 2, 3),
    "nb + word logreg + nb-logreg": (0, 1, 2),
    "word + char logreg": (1, 3),
    "nb + ridge": (0, 4),
    "all five": (0, 1, 2, 3, 4),
}


def entries(public: Path) -> Iterator[Entry]:
    """Yield every reference submission for ``fine-food-reviews``."""
    train, test, sample = read_public(public)
    yield from _rules(test["review"].str.lower(), sample)
    y = train["great"].to_numpy()
    corpora = vectorise(train["review"], test["review"], CORPORA)
    kept: dict[str, np.ndarray] = {}
    for corpus in corpora:
        yield from _fixed_models(corpus, y, sample, kept)
    yield _nb_logreg(corpora[1], y, sample)
    yield from _words_and_chars(joined("words + chars", corpora[2:]), y, sample, kept)
    for label, names in FIXED_BLENDS.items():
        blend = rank_average([kept[n] for n in names])
        yield Entry(f"rank blend {label}", "ensemble", sample.assign(great=blend))
    tuned_corpora = {c.name: c for c in vectorise(train["review"], test["review"], TUNED_CORPORA)}
    tuned_corpora["negation-marked words + chars"] = joined(
        "negation-marked words + chars",
        [tuned_corpora["negation-marked tf-idf 1-3 grams"], tuned_corpora["tf-idf char 1-6"]],
    )
    for seed in FOLD_SEEDS:
        yield from _tuned_and_ensembled(tuned_corpora, y, sample, seed)


def _rules(text: pd.Series, sample: pd.DataFrame) -> Iterator[Entry]:
    """A constant and three one-feature rules on the lower-cased test reviews."""
    yield Entry("constant 0.5", "constant", sample.assign(great=0.5))
    yield Entry("shorter is better", "rule", sample.assign(great=-text.str.len()))
    yield Entry("exclamation marks", "rule", sample.assign(great=text.str.count("!")))
    lexicon = text.str.count(POSITIVE) - text.str.count(NEGATIVE)
    yield Entry("word lexicon", "rule", sample.assign(great=lexicon))


def _fixed_models(
    corpus: Corpus, y: np.ndarray, sample: pd.DataFrame, kept: dict[str, np.ndarray]
) -> Iterator[Entry]:
    """Every fixed-setting model on one vectorisation, on all rows and on 20 % of them."""
    for name, (family, make) in MODELS.items():
        if name in NB_ONLY and corpus.name.startswith("tf-idf char"):
            continue
        for rows, seed in ((0.2, 1), (1.0, 0)):
            fit = subsample(len(y), rows, seed)
            score = _score(make().fit(corpus.train[fit], y[fit]), corpus.test)
            share = "" if rows >= 1 else f" rows={rows:.0%}"
            if rows >= 1:
                kept[f"{name} on {corpus.name}"] = score
            entry = f"{name} on {corpus.name}{share}"
            yield Entry(entry, family, sample.assign(great=np.round(score, 8)))


def _words_and_chars(
    both: Corpus, y: np.ndarray, sample: pd.DataFrame, kept: dict[str, np.ndarray]
) -> Iterator[Entry]:
    """The fixed-setting linear models on tf-idf words and characters side by side."""
    for name, (family, make) in MODELS.items():
        if name in NB_ONLY or name.startswith("knn"):
            continue
        score = _score(make().fit(both.train, y), both.test)
        kept[f"{name} on words + chars"] = score
        yield Entry(f"{name} on words + chars", family, sample.assign(great=np.round(score, 8)))


def _tuned_and_ensembled(
    corpora: dict[str, Corpus], y: np.ndarray, sample: pd.DataFrame, seed: int
) -> Iterator[Entry]:
    """Tuned components under one fold seed, then their blends and a stack."""
    splits = folds(y, 5, seed)
    suffix = f"5-fold CV seed={seed}"
    components = []
    for tuned in TUNED:
        value, fitted = _tune(tuned, corpora[tuned.corpus], y, splits)
        components.append(_ranked(fitted))
        label = f"{tuned.name} on {tuned.corpus}, {tuned.parameter}={value:g} by {suffix}"
        yield Entry(label, tuned.family, sample.assign(great=np.round(fitted.test, 8)))
    for label, indices in SUBSETS.items():
        blend = np.mean([components[i].test for i in indices], axis=0)
        yield Entry(f"rank blend {label}, {suffix}", "ensemble", sample.assign(great=blend))
    weights = _greedy_weights([c.oof for c in components], y)
    greedy = np.tensordot(weights, np.stack([c.test for c in components]), axes=1)
    yield Entry(f"greedy rank blend of tuned, {suffix}", "ensemble", sample.assign(great=greedy))
    stack = LogisticRegression(C=1.0).fit(np.column_stack([c.oof for c in components]), y)
    stacked = stack.predict_proba(np.column_stack([c.test for c in components]))[:, 1]
    yield Entry(
        f"stacked logreg on tuned ranks, {suffix}", "ensemble", sample.assign(great=stacked)
    )


def _tune(
    tuned: Tuned,
    corpus: Corpus,
    y: np.ndarray,
    splits: Sequence[tuple[np.ndarray, np.ndarray]],
) -> tuple[float, CrossFit]:
    """The grid value with the best out-of-fold AUC, and its cross-fitted scores."""
    results = [
        (value, cross_fit(partial(tuned.make, value), corpus, y, splits, _score))
        for value in tuned.grid
    ]
    return max(results, key=lambda r: roc_auc_score(y, r[1].oof))


def _ranked(fitted: CrossFit) -> CrossFit:
    """Scores replaced by their ranks scaled to (0, 1], separately on train and test."""
    return CrossFit(*(pd.Series(s).rank().to_numpy() / len(s) for s in (fitted.oof, fitted.test)))


def _greedy_weights(oof: Sequence[np.ndarray], y: np.ndarray) -> np.ndarray:
    """Caruana's ensemble selection: add, with replacement, the component that most raises
    the out-of-fold AUC of the running average; the weights are how often each was added."""
    counts = np.zeros(len(oof))
    total = np.zeros(len(y))
    for _ in range(GREEDY_STEPS):
        gains = [roc_auc_score(y, total + o) for o in oof]
        best = int(np.argmax(gains))
        counts[best] += 1
        total += oof[best]
    return counts / counts.sum()


def _score(model: Any, x_test: sparse.csr_matrix) -> np.ndarray:
    if hasattr(model, "predict_proba"):
        return np.asarray(model.predict_proba(x_test))[:, 1]
    return np.asarray(model.decision_function(x_test))


def _nb_logreg(counts: Corpus, y: np.ndarray, sample: pd.DataFrame) -> Entry:
    """Logistic regression on naive-Bayes log-count-ratio scaled binary words (NB-LR)."""
    score = NbLogisticRegression(c=4.0).fit(counts.train, y).decision_function(counts.test)
    return Entry("nb-logreg on binary words", "linear", sample.assign(great=score))
