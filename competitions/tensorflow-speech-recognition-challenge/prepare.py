"""Prepare ``tensorflow-speech-recognition-challenge`` from Kaggle's ``train.7z``.

Kaggle's test labels were never published, so the labelled clips of ``train.7z`` are split again
as MLE-bench does: every ``train/audio/<folder>/<file>.wav`` (the noise recordings of
``_background_noise_`` included), sorted by ``"<folder>_<file>"``, through scikit-learn's
``train_test_split(test_size=0.1, random_state=0)``, so the same clips are held out and get the
same names (``clip_<8-digit index>.wav`` in the split's order) as in published MLE-bench runs.

The answers are Kaggle's 12 classes, which the task asks for: a command word's folder is its
class, ``_background_noise_`` is ``silence``, any other word is ``unknown``. MLE-bench's answers
are the raw folder names instead; they are kept as ``folder_label`` so that its number can be
recomputed beside ours (``original_grader`` in ``config.yaml``). ``train.7z`` is read with
``py7zr`` and unpacked once into ``raw/`` (a prepare run again finds it there).
"""

from __future__ import annotations

import lzma
from pathlib import Path

import pandas as pd
import py7zr
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import check_answers, raw_file, require, write_csv
from pytest_mlebench.errors import PrepareError
from pytest_mlebench.placing import place_file

ARCHIVE = "train.7z"
COMMANDS = ("yes", "no", "up", "down", "left", "right", "on", "off", "stop", "go")
NOISE = "_background_noise_"
ID, TARGET, FOLDER = "fname", "label", "folder_label"
TEST_SIZE = 0.1
SEED = 0


def kaggle_class(folder: str) -> str:
    """Kaggle's class of a clip from its folder: the command, ``silence`` or ``unknown``."""
    if folder in COMMANDS:
        return folder
    return "silence" if folder == NOISE else "unknown"


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split the clips 90/10 as MLE-bench; answers in Kaggle's 12 classes."""
    audio = _unpacked(raw)
    clips = sorted(audio.rglob("*.wav"), key=lambda path: f"{path.parent.name}_{path.name}")
    require(len(clips) >= 10, f"{audio} holds {len(clips)} clips; expected 64,727")
    train, test = train_test_split(clips, test_size=TEST_SIZE, random_state=SEED)
    for clip in train:
        place_file(clip, public / "train" / "audio" / clip.parent.name / clip.name)
    names = [f"clip_{index:08d}.wav" for index in range(len(test))]
    for clip, name in zip(test, names, strict=True):
        place_file(clip, public / "test" / "audio" / name)
    folders = [clip.parent.name for clip in test]
    answers = pd.DataFrame({ID: names, TARGET: [kaggle_class(f) for f in folders], FOLDER: folders})
    sample = pd.DataFrame({ID: names, TARGET: "silence"})
    check_answers(answers[[ID]], answers, sample, ID)
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")


def _unpacked(raw: Path) -> Path:
    """``raw/train/audio``, unpacking ``train.7z`` there first unless that was done before."""
    audio = raw / "train" / "audio"
    done = raw / "train" / ".unpacked"
    if not done.exists():
        archive = raw_file(raw / ARCHIVE)
        try:
            with py7zr.SevenZipFile(archive, "r") as bundle:
                bundle.extractall(path=raw)
        except (py7zr.exceptions.ArchiveError, lzma.LZMAError, EOFError) as exc:
            raise PrepareError(
                f"{archive} is damaged or not a 7z archive ({exc}); download it again"
            ) from None
        require(audio.is_dir(), f"{archive} holds no train/audio/ folder")
        done.write_text("ok\n")
    return audio
