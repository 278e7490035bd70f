"""Kaggle's download of 3d-object-detection-for-autonomous-vehicles: tables, lidar, images, map.

``3d-object-detection-for-autonomous-vehicles.zip`` holds ``train.csv`` (``Id,PredictionString``:
per sample token, groups of eight ``center_x center_y center_z width length height yaw
class_name``), ``sample_submission.csv`` (Kaggle's test sample tokens, empty predictions),
``train_data/`` with the thirteen nuScenes-style tables (``attribute``, ``calibrated_sensor``,
``category``, ``ego_pose``, ``instance``, ``log``, ``map``, ``sample``, ``sample_annotation``,
``sample_data``, ``scene``, ``sensor``, ``visibility``; ``.json`` lists of records joined by
64-hex ``token`` fields), ``train_lidar/host-a0NN_lidar1_<timestamp>.bin``,
``train_images/host-a0NN_cam<k>_<timestamp>.jpeg``, ``train_maps/map_raster_palo_alto.png`` and
the same ``test_*`` folders without ``instance.json`` and ``sample_annotation.json``. One log is
one scene (their tokens are equal, as in Lyft's data); each sample has one lidar sweep and two
camera images. Every log drives in its own part of the world, and each object keeps its box over
a scene's samples. Lidar, JPEG and PNG files are stand-in bytes: the prepare only places them.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

COMPETITION = "3d-object-detection-for-autonomous-vehicles"
EMPTY_CELL_IS_TEXT = True  # an empty PredictionString is "no boxes", a valid answer
CLASSES = ("car", "pedestrian", "truck", "bicycle", "other_vehicle")
ALL_CLASSES = (
    "car", "pedestrian", "animal", "other_vehicle", "bus", "motorcycle", "truck",
    "emergency_vehicle", "bicycle",
)  # fmt: skip
SENSORS = (("LIDAR_TOP", "lidar", "bin"), ("CAM_FRONT", "camera", "jpeg"),
           ("CAM_BACK", "camera", "jpeg"))  # fmt: skip
TRAIN_LOGS, TEST_LOGS, SAMPLES_PER_SCENE = 10, 1, 4
MAP = "map_raster_palo_alto.png"


def _token(rng: np.random.Generator) -> str:
    return "".join(rng.choice(list("0123456789abcdef"), 64))


def _stand_in(rng: np.random.Generator, head: bytes) -> bytes:
    return head + rng.integers(0, 256, 48).astype(np.uint8).tobytes()


class _Tables:
    """The JSON tables of one side, filled log by log."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.names = ("log", "scene", "sample", "sample_data", "calibrated_sensor", "ego_pose",
                      "instance", "sample_annotation")  # fmt: skip
        self.records: dict[str, list[dict[str, object]]] = {name: [] for name in self.names}
        self.files: dict[str, bytes] = {}
        self.rows: list[list[str]] = []
        self.sensors = [{"token": _token(rng), "channel": channel, "modality": modality}
                        for channel, modality, _ in SENSORS]  # fmt: skip
        self.categories = [{"token": _token(rng), "name": name, "description": name}
                           for name in ALL_CLASSES]  # fmt: skip

    def add_log(self, side: str, number: int, labelled: bool) -> None:
        rng, token = self.rng, _token(self.rng)
        host = f"host-a{number:03d}"
        self.records["log"].append(
            {"token": token, "logfile": f"{host}-lidar0-{number}", "vehicle": host,
             "date_captured": "2019-05-14", "location": "Palo Alto"}
        )  # fmt: skip
        calibrations = [
            {"token": _token(rng), "sensor_token": sensor["token"],
             "translation": rng.normal(0, 1, 3).round(3).tolist(),
             "rotation": [1.0, 0.0, 0.0, 0.0], "camera_intrinsic": []}
            for sensor in self.sensors
        ]  # fmt: skip
        self.records["calibrated_sensor"] += calibrations
        origin = np.array([1000.0 + 400.0 * number, 2000.0 - 300.0 * number, -20.0])
        objects = [
            (CLASSES[int(rng.integers(len(CLASSES)))],
             origin + np.array([*rng.uniform(-40, 40, 2), 0.0]),
             rng.uniform(0.8, 5.0, 3).round(3), float(rng.uniform(-np.pi, np.pi)), _token(rng))
            for _ in range(int(rng.integers(2, 5)))
        ]  # fmt: skip
        samples = [_token(rng) for _ in range(SAMPLES_PER_SCENE)]
        self.records["scene"].append(
            {"token": token, "log_token": token, "nbr_samples": len(samples),
             "first_sample_token": samples[0], "last_sample_token": samples[-1],
             "name": f"{host}-scene", "description": ""}
        )  # fmt: skip
        notes: dict[str, list[str]] = {instance: [] for *_, instance in objects}
        stamp0 = 1_241_893_239_199_111_666 + number * 10**12
        for position, sample in enumerate(samples):
            stamp = stamp0 + position * 200_000_000
            self.records["sample"].append(
                {"token": sample, "timestamp": stamp / 1000.0, "scene_token": token,
                 "prev": samples[position - 1] if position else "",
                 "next": samples[position + 1] if position + 1 < len(samples) else ""}
            )  # fmt: skip
            for (channel, _, fileformat), calibration in zip(SENSORS, calibrations, strict=True):
                self._add_datum(side, host, sample, stamp, channel, fileformat, calibration)
            boxes = []
            for name, centre, size, yaw, instance in objects:
                moved = centre + np.array([0.3 * position, 0.1 * position, 0.0])
                boxes.append([*moved.round(4), *size, round(yaw, 5), name])
                note = {"token": _token(rng), "sample_token": sample, "instance_token": instance,
                        "attribute_tokens": [], "visibility_token": "4",
                        "translation": moved.round(4).tolist(), "size": size.tolist(),
                        "rotation": [float(np.cos(yaw / 2)), 0.0, 0.0, float(np.sin(yaw / 2))],
                        "num_lidar_pts": int(rng.integers(1, 400)), "num_radar_pts": 0,
                        "category_name": name, "prev": "", "next": ""}  # fmt: skip
                notes[instance].append(str(note["token"]))
                self.records["sample_annotation"].append(note)
            self.rows.append([sample, " ".join(str(value) for box in boxes for value in box)])
        for name, *_, instance in objects:
            category = next(c["token"] for c in self.categories if c["name"] == name)
            self.records["instance"].append(
                {"token": instance, "category_token": category,
                 "nbr_annotations": len(notes[instance]),
                 "first_annotation_token": notes[instance][0],
                 "last_annotation_token": notes[instance][-1]}
            )  # fmt: skip
        if not labelled:
            self.rows = [[sample, ""] for sample, _ in self.rows]

    def _add_datum(
        self, side: str, host: str, sample: str, stamp: int, channel: str, fileformat: str,
        calibration: dict[str, object],
    ) -> None:  # fmt: skip
        rng = self.rng
        sensor = "lidar1" if fileformat == "bin" else f"cam{'0' if channel == 'CAM_FRONT' else '3'}"
        kind = "lidar" if fileformat == "bin" else "images"
        name = f"{host}_{sensor}_{stamp}.{fileformat}"
        pose = {"token": _token(rng), "timestamp": stamp / 1000.0,
                "rotation": [1.0, 0.0, 0.0, 0.0], "translation": [0.0, 0.0, 0.0]}  # fmt: skip
        self.records["ego_pose"].append(pose)
        self.records["sample_data"].append(
            {"token": _token(rng), "sample_token": sample, "ego_pose_token": pose["token"],
             "calibrated_sensor_token": calibration["token"], "timestamp": stamp / 1000.0,
             "fileformat": fileformat, "is_key_frame": True, "height": 1080, "width": 1920,
             "filename": f"{kind}/{name}", "prev": "", "next": "",
             "sensor_modality": "lidar" if fileformat == "bin" else "camera", "channel": channel}
        )  # fmt: skip
        head = b"\xff\xd8\xff\xe0" if fileformat == "jpeg" else b""
        self.files[f"{side}_{kind}/{name}"] = _stand_in(rng, head)

    def write(self, bundle: zipfile.ZipFile, side: str, map_token: str) -> None:
        folder = f"{side}_data"
        tables = dict(self.records)
        if side == "test":
            del tables["instance"], tables["sample_annotation"]
        tables["sensor"] = self.sensors
        tables["category"] = self.categories
        tables["attribute"] = [{"token": "a1", "name": "object_action_parked", "description": ""}]
        tables["visibility"] = [{"token": "4", "level": "v80-100", "description": ""}]
        logs = [log["token"] for log in self.records["log"]]
        tables["map"] = [{"token": map_token, "log_tokens": logs, "category": "semantic_prior",
                          "filename": f"maps/{MAP}"}]  # fmt: skip
        for name, records in sorted(tables.items()):
            bundle.writestr(f"{folder}/{name}.json", json.dumps(records, indent=0))
        for path, content in sorted(self.files.items()):
            bundle.writestr(path, content)


