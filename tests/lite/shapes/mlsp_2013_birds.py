"""Kaggle's download of mlsp-2013-birds: a documentation PDF and the nested dataset zip.

``mlsp-2013-birds.zip`` holds ``mlsp13birdchallenge_documentation.pdf`` and
``mlsp_contest_dataset.zip``, whose ``mlsp_contest_dataset/`` folder has ``README.txt``,
``essential_data/`` (``CVfolds_2.txt`` ``rec_id,fold``; ``rec_id2filename.txt``
``rec_id,filename``; ``rec_labels_test_hidden.txt`` with a ``rec_id,[labels]`` header and lines
``rec_id,species,…``, a bare ``rec_id`` for no species and ``rec_id,?`` for Kaggle's test;
``species_list.txt`` ``class_id,code,species``; ``sample_submission.csv`` in the old
``rec_id,species,probability`` form; ``src_wavs/<filename>.wav``, 16 kHz mono 16-bit) and
``supplemental_data/`` (per-recording BMP spectrograms in four folders, the last only for a few
training recordings, two shared BMPs and three segment tables keyed by ``rec_id``).

Each synthetic recording sums one tone per species present, so only the samples tell the
species; all recordings have the same length, so the same file size. The real clips last ten
seconds; these last 20 ms.
"""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from tests.lite.synthetic_media import wav_bytes

COMPETITION = "mlsp-2013-birds"
DATASET = "mlsp_contest_dataset"
SPECIES = 19
RATE = 16_000
SAMPLES = 320
TRAIN_RECORDINGS = 50
KAGGLE_TEST_RECORDINGS = 12
PRESENCE = 0.15
SEGMENTATION_EXAMPLES = 3
CODES = (
    "BRCR", "PAWR", "PSFL", "RBNU", "DEJU", "OSFL", "HETH", "CBCH", "VATH", "HEWA",
    "SWTH", "HAFL", "WETA", "BHGB", "GCKI", "WAVI", "MGWA", "STJA", "CONI",
)  # fmt: skip


def _recording(rng: np.random.Generator, species: list[int]) -> bytes:
    time = np.arange(SAMPLES) / RATE
    tones = sum((np.sin(2 * np.pi * (400 + 350 * n) * time) for n in species), np.zeros(SAMPLES))
    return wav_bytes(0.04 * tones + rng.normal(0.0, 0.01, SAMPLES), RATE)


def _bmp(pixels: np.ndarray) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(np.clip(pixels, 0, 255).astype(np.uint8)).save(buffer, format="BMP")
    return buffer.getvalue()


def _spectrogram(rng: np.random.Generator, species: list[int]) -> bytes:
    rows = np.full((SPECIES, 6), 20.0) + rng.normal(0.0, 5.0, size=(SPECIES, 6))
    rows[species] += 180.0
    return _bmp(rows[::-1])


def _labels_file(labels: dict[int, list[int] | None]) -> str:
    lines = ["rec_id,[labels]"]
    for rec_id, species in labels.items():
        values = ["?"] if species is None else [str(n) for n in species]
        lines.append(",".join([str(rec_id), *values]))
    return "\n".join(lines) + "\n"


def _segment_tables(rng: np.random.Generator, rec_ids: list[int]) -> dict[str, str]:
    histogram = ["rec_id,[histogram of segment features]"]
    features = ["rec_id,segment_id,[feature vector]"]
    rectangles = ["rec_id,segment_id,min_x,max_x,min_y,max_y,"]
    for rec_id in rec_ids:
        histogram.append(",".join([str(rec_id), *(f"{v:.6f}" for v in rng.dirichlet([1] * 4))]))
        for segment in range(int(rng.integers(0, 3))):
            values = ",".join(f"{v:.6f}" for v in rng.random(3))
            features.append(f"{rec_id},{segment},{values}")
            x, y = sorted(rng.integers(0, 1246, 2)), sorted(rng.integers(0, 256, 2))
            rectangles.append(f"{rec_id},{segment},{x[0]},{x[1]},{y[0]},{y[1]},")
    tables = {"histogram_of_segments": histogram, "segment_features": features}
    tables["segment_rectangles"] = rectangles
    return {f"{name}.txt": "\n".join(lines) + "\n" for name, lines in tables.items()}


