"""Prepare ``3d-object-detection-for-autonomous-vehicles`` from Kaggle's files.

Kaggle's test annotations were never published, so the labelled part is split again as MLE-bench
does: the log tokens of ``train_data/log.json``, in file order, go through scikit-learn's
``train_test_split(test_size=0.2, random_state=0)`` (one log is one scene, about 25 s of driving;
samples of a scene are too alike to split apart), so the same logs are held out and scores compare
with published MLE-bench results. Everything follows the logs: scenes by ``log_token``, samples by
their scene's log, ``sample_data`` by sample, calibrations and ego poses by the sample data that
use them; ``map.json``'s one map lists each side's own logs. ``sample_annotation.json`` and
``instance.json`` go to ``train_data/`` only, as in Kaggle's ``test_data/``; attribute, category,
sensor and visibility tables are copied to both sides. Each lidar sweep (``.bin``) and camera image
(``.jpeg``) is placed unchanged — linked or copied, never decoded — under ``train_lidar/``,
``test_lidar/``, ``train_images/`` or ``test_images/``; the map raster goes to both ``*_maps/``.
Public ``train.csv`` keeps the train samples' rows. The answers are the test samples' rows of
``train.csv`` with confidence ``1.0`` put before each box (submission form, nine tokens a box); the
sample submission lists the test samples with an empty ``PredictionString``, as Kaggle's.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pandas as pd
from sklearn.model_selection import train_test_split

from pytest_mlebench.embedded import (
    check_answers,
    check_disjoint_ids,
    raw_file,
    raw_folder,
    require,
    write_csv,
)
from pytest_mlebench.placing import place_file, place_files

ID, TARGET = "Id", "PredictionString"
TEST_SIZE = 0.2
SEED = 0
FIELDS = 8
COPIED = ("attribute.json", "category.json", "sensor.json", "visibility.json")
FOLDER_OF_FORMAT = {"bin": "lidar", "jpeg": "images"}
Record = dict[str, Any]


def _table(raw: Path, name: str) -> list[Record]:
    with raw_file(raw / "train_data" / name).open(encoding="utf-8") as handle:
        records: list[Record] = json.load(handle)
    return records


def _write(records: object, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(records), encoding="utf-8")


def _referenced(records: list[Record], tokens: Iterable[str]) -> list[Record]:
    """The records with the given tokens, once each, in the order they are first referenced."""
    by_token = {record["token"]: record for record in records}
    unique = dict.fromkeys(tokens)
    missing = [token for token in unique if token not in by_token]
    require(not missing, f"{len(missing)} referenced tokens are missing, e.g. {missing[:1]}")
    return [by_token[token] for token in unique]


def _with_confidence(cell: str) -> str:
    """``center_x … class_name`` groups of eight as submission groups of nine (confidence 1.0)."""
    tokens = cell.split()
    require(len(tokens) % FIELDS == 0, f"a train.csv cell has {len(tokens)} values, not 8 a box")
    groups = [tokens[start : start + FIELDS] for start in range(0, len(tokens), FIELDS)]
    return " ".join(" ".join(["1.0", *group]) for group in groups)


def _split_logs(raw: Path) -> tuple[list[str], list[str]]:
    logs = _table(raw, "log.json")
    tokens = [log["token"] for log in logs]
    require(len(tokens) == len(set(tokens)), "log tokens are not unique")
    require(len(tokens) >= 5, f"log.json has {len(tokens)} logs; expected 180")
    train, test = train_test_split(tokens, test_size=TEST_SIZE, random_state=SEED)
    return list(train), list(test)


def _side_of_sample(raw: Path, train_logs: list[str]) -> dict[str, str]:
    """``train`` or ``test`` for every sample token, through its scene's log."""
    scene_log = {scene["token"]: scene["log_token"] for scene in _table(raw, "scene.json")}
    chosen = set(train_logs)
    side = {}
    for sample in _table(raw, "sample.json"):
        log = scene_log.get(sample["scene_token"])
        require(log is not None, f"sample {sample['token']} names an unknown scene")
        side[sample["token"]] = "train" if log in chosen else "test"
    return side


