"""Reference population for ``fine-food-reviews`` (ROC-AUC): word rules to tf-idf ensembles."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import numpy as np
from scipy import sparse
from sklearn.linear_model import LogisticRegression, RidgeClassifier
from sklearn.naive_bayes import ComplementNB, MultinomialNB
from sklearn.neighbors import KNeighborsClassifier
from sklearn.svm import LinearSVC

from leaderboard_population.common import Entry, rank_average, read_public, subsample
from leaderboard_population.text import vectorise

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


def entries(public: Path) -> Iterator[Entry]:
    """Yield every reference submission for ``fine-food-reviews``."""
    train, test, sample = read_public(public)
    text = test["review"].str.lower()
    yield Entry("constant 0.5", "constant", sample.assign(great=0.5))
    yield Entry("shorter is better", "rule", sample.assign(great=-text.str.len()))
    yield Entry("exclamation marks", "rule", sample.assign(great=text.str.count("!")))
    lexicon = text.str.count(POSITIVE) - text.str.count(NEGATIVE)
    yield Entry("word lexicon", "rule", sample.assign(great=lexicon))
    y = train["great"].to_numpy()
    corpora = vectorise(train["review"], test["review"], CORPORA)
    kept: dict[str, np.ndarray] = {}
    for corpus in corpora:
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
    yield _nb_logreg(corpora[1].train, corpora[1].test, y, sample)
    words, chars = corpora[2], corpora[3]
    both_train = sparse.hstack([words.train, chars.train]).tocsr()
    both_test = sparse.hstack([words.test, chars.test]).tocsr()
    for name, (family, make) in MODELS.items():
        if name in NB_ONLY or name.startswith("knn"):
            continue
        score = _score(make().fit(both_train, y), both_test)
        kept[f"{name} on words + chars"] = score
        yield Entry(f"{name} on words + chars", family, sample.assign(great=np.round(score, 8)))
    blends = {
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
    for label, names in blends.items():
        blend = rank_average([kept[n] for n in names])
        yield Entry(f"rank blend {label}", "ensemble", sample.assign(great=blend))


def _score(model: object, x_test: sparse.csr_matrix) -> np.ndarray:
    if hasattr(model, "predict_proba"):
        return np.asarray(model.predict_proba(x_test))[:, 1]
    return np.asarray(model.decision_function(x_test))  # type: ignore[attr-defined]


def _nb_logreg(
    x_train: sparse.csr_matrix, x_test: sparse.csr_matrix, y: np.ndarray, sample: object
) -> Entry:
    """Logistic regression on naive-Bayes log-count-ratio scaled binary features (NB-LR)."""
    binary_train, binary_test = (x_train > 0).astype(float), (x_test > 0).astype(float)
    positive = np.asarray(binary_train[y == 1].sum(axis=0)).ravel() + 1
    negative = np.asarray(binary_train[y == 0].sum(axis=0)).ravel() + 1
    ratio = np.log((positive / positive.sum()) / (negative / negative.sum()))
    scale = sparse.diags(ratio)
    model = LogisticRegression(C=4.0, max_iter=3000).fit(binary_train @ scale, y)
    score = model.predict_proba(binary_test @ scale)[:, 1]
    return Entry("nb-logreg on binary words", "linear", sample.assign(great=score))  # type: ignore[attr-defined]
