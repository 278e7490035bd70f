"""Kaggle's download of nfl-player-contact-detection: one zip of eight CSVs and two video folders.

``nfl-player-contact-detection.zip`` holds ``train_labels.csv`` (``contact_id, game_play,
datetime, step, nfl_player_id_1, nfl_player_id_2, contact``; ``nfl_player_id_2`` is ``G`` for
the ground), ``train_player_tracking.csv``, ``train_baseline_helmets.csv``,
``train_video_metadata.csv``, their ``test_`` counterparts for Kaggle's test plays,
``sample_submission.csv`` and ``train/`` / ``test/`` with three MP4 files per play (stand-in
bytes: the prepare only places them). Game plays are ``<game key>_<play id>``. The synthetic
contact follows the tracked distance of the two players, so the content predicts it.
"""

from __future__ import annotations

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "nfl-player-contact-detection"
GROUP_COLUMN = "game_play"
TRAIN_PLAYS, TEST_PLAYS = 20, 2
PLAYERS, STEPS = 4, 5
VIEWS = ("All29", "Endzone", "Sideline")


def _play(rng: np.random.Generator, play: str) -> tuple[pd.DataFrame, ...]:
    game_key, play_id = (int(part) for part in play.split("_"))
    players = rng.choice(np.arange(25_000, 55_000), PLAYERS, replace=False)
    labels, tracking, helmets = [], [], []
    for step in range(STEPS):
        when = f"2020-09-11T03:01:{48 + step // 10:02d}.{(step % 10) * 100:03d}Z"
        xy = {p: rng.uniform(0, 10, 2) for p in players}
        for player in players:
            x, y = xy[player]
            tracking.append(
                (play, game_key, play_id, player, step, str(rng.choice(["home", "away"])), "WR",
                 int(rng.integers(1, 99)), when, round(x, 2), round(y, 2), 1.5, 0.2, 90.0,
                 180.0, 0.5, 0.4)
            )  # fmt: skip
            helmets.append(
                (play, game_key, play_id, "Endzone", f"{play}_Endzone.mp4", step * 6, player,
                 f"H{player % 100}", 600, 20, 300, 22)
            )  # fmt: skip
        for i, first in enumerate(players):
            pairs = [(str(second), xy[first], xy[second]) for second in players[i + 1 :]]
            pairs.append(("G", xy[first], xy[first] + rng.uniform(0, 20, 2)))
            for second, a, b in pairs:
                contact = int(np.linalg.norm(a - b) < 2.5)
                labels.append(
                    (f"{play}_{step}_{first}_{second}", play, when, step, first, second, contact)
                )
    label_columns = [
        "contact_id",
        "game_play",
        "datetime",
        "step",
        "nfl_player_id_1",
        "nfl_player_id_2",
        "contact",
    ]
    tracking_columns = [
        "game_play",
        "game_key",
        "play_id",
        "nfl_player_id",
        "step",
        "team",
        "position",
        "jersey_number",
        "datetime",
        "x_position",
        "y_position",
        "speed",
        "distance",
        "direction",
        "orientation",
        "acceleration",
        "sa",
    ]
    helmet_columns = [
        "game_play",
        "game_key",
        "play_id",
        "view",
        "video",
        "frame",
        "nfl_player_id",
        "player_label",
        "left",
        "width",
        "top",
        "height",
    ]
    metadata = pd.DataFrame(
        [(play, game_key, play_id, view, "2020-09-11 03:01:43.134000+00:00",
          "2020-09-11 03:01:54.971000+00:00", "2020-09-11 03:01:48.134000+00:00")
         for view in ("Endzone", "Sideline")],
        columns=["game_play", "game_key", "play_id", "view", "start_time", "end_time", "snap_time"],
    )  # fmt: skip
    return (
        pd.DataFrame(labels, columns=label_columns),
        pd.DataFrame(tracking, columns=tracking_columns),
        pd.DataFrame(helmets, columns=helmet_columns),
        metadata,
    )


def make_download(folder: Path, rng: np.random.Generator) -> None:
    keys = np.sort(rng.choice(np.arange(58_000, 58_600), TRAIN_PLAYS + TEST_PLAYS, replace=False))
    plays = [f"{key}_{int(rng.integers(100, 4000)):06d}" for key in keys]
    parts = {"train": plays[:TRAIN_PLAYS], "test": plays[TRAIN_PLAYS:]}
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        for part, chosen in parts.items():
            tables = [
                pd.concat(frames, ignore_index=True)
                for frames in zip(*(_play(rng, p) for p in chosen), strict=True)
            ]
            labels, tracking, helmets, metadata = tables
            if part == "train":
                bundle.writestr("train_labels.csv", labels.to_csv(index=False))
            else:
                sample = pd.DataFrame({"contact_id": labels["contact_id"], "contact": 0})
                bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
            bundle.writestr(f"{part}_player_tracking.csv", tracking.to_csv(index=False))
            bundle.writestr(f"{part}_baseline_helmets.csv", helmets.to_csv(index=False))
            bundle.writestr(f"{part}_video_metadata.csv", metadata.to_csv(index=False))
            for play in chosen:
                for view in VIEWS:
                    bundle.writestr(
                        f"{part}/{play}_{view}.mp4", b"\x00\x00\x00\x18ftypmp42" + rng.bytes(32)
                    )


def public_train_labels(public: Path) -> pd.DataFrame:
    return pd.read_csv(public / "train_labels.csv", usecols=["contact_id", "contact"])


def group_values(public: Path) -> tuple[list[str], list[str]]:
    """The game plays of the public train labels and of the public test tracking."""
    train = pd.read_csv(public / "train_labels.csv", usecols=["game_play"], dtype=str)
    test = pd.read_csv(public / "test_player_tracking.csv", usecols=["game_play"], dtype=str)
    return train["game_play"].tolist(), test["game_play"].tolist()