def make_download(folder: Path, rng: np.random.Generator) -> None:
    train, test = _Tables(rng), _Tables(rng)
    for number in range(TRAIN_LOGS):
        train.add_log("train", number + 1, labelled=True)
    for number in range(TEST_LOGS):
        test.add_log("test", 100 + number, labelled=False)
    map_token, raster = _token(rng), _stand_in(rng, b"\x89PNG\r\n\x1a\n")
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        train.write(bundle, "train", map_token)
        test.write(bundle, "test", map_token)
        for side in ("train", "test"):
            bundle.writestr(f"{side}_maps/{MAP}", raster)
        columns = ["Id", "PredictionString"]
        bundle.writestr("train.csv", pd.DataFrame(train.rows, columns=columns).to_csv(index=False))
        sample = pd.DataFrame(test.rows, columns=columns)
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))


def public_train_labels(public: Path) -> pd.DataFrame:
    """The train samples' boxes in submission form (confidence 1 before each box)."""
    rows = pd.read_csv(public / "train.csv", dtype=str, keep_default_na=False)
    cells = []
    for cell in rows["PredictionString"]:
        tokens = cell.split()
        cells.append(
            " ".join(" ".join(["1", *tokens[i : i + 8]]) for i in range(0, len(tokens), 8))
        )
    return pd.DataFrame({"Id": rows["Id"], "PredictionString": cells})


def _lidar_of_samples(public: Path, side: str) -> dict[str, Path]:
    data = json.loads((public / f"{side}_data" / "sample_data.json").read_text("utf-8"))
    return {
        datum["sample_token"]: public / f"{side}_lidar" / Path(datum["filename"]).name
        for datum in data
        if datum["fileformat"] == "bin"
    }


def train_files(public: Path) -> dict[str, Path]:
    return _lidar_of_samples(public, "train")


def test_files(public: Path) -> dict[str, Path]:
    return _lidar_of_samples(public, "test")
