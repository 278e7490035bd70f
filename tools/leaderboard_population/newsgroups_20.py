"""Reference population for ``newsgroups-20`` (multi-class log loss), weak to strong.

- constants: uniform and the train class frequencies;
- naive Bayes (multinomial at four smoothings, complement), cosine kNN, SGD logistic
  regression and sigmoid-calibrated linear SVMs with fixed settings on word vectorisations,
  each also on 10 % of the rows; fixed sharpenings and fixed-weight blends of those;
- cross-fitted components: linear SVMs on tf-idf word 1-2 grams and on words + character
  n-grams, a modified-Huber SGD and multinomial naive Bayes. Each is fitted once per fold on
  train; its out-of-fold scores calibrate it (a sigmoid per class, or one temperature) and
  its test scores are the fold models' mean;
- ensembles fitted on those out-of-fold scores only: log-linear pools (one weight per
  component, optionally a bias per class), probability mixtures with a sharpening power,
  and a stacked multinomial logistic regression whose C is chosen by cross-validation.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy.optimize import minimize
from scipy.special import log_softmax, softmax
from sklearn.calibration import CalibratedClassifierCV
from sklearn.linear_model import LogisticRegression, SGDClassifier
from sklearn.naive_bayes import ComplementNB, MultinomialNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import LinearSVC

from leaderboard_population.common import Entry, read_public, subsample
from leaderboard_population.text import (
    Corpus,
    CrossFit,
    cross_fit,
    folds,
    joined,
    normalised,
    vectorise,
)

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
BEST = {
    "svm": "calibrated linear svm C=0.5 on tf-idf 1-2 grams",
    "nb": "multinomial nb alpha=0.01 on tf-idf 1-2 grams",
    "sgd": "sgd logistic alpha=2e-05 on tf-idf 1-2 grams",
}
FLOOR = 1e-4
# Cross-fitted components: (label, family, corpus, model, folds, output), where output says
# how scores become log-probabilities: a sigmoid per class ("platt"), or the model's own
# log-probabilities, scaled by one temperature when shown alone ("log-proba").
COMPONENTS: dict[str, tuple[str, str, str, Callable[[], Any], int, str]] = {
    "svm wc": (
        "linear svm C=0.5 on words + chars",
        "linear",
        "words + chars",
        lambda: LinearSVC(C=0.5),
        3,
        "platt",
    ),
    "svm w": (
        "linear svm C=1 on tf-idf 1-2 grams",
        "linear",
        "tf-idf 1-2 grams",
        lambda: LinearSVC(C=1.0),
        5,
        "platt",
    ),
    "sgd w": (
        "modified-huber sgd alpha=2e-05 on tf-idf 1-2 grams",
        "linear",
        "tf-idf 1-2 grams",
        lambda: SGDClassifier(
            loss="modified_huber", alpha=2e-5, max_iter=15, tol=None, random_state=0
        ),
        5,
        "platt",
    ),
    "nb w": (
        "multinomial nb alpha=0.01 on tf-idf 1-2 grams",
        "naive bayes",
        "tf-idf 1-2 grams",
        lambda: MultinomialNB(alpha=0.01),
        5,
        "log-proba",
    ),
    "nb wc": (
        "multinomial nb alpha=0.01 on words + chars",
        "naive bayes",
        "words + chars",
        lambda: MultinomialNB(alpha=0.01),
        5,
        "log-proba",
    ),
}
POOLS = {
    "svm words + chars, nb words": ["svm wc", "nb w"],
    "svm words + chars, nb words + chars": ["svm wc", "nb wc"],
    "svm words, nb words": ["svm w", "nb w"],
    "sgd words, nb words": ["sgd w", "nb w"],
    "both svms, both nbs": ["svm wc", "svm w", "nb w", "nb wc"],
    "all five": ["svm wc", "svm w", "sgd w", "nb w", "nb wc"],
}
BIASED_POOLS = ["svm words + chars, nb words", "all five"]
MIXTURES = ["svm words + chars, nb words", "both svms, both nbs"]
STACKS = ["svm words + chars, nb words", "all five"]
STACK_C = (0.1, 0.3, 1.0)


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
            yield from _fixed_model(name, family, make, corpora[corpus_name], y, sample, kept)
    yield from _sharpened_and_blended(kept, sample)
    (chars,) = vectorise(train["text"], test["text"], ["tf-idf char 2-5"])
    corpora["words + chars"] = joined("words + chars", [corpora["tf-idf 1-2 grams"], chars])
    components = _components(corpora, y)
    for key, (label, family, *_, output) in COMPONENTS.items():
        how = "per-class sigmoid" if output == "platt" else "temperature"
        shown = _pool([components[key]], y) if output == "log-proba" else components[key]
        yield Entry(f"{label}, cross-fitted, {how}", family, _frame(sample, groups, _p(shown)))
    raw = _pool([components["svm wc raw"]], y)
    label = "linear svm C=0.5 on words + chars, cross-fitted, temperature"
    yield Entry(label, "linear", _frame(sample, groups, _p(raw)))
    yield from _fixed_svm_nb_blends(_p(components["svm wc"]), kept[BEST["nb"]], sample)
    yield from _ensembles(components, y, sample)


def _fixed_model(
    name: str,
    family: str,
    make: Callable[[], Any],
    corpus: Corpus,
    y: np.ndarray,
    sample: pd.DataFrame,
    kept: dict[str, np.ndarray],
) -> Iterator[Entry]:
    """One fixed-setting model on one vectorisation, on 10 % of the rows and on all."""
    groups = [c for c in sample.columns if c != "id"]
    for rows, seed in ((0.1, 1), (1.0, 0)):
        fit = subsample(len(y), rows, seed)
        proba = _proba(make().fit(corpus.train[fit], y[fit]), corpus.test, len(groups))
        share = "" if rows >= 1 else f" rows={rows:.0%}"
        if rows >= 1:
            kept[f"{name} on {corpus.name}"] = proba
        yield Entry(f"{name} on {corpus.name}{share}", family, _frame(sample, groups, proba))


def _sharpened_and_blended(kept: dict[str, np.ndarray], sample: pd.DataFrame) -> Iterator[Entry]:
    """Fixed powers and fixed-weight blends of the best fixed-setting models."""
    groups = [c for c in sample.columns if c != "id"]
    for power in (1.3, 1.6):
        for key in ("svm", "sgd"):
            sharpened = normalised(kept[BEST[key]] ** power, FLOOR)
            label = f"{BEST[key]}, sharpened ^{power:g}"
            yield Entry(label, "linear", _frame(sample, groups, sharpened))
    blends = {"svm + nb": ["svm", "nb"], "svm + nb + sgd": ["svm", "nb", "sgd"]}
    for label, keys in blends.items():
        blend = normalised(np.mean([kept[BEST[k]] for k in keys], axis=0), FLOOR)
        yield Entry(f"blend {label}", "ensemble", _frame(sample, groups, blend))
        geometric = normalised(np.exp(np.mean([np.log(kept[BEST[k]]) for k in keys], axis=0)))
        sharp = normalised(geometric**1.3, FLOOR)
        yield Entry(
            f"geometric blend {label}, sharpened", "ensemble", _frame(sample, groups, sharp)
        )


def _components(corpora: dict[str, Corpus], y: np.ndarray) -> dict[str, CrossFit]:
    """Cross-fitted log-probabilities of every component (plus the raw words + chars SVM)."""
    out: dict[str, CrossFit] = {}
    for key, (_, _, corpus, make, k, output) in COMPONENTS.items():
        splits = folds(y, k, seed=0)
        if output == "platt":
            scores = cross_fit(make, corpora[corpus], y, splits, _decision)
            out[key] = _platt(scores, y)
            if key == "svm wc":
                out["svm wc raw"] = scores
        else:
            out[key] = cross_fit(make, corpora[corpus], y, splits, _log_proba)
    return out


def _fixed_svm_nb_blends(
    svm: np.ndarray, bayes: np.ndarray, sample: pd.DataFrame
) -> Iterator[Entry]:
    """Mixtures of the words + chars SVM and naive Bayes with weights fixed a priori."""
    groups = [c for c in sample.columns if c != "id"]
    for weight, power in ((0.5, 1.0), (0.3, 1.2), (0.5, 1.3)):
        blend = normalised((weight * svm + (1 - weight) * bayes) ** power, FLOOR)
        label = f"blend {weight:g} svm words + chars, {1 - weight:g} nb, power {power:g}"
        yield Entry(label, "ensemble", _frame(sample, groups, blend))


def _ensembles(
    components: dict[str, CrossFit], y: np.ndarray, sample: pd.DataFrame
) -> Iterator[Entry]:
    """Pools, mixtures and stacks of components, all fitted on out-of-fold scores."""
    groups = [c for c in sample.columns if c != "id"]
    for label, keys in POOLS.items():
        parts = [components[k] for k in keys]
        pooled = _p(_pool(parts, y))
        yield Entry(f"log-linear pool {label}", "ensemble", _frame(sample, groups, pooled))
        if label in BIASED_POOLS:
            biased = _p(_pool(parts, y, class_bias=True))
            name = f"log-linear pool {label}, class biases"
            yield Entry(name, "ensemble", _frame(sample, groups, biased))
        if label in MIXTURES:
            name = f"mixture {label}, weights and power fitted"
            yield Entry(name, "ensemble", _frame(sample, groups, _mixture(parts, y)))
        if label in STACKS:
            name = f"stacked logreg on {label}, C by CV"
            yield Entry(name, "ensemble", _frame(sample, groups, _stack(parts, y)))


def _decision(model: Any, x: Any) -> np.ndarray:
    return np.asarray(model.decision_function(x), dtype=float)


def _log_proba(model: Any, x: Any) -> np.ndarray:
    return np.asarray(model.predict_log_proba(x), dtype=float)


def _platt(scores: CrossFit, y: np.ndarray) -> CrossFit:
    """Per-class sigmoids of the decision values, fitted out of fold, rows renormalised."""
    oof, test = np.zeros_like(scores.oof), np.zeros_like(scores.test)
    for c in range(scores.oof.shape[1]):
        sigmoid = LogisticRegression(C=1e4).fit(scores.oof[:, [c]], y == c)
        oof[:, c] = sigmoid.predict_proba(scores.oof[:, [c]])[:, 1]
        test[:, c] = sigmoid.predict_proba(scores.test[:, [c]])[:, 1]
    return CrossFit(np.log(normalised(oof, 1e-9)), np.log(normalised(test, 1e-9)))


def _nll(log_proba: np.ndarray, y: np.ndarray) -> float:
    return float(-log_softmax(log_proba, axis=1)[np.arange(len(y)), y].mean())


def _pool(parts: Sequence[CrossFit], y: np.ndarray, class_bias: bool = False) -> CrossFit:
    """Log-softmax of a weighted sum of log-probabilities (plus a bias per class), the
    weights minimising the out-of-fold log loss; one part alone is temperature scaling."""
    oof, test = np.stack([p.oof for p in parts]), np.stack([p.test for p in parts])
    n, classes = len(parts), oof.shape[2]

    def logits(theta: np.ndarray, scores: np.ndarray) -> np.ndarray:
        bias = theta[n:] if class_bias else 0.0
        return np.tensordot(theta[:n], scores, axes=1) + bias

    start = np.r_[np.full(n, 1.0 / n), np.zeros(classes if class_bias else 0)]
    theta = minimize(lambda t: _nll(logits(t, oof), y), start, method="L-BFGS-B").x
    return CrossFit(*(log_softmax(logits(theta, s), axis=1) for s in (oof, test)))


def _mixture(parts: Sequence[CrossFit], y: np.ndarray) -> np.ndarray:
    """A weighted mean of probabilities raised to a power, both fitted out of fold."""
    oof = np.stack([np.exp(p.oof) for p in parts])
    test = np.stack([np.exp(p.test) for p in parts])

    def log_mix(theta: np.ndarray, probabilities: np.ndarray) -> np.ndarray:
        mixed = np.tensordot(softmax(theta[:-1]), probabilities, axes=1)
        return theta[-1] * np.log(np.clip(mixed, 1e-12, None))

    start = np.r_[np.zeros(len(parts)), 1.0]
    theta = minimize(lambda t: _nll(log_mix(t, oof), y), start, method="Nelder-Mead").x
    return normalised(softmax(log_mix(theta, test), axis=1), 1e-6)


def _stack(parts: Sequence[CrossFit], y: np.ndarray) -> np.ndarray:
    """Multinomial logistic regression on the components' out-of-fold log-probabilities;
    its C is the one of ``STACK_C`` with the best 3-fold log loss on those rows."""
    features = np.hstack([_stack_features(p.oof) for p in parts])
    splits = folds(y, 3, seed=1)

    def cv_loss(c: float) -> float:
        losses = []
        for fit, held in splits:
            model = LogisticRegression(C=c, max_iter=1000).fit(features[fit], y[fit])
            losses.append(_nll(model.predict_log_proba(features[held]), y[held]))
        return float(np.mean(losses))

    best = min(STACK_C, key=cv_loss)
    model = LogisticRegression(C=best, max_iter=1000).fit(features, y)
    test = np.hstack([_stack_features(p.test) for p in parts])
    return normalised(model.predict_proba(test), 1e-6)


def _stack_features(log_proba: np.ndarray) -> np.ndarray:
    """Log-probabilities clipped at -12 and divided by 4: a range lbfgs converges on fast."""
    return np.clip(log_proba, -12.0, None) / 4.0


def _p(log_proba: CrossFit) -> np.ndarray:
    """The test probabilities of cross-fitted log-probabilities, floored at 1e-6."""
    return normalised(np.exp(log_proba.test), 1e-6)


def _proba(model: object, x_test: object, classes: int) -> np.ndarray:
    proba = np.zeros((x_test.shape[0], classes))  # type: ignore[attr-defined]
    proba[:, model.classes_] = model.predict_proba(x_test)  # type: ignore[attr-defined]
    return normalised(np.round(proba, 6), 1e-6)


def _frame(sample: pd.DataFrame, groups: list[str], proba: np.ndarray) -> pd.DataFrame:
    return sample.assign(**{g: proba[:, i] for i, g in enumerate(groups)})