def _write_tables(
    raw: Path, public: Path, logs: dict[str, list[str]], side: dict[str, str]
) -> list[Record]:
    """Split every JSON table by side into ``public/{train,test}_data/``; return sample data."""
    sample_data = _table(raw, "sample_data.json")
    unknown = [datum["token"] for datum in sample_data if datum["sample_token"] not in side]
    require(not unknown, f"{len(unknown)} sample_data records name no known sample")
    calibrations, poses = _table(raw, "calibrated_sensor.json"), _table(raw, "ego_pose.json")
    tables = {
        "log.json": _table(raw, "log.json"),
        "scene.json": _table(raw, "scene.json"),
        "sample.json": _table(raw, "sample.json"),
    }
    annotations = _table(raw, "sample_annotation.json")
    instances = _table(raw, "instance.json")
    (only_map,) = _table(raw, "map.json")
    for name in ("train", "test"):
        folder = public / f"{name}_data"
        chosen = set(logs[name])
        data = [datum for datum in sample_data if side[datum["sample_token"]] == name]
        _write([log for log in tables["log.json"] if log["token"] in chosen], folder / "log.json")
        scenes = [scene for scene in tables["scene.json"] if scene["log_token"] in chosen]
        _write(scenes, folder / "scene.json")
        samples = [sample for sample in tables["sample.json"] if side[sample["token"]] == name]
        _write(samples, folder / "sample.json")
        _write(data, folder / "sample_data.json")
        used = (datum["calibrated_sensor_token"] for datum in data)
        _write(_referenced(calibrations, used), folder / "calibrated_sensor.json")
        _write(
            _referenced(poses, (datum["ego_pose_token"] for datum in data)),
            folder / "ego_pose.json",
        )
        _write([{**only_map, "log_tokens": logs[name]}], folder / "map.json")
        for copied in COPIED:
            place_file(raw_file(raw / "train_data" / copied), folder / copied)
        if name == "train":
            own = [note for note in annotations if side.get(note["sample_token"]) == "train"]
            _write(own, folder / "sample_annotation.json")
            objects = (note["instance_token"] for note in own)
            _write(_referenced(instances, objects), folder / "instance.json")
    return sample_data


def _place_media(raw: Path, public: Path, sample_data: list[Record], side: dict[str, str]) -> None:
    """Each lidar sweep and image by its sample's side; the map rasters to both sides."""
    pairs = []
    for datum in sample_data:
        kind = FOLDER_OF_FORMAT.get(datum["fileformat"])
        require(kind is not None, f"sample_data has the file format {datum['fileformat']!r}")
        name = Path(datum["filename"]).name
        source = raw_folder(raw / f"train_{kind}") / name
        pairs.append((source, public / f"{side[datum['sample_token']]}_{kind}" / name))
    place_files(pairs)
    for raster in sorted(raw_folder(raw / "train_maps").iterdir()):
        for name in ("train", "test"):
            place_file(raster, public / f"{name}_maps" / raster.name)


def prepare(raw: Path, public: Path, private: Path) -> None:
    """Split by log; write both sides' tables, train.csv, the answers; place the media."""
    rows = pd.read_csv(raw_file(raw / "train.csv"), dtype=str, keep_default_na=False)
    require(list(rows.columns) == [ID, TARGET], f"train.csv columns are {list(rows.columns)}")
    train_logs, test_logs = _split_logs(raw)
    side = _side_of_sample(raw, train_logs)
    require(set(rows[ID]) == set(side), "train.csv's Ids are not sample.json's sample tokens")
    is_test = rows[ID].map(side) == "test"
    train, test = rows[~is_test], rows[is_test]
    answers = pd.DataFrame({ID: test[ID], TARGET: test[TARGET].map(_with_confidence)})
    sample = pd.DataFrame({ID: test[ID], TARGET: ""})
    check_disjoint_ids(train[ID], test[ID])
    check_answers(test[[ID]], answers, sample, ID)
    sample_data = _write_tables(raw, public, {"train": train_logs, "test": test_logs}, side)
    write_csv(train, public / "train.csv")
    write_csv(sample, public / "sample_submission.csv")
    write_csv(answers, private / "answers.csv")
    _place_media(raw, public, sample_data, side)