def _dataset_zip(rng: np.random.Generator) -> bytes:
    count = TRAIN_RECORDINGS + KAGGLE_TEST_RECORDINGS
    folds = rng.permutation([0] * TRAIN_RECORDINGS + [1] * KAGGLE_TEST_RECORDINGS)
    names = [
        f"PC{rng.integers(1, 19)}_2009{rng.integers(5, 9):02d}{rng.integers(1, 29):02d}"
        f"_{rng.integers(0, 24):02d}0000_{n:04d}"
        for n in range(count)
    ]
    species = [[n for n in range(SPECIES) if rng.random() < PRESENCE] for _ in range(count)]
    labels = {r: (None if folds[r] else species[r]) for r in range(count)}
    test = [r for r in range(count) if folds[r]]
    old_sample = pd.DataFrame(
        [(r, n, 0) for r in test for n in range(SPECIES)],
        columns=["rec_id", "species", "probability"],
    )
    essential, supplemental = f"{DATASET}/essential_data", f"{DATASET}/supplemental_data"
    files = {
        f"{DATASET}/README.txt": "MLSP 2013 bird classification challenge data.\n",
        f"{essential}/CVfolds_2.txt": pd.DataFrame({"rec_id": range(count), "fold": folds}),
        f"{essential}/rec_id2filename.txt": pd.DataFrame(
            {"rec_id": range(count), "filename": names}
        ),
        f"{essential}/rec_labels_test_hidden.txt": _labels_file(labels),
        f"{essential}/species_list.txt": pd.DataFrame(
            {"class_id": range(SPECIES), "code": CODES, "species": [f"bird {c}" for c in CODES]}
        ),
        f"{essential}/sample_submission.csv": old_sample,
        f"{supplemental}/segment_clusters.bmp": _bmp(rng.integers(0, 255, size=(4, 4))),
        f"{supplemental}/segment_mosaic.bmp": _bmp(rng.integers(0, 255, size=(4, 4))),
    }
    for table, text in _segment_tables(rng, list(range(count))).items():
        files[f"{supplemental}/{table}"] = text
    examples = [r for r in range(count) if not folds[r]][:SEGMENTATION_EXAMPLES]
    for r, name in enumerate(names):
        files[f"{essential}/src_wavs/{name}.wav"] = _recording(rng, species[r])
        for folder in ("spectrograms", "filtered_spectrograms", "supervised_segmentation"):
            files[f"{supplemental}/{folder}/{name}.bmp"] = _spectrogram(rng, species[r])
        if r in examples:
            files[f"{supplemental}/segmentation_examples/{name}.bmp"] = _spectrogram(rng, [])
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as bundle:
        for path, content in files.items():
            if isinstance(content, pd.DataFrame):
                content = content.to_csv(index=False)
            bundle.writestr(path, content)
    return buffer.getvalue()


def make_download(folder: Path, rng: np.random.Generator) -> None:
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w") as bundle:
        bundle.writestr("mlsp13birdchallenge_documentation.pdf", b"%PDF-1.4\n%%EOF\n")
        bundle.writestr(f"{DATASET}.zip", _dataset_zip(rng))


def _essential(public: Path, name: str) -> pd.DataFrame:
    return pd.read_csv(public / "essential_data" / name, dtype={"filename": str})


def public_train_labels(public: Path) -> pd.DataFrame:
    text = (public / "essential_data" / "rec_labels_test_hidden.txt").read_text("utf-8")
    rows = []
    for line in text.splitlines()[1:]:
        rec_id, *species = line.split(",")
        if species != ["?"]:
            rows += [(int(rec_id) * 100 + n, int(str(n) in species)) for n in range(SPECIES)]
    return pd.DataFrame(rows, columns=["Id", "Probability"])


def _files(public: Path, fold: int) -> dict[str, Path]:
    folds = _essential(public, "CVfolds_2.txt")
    names = _essential(public, "rec_id2filename.txt").set_index("rec_id")["filename"]
    wavs = public / "essential_data" / "src_wavs"
    return {
        str(rec_id * 100 + n): wavs / f"{names[rec_id]}.wav"
        for rec_id in folds.loc[folds["fold"] == fold, "rec_id"]
        for n in range(SPECIES)
    }


def train_files(public: Path) -> dict[str, Path]:
    return _files(public, 0)


def test_files(public: Path) -> dict[str, Path]:
    return _files(public, 1)
