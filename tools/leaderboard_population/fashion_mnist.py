"""Reference population for ``fashion-mnist`` (accuracy): from constants to convolutional features.

Three tiers, weak to strong:

* rules and scikit-learn models on the raw pixels and on 50 principal components, each trained on
  nested subsamples of 1,000 to 20,000 of the 60,000 training images: the slow ones (forests,
  boosting, the RBF SVM, the MLP) would take many minutes each on all of them;
* ridge classifiers on hand-made image features: histograms of oriented gradients (signed, 4-pixel
  cells, 2x2-cell blocks) and a single-layer convolutional feature network (Coates, Lee & Ng
  2011: 64 k-means filters learned on whitened 5x5 or 7x7 patches, rectified in both polarities,
  sum-pooled over a 4x4 grid, square-rooted). The features are computed once for all 70,000
  images (unsupervised, from the images alone); the classifiers use 1,000 to 60,000 labelled
  images and are solved from their normal equations, seconds where logistic regression or an SVM
  on 60,000 rows would take minutes. One Gram matrix over all feature blocks serves every model
  fitted on all 60,000 images;
* blends of the strong models: unions of feature sets, averaged scores, a majority vote, and a
  union whose ridge penalty is chosen on a held-out part of train.

Every hyperparameter is fixed (the feature settings and the fixed ridge penalty were set on a
split of train while writing this) or chosen inside the entry on a split of train.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import scipy.linalg
from PIL import Image
from sklearn.cluster import MiniBatchKMeans
from sklearn.decomposition import PCA
from sklearn.ensemble import (
    ExtraTreesClassifier,
    HistGradientBoostingClassifier,
    RandomForestClassifier,
)
from sklearn.linear_model import LogisticRegression
from sklearn.naive_bayes import GaussianNB
from sklearn.neighbors import KNeighborsClassifier, NearestCentroid
from sklearn.neural_network import MLPClassifier
from sklearn.svm import SVC
from sklearn.tree import DecisionTreeClassifier

from leaderboard_population.common import Entry, subsample

Model = tuple[str, Callable[[int], Any]]
PIXEL_MODELS: dict[str, Model] = {
    "nearest centroid": ("rule", lambda s: NearestCentroid()),
    "gaussian naive bayes": ("naive bayes", lambda s: GaussianNB()),
    "tree depth=10": (
        "decision tree",
        lambda s: DecisionTreeClassifier(max_depth=10, random_state=s),
    ),
    "logreg C=0.1": ("linear", lambda s: LogisticRegression(C=0.1, max_iter=300)),
    "mlp 256 hidden": (
        "neural network",
        lambda s: MLPClassifier((256,), max_iter=40, early_stopping=True, random_state=s),
    ),
}
PCA_MODELS: dict[str, Model] = {
    "knn k=5": ("knn", lambda s: KNeighborsClassifier(5)),
    "random forest 200": (
        "forest",
        lambda s: RandomForestClassifier(200, random_state=s, n_jobs=1),
    ),
    "extra trees 300": ("forest", lambda s: ExtraTreesClassifier(300, random_state=s, n_jobs=1)),
    "hgb 200": (
        "gradient boosting",
        lambda s: HistGradientBoostingClassifier(max_iter=200, random_state=s),
    ),
    "svm rbf C=10": ("svm", lambda s: SVC(C=10.0, gamma="scale")),
}
SIZES = (1_000, 3_000, 10_000, 20_000)
SUBSAMPLE = 20_000
VOTERS = ("svm", "knn", "neural network", "gradient boosting")
CLASSES = 10

# Convolutional features: filters per bank, pooling grid, patches and images k-means learns from.
FILTERS = 64
POOL_GRID = 4
KMEANS_IMAGES = 3_000
KMEANS_PATCHES = 100_000
CHUNK = 500  # images per convolution step
DESIGN_CHUNK = 5_000  # rows per step of the normal equations
# Feature blocks, in the column order of the design matrix (after a constant column).
CONV5, CONV7, HOG, PIXELS = "k-means 5x5 conv", "k-means 7x7 conv", "hog", "pixels"
BLOCKS = (CONV5, CONV7, HOG, PIXELS)
RIDGE_ALPHA = 100.0
ALPHA_GRID = (1.0, 10.0, 100.0, 1000.0)
HOLDOUT = 10_000
SUBSET_RIDGES = (
    ((CONV5,), SIZES),
    ((CONV7,), (10_000,)),
    ((HOG,), (3_000,)),
    ((HOG, PIXELS), (10_000,)),
)
FULL_RIDGES = ((PIXELS,), (HOG,), (HOG, PIXELS), (CONV5,), (CONV7,), (CONV5, CONV7))
TUNED_UNION = (CONV5, CONV7, HOG)
BLEND = ((CONV5,), (CONV7,), (HOG, PIXELS))


def read_images(folder: Path, ids: pd.Series) -> np.ndarray:
    """The images as an ``(n, 28, 28)`` float32 array scaled to [0, 1]."""
    rows = []
    for image_id in ids:
        with Image.open(folder / f"{image_id}.png") as image:
            rows.append(np.asarray(image, dtype=np.float32) / 255.0)
    return np.stack(rows)


def entries(public: Path) -> Iterator[Entry]:
    """Yield every reference submission for ``fashion-mnist``."""
    train = pd.read_csv(public / "train.csv")
    sample = pd.read_csv(public / "sample_submission.csv")
    images = read_images(public / "train", train["id"])
    test_images = read_images(public / "test", sample["id"])
    labels = train["label"].to_numpy()
    keep = subsample(len(train), SUBSAMPLE / len(train), 0)
    yield Entry("all class 0", "constant", sample)
    x_train = images[keep].reshape(len(keep), -1)
    x_test = test_images.reshape(len(test_images), -1)
    votes: dict[str, np.ndarray] = {}
    yield from _subsample_entries(sample, x_train, labels[keep], x_test, votes)
    features = FeatureSet.build(images, test_images)
    yield from _feature_entries(sample, features, labels, keep, votes)


def _subsample_entries(
    sample: pd.DataFrame,
    x_train: np.ndarray,
    y: np.ndarray,
    x_test: np.ndarray,
    votes: dict[str, np.ndarray],
) -> Iterator[Entry]:
    """Rules and scikit-learn models on nested subsamples; fills ``votes`` at full size."""
    brightness = x_train.mean(axis=1)
    by_bin = (
        pd.Series(y)
        .groupby(np.digitize(brightness, np.linspace(0, 0.6, 13)))
        .agg(lambda s: s.mode().iloc[0])
    )
    test_bin = np.digitize(x_test.mean(axis=1), np.linspace(0, 0.6, 13))
    guess = pd.Series(test_bin).map(by_bin).fillna(0).astype(int)
    yield Entry("most common label by brightness", "rule", sample.assign(label=guess))
    pca = PCA(50, random_state=0).fit(x_train[:10_000])
    p_train, p_test = pca.transform(x_train), pca.transform(x_test)
    for models, (xt, xs), label in (
        (PIXEL_MODELS, (x_train, x_test), "pixels"),
        (PCA_MODELS, (p_train, p_test), "50 principal components"),
    ):
        for name, (family, make) in models.items():
            for size in SIZES:
                if size == SUBSAMPLE and name in ("tree depth=10", "gaussian naive bayes"):
                    continue
                fit = np.arange(size)
                predicted = make(0).fit(xt[fit], y[fit]).predict(xs)
                if size == SUBSAMPLE and family in VOTERS:
                    votes[family] = predicted
                yield Entry(f"{name} on {label}, {size} images", family, _submit(sample, predicted))
    voters = [votes[family] for family in VOTERS]
    yield Entry(
        "majority vote svm + knn + mlp + hgb, 20000 images", "ensemble", _majority(sample, voters)
    )


def _feature_entries(
    sample: pd.DataFrame,
    features: FeatureSet,
    labels: np.ndarray,
    keep: np.ndarray,
    votes: dict[str, np.ndarray],
) -> Iterator[Entry]:
    """Ridge classifiers on image features, their blends, and a tuned union."""
    for blocks, sizes in SUBSET_RIDGES:
        for size in sizes:
            rows = keep[:size]
            normal = NormalEquations.of(features.train_chunks(blocks, rows), labels[rows])
            scores = features.test_design(blocks) @ normal.solve(RIDGE_ALPHA)
            yield _ridge_entry(sample, blocks, size, scores)
    order = np.random.default_rng(1).permutation(len(labels))
    hold, fit = np.sort(order[:HOLDOUT]), np.sort(order[HOLDOUT:])
    on_fit = NormalEquations.of(features.train_chunks(BLOCKS, fit), labels[fit])
    on_hold = NormalEquations.of(features.train_chunks(BLOCKS, hold), labels[hold])
    alpha = _tuned_alpha(
        on_fit.select(features.columns(TUNED_UNION)),
        features.train_design(TUNED_UNION, hold),
        labels[hold],
    )
    everything = on_fit + on_hold
    del on_fit, on_hold
    full: dict[tuple[str, ...], np.ndarray] = {}
    for blocks in FULL_RIDGES:
        weights = everything.select(features.columns(blocks)).solve(RIDGE_ALPHA)
        full[blocks] = features.test_design(blocks) @ weights
        yield _ridge_entry(sample, blocks, len(labels), full[blocks])
    yield from _blends(sample, [full[blocks] for blocks in BLEND], votes)
    weights = everything.select(features.columns(TUNED_UNION)).solve(alpha)
    union = features.test_design(TUNED_UNION) @ weights
    yield Entry(
        f"ridge on {' + '.join(TUNED_UNION)} features, alpha={alpha:g} chosen on a "
        f"{HOLDOUT}-image holdout of train, {len(labels)} images",
        "ensemble",
        _submit(sample, union.argmax(axis=1)),
    )


def _blends(
    sample: pd.DataFrame, scores: Sequence[np.ndarray], votes: dict[str, np.ndarray]
) -> Iterator[Entry]:
    """Averaged standardised scores of the ``BLEND`` ridges, and their vote with svm + mlp."""
    members = ", ".join(" + ".join(blocks) for blocks in BLEND)
    average = np.mean([(s - s.mean()) / s.std() for s in scores], axis=0)
    yield Entry(
        f"mean of standardised ridge scores on {members} features, 60000 images",
        "ensemble",
        _submit(sample, average.argmax(axis=1)),
    )
    predictions = [s.argmax(axis=1) for s in scores] + [votes["svm"], votes["neural network"]]
    yield Entry(
        f"majority vote: ridges on {members} features (60000 images) + svm + mlp (20000 images)",
        "ensemble",
        _majority(sample, predictions),
    )


def _tuned_alpha(
    normal: NormalEquations, hold_design: np.ndarray, hold_labels: np.ndarray
) -> float:
    """The ridge penalty of ``ALPHA_GRID`` most accurate on the held-out rows."""
    accuracy = [
        float(np.mean((hold_design @ normal.solve(alpha)).argmax(axis=1) == hold_labels))
        for alpha in ALPHA_GRID
    ]
    return ALPHA_GRID[int(np.argmax(accuracy))]


def _ridge_entry(
    sample: pd.DataFrame, blocks: Sequence[str], size: int, scores: np.ndarray
) -> Entry:
    family = "linear"
    if CONV5 in blocks or CONV7 in blocks:
        family = "conv features"
    elif HOG in blocks:
        family = "hog features"
    return Entry(
        f"ridge alpha={RIDGE_ALPHA:g} on {' + '.join(blocks)} features, {size} images",
        family,
        _submit(sample, scores.argmax(axis=1)),
    )


def _submit(sample: pd.DataFrame, predicted: np.ndarray) -> pd.DataFrame:
    return sample.assign(label=np.asarray(predicted).astype(int))


def _majority(sample: pd.DataFrame, predictions: Sequence[np.ndarray]) -> pd.DataFrame:
    vote = pd.DataFrame(np.stack(predictions)).mode(axis=0).iloc[0].to_numpy()
    return _submit(sample, vote)


@dataclass(frozen=True)
class FeatureSet:
    """Standardised feature blocks of the train and test images (float32, one row an image)."""

    train: dict[str, np.ndarray]
    test: dict[str, np.ndarray]

    @classmethod
    def build(cls, images: np.ndarray, test_images: np.ndarray) -> FeatureSet:
        """Every block of ``BLOCKS``, standardised with the train images' statistics."""
        train: dict[str, np.ndarray] = {}
        test: dict[str, np.ndarray] = {}
        for name, seed, size in ((CONV5, 0, 5), (CONV7, 1, 7)):
            filters = learn_filters(images, size, seed)
            train[name] = conv_features(images, filters, size)
            test[name] = conv_features(test_images, filters, size)
        train[HOG], test[HOG] = hog_features(images), hog_features(test_images)
        train[PIXELS] = images.reshape(len(images), -1)
        test[PIXELS] = test_images.reshape(len(test_images), -1)
        for name in BLOCKS:
            train[name], test[name] = _standardize(train[name], test[name])
        return cls(train, test)

    def columns(self, blocks: Sequence[str]) -> np.ndarray:
        """Columns of ``blocks`` (and the constant column 0) in the design of all ``BLOCKS``."""
        picked, start = [np.arange(1)], 1
        for name in BLOCKS:
            width = self.train[name].shape[1]
            if name in blocks:
                picked.append(np.arange(start, start + width))
            start += width
        return np.concatenate(picked)

    def train_design(self, blocks: Sequence[str], rows: np.ndarray) -> np.ndarray:
        return _design([self.train[name][rows] for name in BLOCKS if name in blocks])

    def train_chunks(self, blocks: Sequence[str], rows: np.ndarray) -> Iterator[np.ndarray]:
        """Design matrix of ``blocks`` on the train ``rows``, a chunk of rows at a time."""
        for start in range(0, len(rows), DESIGN_CHUNK):
            part = rows[start : start + DESIGN_CHUNK]
            yield self.train_design(blocks, part)

    def test_design(self, blocks: Sequence[str]) -> np.ndarray:
        return _design([self.test[name] for name in BLOCKS if name in blocks])


