"""Prepare ``nfl-player-contact-detection`` from Kaggle's files.

Kaggle's test contacts were never published, so the labelled plays are split again by
``game_play``, as MLE-bench does: the game plays in ``train_labels.csv``'s order of appearance
go through scikit-learn's ``train_test_split(test_size=0.1, random_state=0)``, so the same plays
are held out and scores compare with published MLE-bench results. Every per-play table (player
tracking, baseline helmet boxes, video metadata) is filtered by play into its ``train_`` and
``test_`` file, rows in Kaggle's order, and each play's three videos (``All29``, ``Endzone``,
``Sideline``) are placed under ``public/train/`` or ``public/test/``. Kaggle's own test plays are
not used. ``contact_id`` is Kaggle's (``<game_play>_<step>_<player>_<player or G>``); the test
pairs to predict are the sample submission's, which predicts no contact (0) everywhere.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import check_answers, raw_file, raw_folder, require, write_csv
from pytest_mlebench.placing import place_files

ID, GROUP, TARGET = "contact_id", "game_play", "contact"
LABELS = "train_labels.csv"
TABLES = ("player_tracking", "baseline_helmets", "video_metadata")
"""Kaggle's per-play tables, ``train_<name>.csv`` in the download."""
VIEWS = ("All29", "Endzone", "Sideline")
TEST_SIZE = 0.1
SEED = 0


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split the plays; filter every per-play table; place each play's videos on its side."""
    labels = pd.read_csv(raw_file(raw / LABELS), dtype={"nfl_player_id_2": str})
    for column in (ID, GROUP, TARGET):
        require(column in labels.columns, f"{LABELS} has no {column!r} column")
    require(labels[TARGET].isin([0, 1]).all(), f"{LABELS} 'contact' should hold only 0 and 1")
    plays = np.asarray(labels[GROUP].unique(), dtype=object)  # first-appearance order
    require(len(plays) >= 10, f"{LABELS} has {len(plays)} game plays; expected 240")
    train_plays, test_plays = train_test_split(plays, test_size=TEST_SIZE, random_state=SEED)
    in_test = labels[GROUP].isin(test_plays)
    train, answers = labels[~in_test], labels[in_test]
    sample = pd.DataFrame({ID: answers[ID], TARGET: 0})
    check_answers(answers[[ID]], answers, sample, ID)
    write_csv(train, public / LABELS)
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    for name in TABLES:
        table = pd.read_csv(raw_file(raw / f"train_{name}.csv"), dtype=str, keep_default_na=False)
        require(GROUP in table.columns, f"train_{name}.csv has no {GROUP!r} column")
        in_test_plays = table[GROUP].isin(test_plays)
        write_csv(table[~in_test_plays], public / f"train_{name}.csv")
        write_csv(table[in_test_plays], public / f"test_{name}.csv")
    videos = raw_folder(raw / "train")
    place_files(
        (videos / f"{play}_{view}.mp4", public / part / f"{play}_{view}.mp4")
        for part, chosen in (("train", train_plays), ("test", test_plays))
        for play in sorted(chosen)
        for view in VIEWS
    )
