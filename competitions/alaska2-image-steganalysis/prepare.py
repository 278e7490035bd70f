"""Prepare ``alaska2-image-steganalysis`` from Kaggle's files.

Kaggle's test labels were never published, so a test set is made from the 75,000 training
covers as MLE-bench does: the sorted ``Cover/*.jpg`` paths go through scikit-learn's
``train_test_split(test_size=5000, random_state=42)``; the train covers, renumbered ``00001.jpg``
… in the split's order, are placed in ``public/Cover/`` with their three stego copies (same
name) in ``public/JMiPOD/``, ``public/JUNIWARD/`` and ``public/UERD/``. The test covers are
shuffled by Python's ``random.Random(0)`` (MLE-bench seeds the module generator with 0, the same
sequence), and for each, in that order, a fair coin from the same generator chooses the cover
itself (label 0) or a stego copy (label 1) by an algorithm drawn from it uniformly; the chosen
file becomes ``public/Test/0001.jpg`` …. So the same images, in the same order, with the same
labels, are held out, and scores compare with published MLE-bench results.

A smaller copy of the download (fewer covers) holds out the same share, one cover in 15. Files
are placed (linked or copied), never decoded. The sample submission predicts 0.
"""

from __future__ import annotations

import random
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import check_answers, raw_folder, require, write_csv
from pytest_mlebench.placing import place_file

ID, TARGET = "Id", "Label"
ALGORITHMS = ("JMiPOD", "JUNIWARD", "UERD")
KAGGLE_COVERS = 75_000
TEST_IMAGES = 5_000
SPLIT_SEED = 42
DRAW_SEED = 0


def test_size(covers: int) -> int:
    """5,000 test images of Kaggle's 75,000 covers; the same share of a smaller copy."""
    return TEST_IMAGES if covers >= KAGGLE_COVERS else max(1, covers * TEST_IMAGES // KAGGLE_COVERS)


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Hold out covers, draw cover or stego for each, place train and test images."""
    covers = sorted(raw_folder(raw / "Cover").glob("*.jpg"))
    require(len(covers) >= 15, f"{raw / 'Cover'} has {len(covers)} images; expected 75,000")
    for algorithm in ALGORITHMS:
        raw_folder(raw / algorithm)
    train, test = train_test_split(
        covers, test_size=test_size(len(covers)), random_state=SPLIT_SEED
    )
    for number, cover in enumerate(train, start=1):
        name = f"{number:05d}.jpg"
        place_file(cover, public / "Cover" / name)
        for algorithm in ALGORITHMS:
            place_file(raw / algorithm / cover.name, public / algorithm / name)
    draw = random.Random(DRAW_SEED)
    draw.shuffle(test)
    rows = []
    for number, cover in enumerate(test, start=1):
        name = f"{number:04d}.jpg"
        if draw.choice([True, False]):
            source, label = cover, 0
        else:
            source, label = raw / draw.choice(ALGORITHMS) / cover.name, 1
        place_file(source, public / "Test" / name)
        rows.append((name, label))
    answers = pd.DataFrame(rows, columns=[ID, TARGET])
    sample = answers.assign(**{TARGET: 0})
    check_answers(answers[[ID]], answers, sample, ID)
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