def _design(blocks: Sequence[np.ndarray]) -> np.ndarray:
    return np.hstack([np.ones((len(blocks[0]), 1), np.float32), *blocks])


def _standardize(train: np.ndarray, test: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    mean, std = train.mean(axis=0), train.std(axis=0)
    std[std == 0] = 1.0
    return ((train - mean) / std).astype(np.float32), ((test - mean) / std).astype(np.float32)


@dataclass(frozen=True)
class NormalEquations:
    """``X'X`` and ``X'Y`` (float64) of a design ``X`` and one-hot labels ``Y``."""

    gram: np.ndarray
    moment: np.ndarray

    @classmethod
    def of(cls, design: Iterator[np.ndarray], labels: np.ndarray) -> NormalEquations:
        """Accumulated over the chunks of ``design``, whose rows follow ``labels``."""
        gram: np.ndarray | None = None
        moment: np.ndarray | None = None
        start = 0
        for chunk in design:
            one_hot = np.eye(CLASSES, dtype=np.float32)[labels[start : start + len(chunk)]]
            start += len(chunk)
            g, m = (chunk.T @ chunk).astype(np.float64), (chunk.T @ one_hot).astype(np.float64)
            gram, moment = (g, m) if gram is None or moment is None else (gram + g, moment + m)
        if gram is None or moment is None:
            raise ValueError("an empty design")
        return cls(gram, moment)

    def __add__(self, other: NormalEquations) -> NormalEquations:
        return NormalEquations(self.gram + other.gram, self.moment + other.moment)

    def select(self, columns: np.ndarray) -> NormalEquations:
        return NormalEquations(self.gram[np.ix_(columns, columns)], self.moment[columns])

    def solve(self, alpha: float) -> np.ndarray:
        """Ridge weights (float32); column 0 is the unpenalised intercept."""
        penalty = np.full(len(self.gram), alpha)
        penalty[0] = 0.0
        weights = scipy.linalg.solve(self.gram + np.diag(penalty), self.moment, assume_a="pos")
        return np.asarray(weights, dtype=np.float32)


def learn_filters(images: np.ndarray, size: int, seed: int) -> np.ndarray:
    """``FILTERS`` k-means centroids of whitened ``size``x``size`` patches, as a linear map.

    The result maps a contrast-normalised patch with a trailing 1 (see ``_patch_matrix``) to
    the filter responses: whitening, centring and the centroids folded into one matrix.
    """
    rng = np.random.default_rng(seed)
    chosen = images[rng.choice(len(images), KMEANS_IMAGES, replace=False)]
    patches = _patch_matrix(chosen, size)[:-1].T
    patches = patches[rng.choice(len(patches), KMEANS_PATCHES, replace=False)]
    mean = patches.mean(axis=0)
    values, vectors = np.linalg.eigh(np.cov(patches - mean, rowvar=False))
    whiten = (vectors / np.sqrt(values + 0.1)) @ vectors.T
    kmeans = MiniBatchKMeans(FILTERS, random_state=seed, n_init=1, batch_size=4096)
    centroids = kmeans.fit((patches - mean) @ whiten).cluster_centers_
    centroids /= np.linalg.norm(centroids, axis=1, keepdims=True) + 1e-8
    weights = whiten @ centroids.T
    return np.vstack([weights, -(mean @ weights)]).astype(np.float32)


def conv_features(images: np.ndarray, filters: np.ndarray, size: int) -> np.ndarray:
    """Square roots of the rectified responses (both signs) sum-pooled over a grid of cells."""
    side = images.shape[1] - size + 1
    pool = _pooling_matrix(side, POOL_GRID).T
    parts = []
    for start in range(0, len(images), CHUNK):
        chunk = images[start : start + CHUNK]
        patches = _patch_matrix(chunk, size)
        response = filters.T @ patches
        np.maximum(response, 0.0, out=response)
        positive = (response.reshape(-1, side * side) @ pool).reshape(FILTERS, len(chunk), -1)
        # Pooled max(-r, 0) is pooled max(r, 0) minus pooled r, and pooling r is linear.
        pooled = (patches.reshape(-1, side * side) @ pool).reshape(len(filters), -1)
        negative = positive - (filters.T @ pooled).reshape(positive.shape)
        both = np.concatenate([positive, negative]).transpose(1, 0, 2).reshape(len(chunk), -1)
        parts.append(np.sqrt(np.maximum(both, 0.0)))
    return np.concatenate(parts)


def _patch_matrix(images: np.ndarray, size: int) -> np.ndarray:
    """Every ``size``x``size`` patch as a column, contrast-normalised, with a row of ones last."""
    count, side = len(images), images.shape[1] - size + 1
    patches = np.empty((size * size + 1, count, side, side), np.float32)
    for k in range(size * size):
        row, col = divmod(k, size)
        patches[k] = images[:, row : row + side, col : col + side]
    mean = _box_sum(images, size) / size**2
    variance = _box_sum(images * images, size) / size**2 - mean * mean
    patches[:-1] -= mean
    patches[:-1] /= np.sqrt(np.maximum(variance, 0.0) + 0.01)
    patches[-1] = 1.0
    return patches.reshape(size * size + 1, -1)


def _box_sum(images: np.ndarray, size: int) -> np.ndarray:
    """Sum of every ``size``x``size`` window (an integral image)."""
    count, height, width = images.shape
    total = np.zeros((count, height + 1, width + 1), np.float32)
    total[:, 1:, 1:] = images.cumsum(axis=1).cumsum(axis=2)
    window: np.ndarray = total[:, size:, size:] - total[:, :-size, size:]
    return window - total[:, size:, :-size] + total[:, :-size, :-size]


def _pooling_matrix(side: int, grid: int) -> np.ndarray:
    """``(grid * grid, side * side)``: 1 where a position falls in a cell of the grid."""
    cell = np.minimum(np.arange(side) * grid // side, grid - 1)
    index = (cell[:, None] * grid + cell[None, :]).ravel()
    member: np.ndarray = np.arange(grid * grid)[:, None] == index[None, :]
    return member.astype(np.float32)


def hog_features(images: np.ndarray) -> np.ndarray:
    """Histograms of signed gradient orientations per cell, L2-Hys-normalised in 2x2 blocks."""
    steps = range(0, len(images), DESIGN_CHUNK)
    return np.concatenate([_hog(images[start : start + DESIGN_CHUNK]) for start in steps])


def _hog(images: np.ndarray, cell: int = 4, bins: int = 12) -> np.ndarray:
    count, side = len(images), images.shape[1] // cell
    dx, dy = np.zeros_like(images), np.zeros_like(images)
    dx[:, :, 1:-1] = images[:, :, 2:] - images[:, :, :-2]
    dy[:, 1:-1] = images[:, 2:] - images[:, :-2]
    magnitude = np.hypot(dx, dy)
    position = (np.arctan2(dy, dx) / (2 * np.pi) * bins) % bins
    lower = np.floor(position)
    upper_share = position - lower
    low = lower.astype(np.int64) % bins
    cells = np.minimum(np.arange(images.shape[1]) // cell, side - 1)
    base = (np.arange(count)[:, None, None] * side + cells[:, None]) * side + cells[None, :]
    base = base * bins
    length = count * side * side * bins
    histogram = np.bincount(
        (base + low).ravel(), (magnitude * (1 - upper_share)).ravel(), length
    ) + np.bincount((base + (low + 1) % bins).ravel(), (magnitude * upper_share).ravel(), length)
    h = histogram.reshape(count, side, side, bins).astype(np.float32)
    blocks = np.concatenate([h[:, :-1, :-1], h[:, 1:, :-1], h[:, :-1, 1:], h[:, 1:, 1:]], axis=-1)
    for clip in (0.2, None):
        blocks /= np.sqrt((blocks**2).sum(axis=-1, keepdims=True) + 1e-3)
        if clip is not None:
            np.minimum(blocks, clip, out=blocks)
    return blocks.reshape(count, -1)
