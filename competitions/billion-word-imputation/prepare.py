"""Prepare ``billion-word-imputation`` from Kaggle's ``train_v2.txt``.

Kaggle's true test sentences were never published, so test sentences are drawn from
``train_v2.txt`` (30,301,028 tokenised sentences, one a line) exactly as MLE-bench draws them: one
``numpy.random.RandomState(0)`` serves the whole pass; for every line it draws ``uniform()``, and
a line with more than two words whose draw is at most 0.01 goes to test, where a second draw,
``randint(1, words - 1)``, picks the word removed (never the first or the last). So the same
sentences lose the same words as in published MLE-bench runs. Every other line stays in
``train_v2.txt`` unchanged and in order.

The file is streamed line by line (4.2 GB): memory stays flat. ``test_v2.txt`` is Kaggle's CSV
(``"id","sentence"``, ids numbered from 0), the sample submission is the same rows (no word put
back), and ``private/answers.csv`` holds the complete sentences.
"""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Any, TextIO

import numpy as np

from pytest_mlebench.embedded import raw_file, require

SOURCE = "train_v2.txt"
TEST_SHARE = 0.01
SEED = 0
HEADER = ("id", "sentence")


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Stream ``train_v2.txt``; draw test sentences and remove one inner word from each."""
    rng = np.random.RandomState(SEED)
    kept = drawn = 0
    with (
        open(raw_file(raw / SOURCE), encoding="utf-8") as source,
        open(public / SOURCE, "w", encoding="utf-8", newline="") as train,
        open(public / "test_v2.txt", "w", encoding="utf-8", newline="") as test_file,
        open(private / "answers.csv", "w", encoding="utf-8", newline="") as answer_file,
    ):
        test, answers = _writer(test_file), _writer(answer_file)
        test.writerow(HEADER)
        answers.writerow(HEADER)
        for line in source:
            words = line.split()
            if rng.uniform() <= TEST_SHARE and len(words) > 2:
                gap = int(rng.randint(1, len(words) - 1))
                test.writerow((drawn, " ".join(words[:gap] + words[gap + 1 :])))
                answers.writerow((drawn, line.strip()))
                drawn += 1
            else:
                train.write(line)
                kept += 1
    require(kept > 0 and drawn > 0, f"{SOURCE} gave {kept} train and {drawn} test sentences")
    (public / "sample_submission.csv").write_bytes((public / "test_v2.txt").read_bytes())


def _writer(stream: TextIO) -> Any:
    """Kaggle's quoting: text in double quotes (inner quotes doubled), ids bare."""
    return csv.writer(stream, quoting=csv.QUOTE_NONNUMERIC, lineterminator="\n")
