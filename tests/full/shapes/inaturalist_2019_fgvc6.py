"""Kaggle's download of inaturalist-2019-fgvc6: one zip of two tar.gz archives, JSON and a CSV.

``inaturalist-2019-fgvc6.zip`` holds ``train_val2019.tar.gz`` (``train_val2019/<super>/<cat>/
<hash>.jpg`` for the train and validation images), ``train2019.json`` and ``val2019.json``
(COCO style: ``info``, ``images``, ``annotations``, ``categories``, ``licenses``),
``test2019.tar.gz`` with ``test2019.json`` (images only) and ``kaggle_sample_submission.csv``.
Category sizes vary (one with a single image, some with two to four, most larger), so every
branch of the split runs. Images are stand-in JPEG bytes of one size; a category's images share
a byte pattern, so the content predicts the label and the file size does not.
"""

from __future__ import annotations

import io
import json
import tarfile
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "inaturalist-2019-fgvc6"
PUBLIC_JSON = False
SIZES = (1, 3, 4, 9, 12, 10, 9, 8)
SUPER = ("Plants", "Insects", "Birds", "Fungi")
BODY = 40
MTIME = 1_554_000_000


def _jpeg(rng: np.random.Generator, category: int) -> bytes:
    body = rng.integers(0, 100, BODY)
    body[::5] = 150 + category
    return b"\xff\xd8\xff\xe0" + body.astype(np.uint8).tobytes() + b"\xff\xd9"


def _tar_gz(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, data in files.items():
            info = tarfile.TarInfo(name)
            info.size, info.mtime = len(data), MTIME
            archive.addfile(info, io.BytesIO(data))
    return buffer.getvalue()


def _hash(rng: np.random.Generator) -> str:
    return "".join(f"{int(v):02x}" for v in rng.integers(0, 256, 16))


def make_download(folder: Path, rng: np.random.Generator) -> None:
    categories = [
        {"id": c, "name": f"Species {c}", "kingdom": "Plantae", "supercategory": SUPER[c % 4]}
        for c in range(len(SIZES))
    ]
    files: dict[str, bytes] = {}
    documents = {}
    image_id = 0
    for part, extra in (("train", 0), ("val", 1)):
        images, annotations = [], []
        for category, size in enumerate(SIZES):
            for _ in range(size if part == "train" else extra):
                name = f"train_val2019/{SUPER[category % 4]}/{category}/{_hash(rng)}.jpg"
                files[name] = _jpeg(rng, category)
                images.append({"id": image_id, "file_name": name, "width": 800, "height": 600,
                               "license": 1, "rights_holder": "someone"})  # fmt: skip
                annotations.append({"id": image_id, "image_id": image_id, "category_id": category})
                image_id += 1
        order = rng.permutation(len(images))  # Kaggle's JSON mixes the categories
        documents[part] = {
            "info": {"year": 2019, "version": "1.0", "description": "iNat2019"},
            "images": [images[i] for i in order],
            "annotations": [annotations[i] for i in order],
            "categories": categories,
            "licenses": [{"id": 1, "name": "CC BY 4.0", "url": "https://example.org"}],
        }
    test_names = [f"test2019/{_hash(rng)}.jpg" for _ in range(3)]
    test_doc = {
        "info": documents["train"]["info"],
        "images": [{"id": 900_000 + i, "file_name": n, "width": 800, "height": 600, "license": 1}
                   for i, n in enumerate(test_names)],
        "licenses": documents["train"]["licenses"],
    }  # fmt: skip
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train_val2019.tar.gz", _tar_gz(files))
        bundle.writestr("train2019.json", json.dumps(documents["train"]))
        bundle.writestr("val2019.json", json.dumps(documents["val"]))
        bundle.writestr("test2019.tar.gz", _tar_gz({n: _jpeg(rng, 0) for n in test_names}))
        bundle.writestr("test2019.json", json.dumps(test_doc))
        sample = pd.DataFrame({"id": [900_000 + i for i in range(3)], "predicted": 0})
        bundle.writestr("kaggle_sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    document = json.loads((public / "train2019.json").read_text("utf-8"))
    rows = [(a["image_id"], a["category_id"]) for a in document["annotations"]]
    return pd.DataFrame(rows, columns=["id", "predicted"])
