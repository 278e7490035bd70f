"""The image layout: a folder of images per split, read as small resized pixels, reduced by PCA,
then an RBF SVM (on a subsample sized to the time left) blended with gradient boosting."""

from __future__ import annotations

import logging
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from .features import Features
from .models import boosting, softmax_scores
from .search import choose_blend, class_scorer, clipped, holdout_split
from .targets import positive_class, restore_type
from .task import PROBABILITY_METRICS, Task

LOG = logging.getLogger("baseline")
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".bmp", ".gif", ".tif", ".tiff")


def has_images(folder: Path) -> bool:
    """Whether ``folder`` holds images (among its first 50 entries)."""
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
        task.env.elapsed(),
    )
    labels = task.train[label_column].astype(str)
    features = _image_features(x_train, x_test, task.seed)
    frame = Features(pd.DataFrame(features[0]), pd.DataFrame(features[1]), [])
    probabilities = fit_images(task, frame, labels)
    if task.metric in PROBABILITY_METRICS and len(task.targets) == 1:
        values = probabilities[positive_class(labels)].to_numpy()
    elif len(task.targets) > 1:
        return task.submission({c: probabilities[c].to_numpy() for c in task.targets})
    else:
        values = restore_type(probabilities.idxmax(axis=1).to_numpy(), task.train[label_column])
    return task.submission({task.targets[0]: values})


def _image_features(
    x_train: np.ndarray, x_test: np.ndarray, seed: int
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
        return softmax_scores(model, x_out, len(classes))

    builders = [("rbf svm", svm), ("gradient boosting", boosting(task, features, classify=True))]
    fit_rows, hold_rows = holdout_split(len(y), task.seed, labels)
    holdout = []
    for name, build in builders:
        holdout.append(clipped(build(fit_rows, hold_rows, y)))
        LOG.info("fitted %s on the fit part (%.0f s)", name, task.env.elapsed())
    score = class_scorer(task.metric, y[hold_rows], len(classes))
    weights = choose_blend(score, holdout, [n for n, _ in builders])
    everything = np.arange(len(y))
    test = [
        build(everything, None, y) if w > 0 else 0.0
        for (_, build), w in zip(builders, weights, strict=True)
    ]
    return pd.DataFrame(
        np.asarray(sum(w * p for w, p in zip(weights, test, strict=True))), columns=classes
    )
