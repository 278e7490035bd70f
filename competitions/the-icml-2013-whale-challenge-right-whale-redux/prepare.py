"""Prepare ``the-icml-2013-whale-challenge-right-whale-redux`` from Kaggle's files.

Kaggle's ``train2.zip`` (extracted to ``train2/``) holds four days of labelled two-second clips
named ``<YYYYMMDD>_<HHMMSS>_<offset>_TRAIN<n>_<label>.aif``; the labels of Kaggle's three test
days were never published, so ``test2/`` is not used. As in MLE-bench, the split is by day: the
first two days (by date) are the new train set and the last two the new test set, so scores
compare with published MLE-bench results. Within each part the clips are numbered again in file
name order (which is time order). Train clips keep their label suffix, the only place their
labels live (``..._TRAIN<i>_<label>.aif``); test clips lose it and become
``<YYYYMMDD>_<HHMMSS>_<offset>_Test<i>.aif``, as Kaggle named its test clips. Clips are placed by
hard link where possible, into ``public/train2/`` and ``public/test2/``.
"""

from __future__ import annotations

import re
from pathlib import Path

import pandas as pd

from pytest_mlebench.embedded import check_answers, require, write_csv
from pytest_mlebench.errors import PrepareError
from pytest_mlebench.placing import place_file

TRAIN_NAME = re.compile(r"^(?P<prefix>\d{8}_\d{6}_\d+s\d+ms_)TRAIN\d+_(?P<label>[01])\.aif$")
DAYS = 4
TRAIN_DAYS = 2
ID_COLUMN = "clip"
TARGET = "probability"


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split Kaggle's four training days into two train and two test days."""
    clips = _training_clips(raw / "train2")
    dates = sorted({name[:8] for name in clips})
    require(len(dates) == DAYS, f"train2/ has {len(dates)} days, expected {DAYS}: {dates}")
    train = sorted(name for name in clips if name[:8] in dates[:TRAIN_DAYS])
    test = sorted(name for name in clips if name[:8] in dates[TRAIN_DAYS:])
    for index, name in enumerate(train):
        match = clips[name]
        new_name = f"{match['prefix']}TRAIN{index}_{match['label']}.aif"
        place_file(raw / "train2" / name, public / "train2" / new_name)
    answers = []
    for index, name in enumerate(test):
        match = clips[name]
        new_name = f"{match['prefix']}Test{index}.aif"
        place_file(raw / "train2" / name, public / "test2" / new_name)
        answers.append({ID_COLUMN: new_name, TARGET: int(match["label"])})
    _write_answers(public, private, pd.DataFrame(answers, columns=[ID_COLUMN, TARGET]))


def _training_clips(folder: Path) -> dict[str, re.Match[str]]:
    """Each clip's file name with its parts; raises on a name of another form."""
    require(folder.is_dir(), f"{folder} is missing; is train2.zip in the download?")
    clips = {}
    for path in folder.iterdir():
        match = TRAIN_NAME.match(path.name)
        if match is None:
            raise PrepareError(f"train2/{path.name}: not a <date>_..._TRAIN<n>_<0|1>.aif")
        clips[path.name] = match
    return clips


def _write_answers(public: Path, private: Path, answers: pd.DataFrame) -> None:
    sample = answers.assign(**{TARGET: 0})
    check_answers(answers[[ID_COLUMN]], answers, sample, ID_COLUMN)
    require(answers[TARGET].nunique() == 2, "the test days need both whale calls and noise")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
