"""Prepare ``fashion-mnist``: Zalando's Fashion-MNIST from the Debian package, as PNG files.

The original 60,000/10,000 split is kept. Every image is written as ``train/<id>.png`` or
``test/<id>.png`` (28x28, 8-bit grey) under a fresh random id, like an image competition on
Kaggle; ``train.csv`` maps train ids to labels.
"""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import numpy.typing as npt
import pandas as pd
from PIL import Image

from pytest_mlebench import embedded

DEBIAN_DIR = "/usr/share/datasets/fashion-mnist"
SHA256 = {
    "train-images-idx3-ubyte.gz": (
        "b0564c3eedabfbf835052cff8503ea422014ce006caf5b757f851416ee8300c7"
    ),
    "train-labels-idx1-ubyte.gz": (
        "0ae29f65d86684f32d1b9c85147786c547b9c6aebcaf235f0400a0cce308b056"
    ),
    "t10k-images-idx3-ubyte.gz": (
        "cc1d090a38ace84dfa1aa66e3ada7c336ef481a96936906477e6dd344da56eaa"
    ),
    "t10k-labels-idx1-ubyte.gz": (
        "8d3605d196f4be44669e46906da9733c8131fef761fdbfec72c424d5222f1a05"
    ),
}
SEED = 20_240_209
SIDE = 28


def source(name: str) -> embedded.BundledFile:
    """One of the four IDX files of the Debian package ``dataset-fashion-mnist``."""
    return embedded.BundledFile(
        distribution="dataset-fashion-mnist",
        relative_path=f"{DEBIAN_DIR}/{name}",
        sha256=SHA256[name],
        version="0.0~git20200523.55506a9-1",
        install="apt-get install -y dataset-fashion-mnist",
    )


def read_idx(name: str, header_bytes: int) -> npt.NDArray[np.uint8]:
    """The unsigned bytes of an IDX file after its header."""
    with gzip.open(source(name).locate(), "rb") as handle:
        return np.frombuffer(handle.read(), dtype=np.uint8, offset=header_bytes)


def load_part(part: str) -> tuple[npt.NDArray[np.uint8], npt.NDArray[np.uint8]]:
    """Images (n x 28 x 28) and labels (0-9) of the original ``train`` or ``t10k`` part."""
    images = read_idx(f"{part}-images-idx3-ubyte.gz", 16).reshape(-1, SIDE, SIDE)
    labels = read_idx(f"{part}-labels-idx1-ubyte.gz", 8)
    embedded.require(len(images) == len(labels), f"{part}: image and label counts differ")
    embedded.require(bool(labels.max() <= 9), f"{part}: labels must be 0-9")
    return images, labels


def write_images(folder: Path, ids: npt.NDArray[np.int64], images: npt.NDArray[np.uint8]) -> None:
    """One PNG per image, named by its id."""
    folder.mkdir(parents=True, exist_ok=True)
    for image_id, pixels in zip(ids.tolist(), images, strict=True):
        Image.fromarray(pixels).save(folder / f"{image_id}.png", optimize=False)


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Write the PNG folders, train/test/sample_submission CSVs, and the private answers."""
    train_images, train_labels = load_part("train")
    test_images, test_labels = load_part("t10k")
    rng = embedded.rng_for(SEED)
    ids = embedded.fresh_ids(len(train_images) + len(test_images), rng)
    train_ids, test_ids = ids[: len(train_images)], ids[len(train_images) :]
    train_order, test_order = rng.permutation(len(train_ids)), rng.permutation(len(test_ids))
    write_images(public / "train", train_ids, train_images)
    write_images(public / "test", test_ids, test_images)
    train = pd.DataFrame({"id": train_ids, "label": train_labels.astype("int64")})
    answers = pd.DataFrame({"id": test_ids, "label": test_labels.astype("int64")})
    train = train.iloc[train_order].reset_index(drop=True)
    answers = answers.iloc[test_order].reset_index(drop=True)
    embedded.write_prepared(
        public,
        private,
        train=train,
        test=answers[["id"]],
        answers=answers,
        sample=answers.assign(label=0),
    )
