"""Kaggle's download of siim-isic-melanoma-classification: CSVs, DICOMs, JPEGs and TFRecords.

``siim-isic-melanoma-classification.zip`` holds ``train.csv`` (``image_name,patient_id,sex,
age_approx,anatom_site_general_challenge,diagnosis,benign_malignant,target``), ``test.csv`` (the
first five of those), ``sample_submission.csv`` (``image_name,target``), the DICOM images
``train/`` and ``test/`` (``ISIC_<7 digits>.dcm``), their JPEG copies ``jpeg/train/`` and
``jpeg/test/``, and ``tfrecords/``: 16 ``train<NN>-<count>.tfrec`` files (``tf.train.Example``
records with ``image``, ``image_name``, ``patient_id`` and ``target``) and
``test<NN>-<count>.tfrec``. Each TFRecord file holds the same share of melanomas. A synthetic
lesion is a small grayscale patch, darker for a melanoma; every JPEG and every DICOM has the same
size, so only the pixels tell the class.
"""

from __future__ import annotations

import struct
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from tests.lite.synthetic_media import jpeg_bytes

COMPETITION = "siim-isic-melanoma-classification"
TRAIN_RECORDS = 16
IMAGES_PER_RECORD = 20
MELANOMAS_PER_RECORD = 8
TEST_RECORDS = 1
TEST_IMAGES = 6
PATIENTS = 50
JPEG_SIZE = 500
SIDE = 8
SITES = ("torso", "lower extremity", "upper extremity", "head/neck", "palms/soles", "")
CRC32C_POLYNOMIAL = 0x82F63B78


def _pixels(rng: np.random.Generator, melanoma: bool) -> np.ndarray:
    tone = 70.0 if melanoma else 170.0
    return np.clip(tone + rng.normal(0.0, 15.0, size=(SIDE, SIDE)), 0, 255).astype(np.uint8)


def _dicom_element(group: int, element: int, vr: bytes, value: bytes) -> bytes:
    tag = struct.pack("<HH", group, element) + vr
    if vr in (b"OB", b"OW"):
        return tag + b"\x00\x00" + struct.pack("<I", len(value)) + value
    return tag + struct.pack("<H", len(value)) + value


def _dicom(pixels: np.ndarray, patient: str) -> bytes:
    """A minimal DICOM Part 10 file (explicit VR little endian) with raw 8-bit pixels."""
    syntax = _dicom_element(0x0002, 0x0010, b"UI", b"1.2.840.10008.1.2.1\x00")
    meta = _dicom_element(0x0002, 0x0000, b"UL", struct.pack("<I", len(syntax))) + syntax
    body = b"".join(
        [
            _dicom_element(0x0010, 0x0020, b"LO", patient.encode("ascii")),
            _dicom_element(0x0028, 0x0002, b"US", struct.pack("<H", 1)),
            _dicom_element(0x0028, 0x0010, b"US", struct.pack("<H", SIDE)),
            _dicom_element(0x0028, 0x0011, b"US", struct.pack("<H", SIDE)),
            _dicom_element(0x0028, 0x0100, b"US", struct.pack("<H", 8)),
            _dicom_element(0x7FE0, 0x0010, b"OB", pixels.tobytes()),
        ]
    )
    return b"\x00" * 128 + b"DICM" + meta + body


def _varint(value: int) -> bytes:
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


def _field(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def _example(features: dict[str, bytes | int]) -> bytes:
    """A serialized ``tf.train.Example``: bytes as a BytesList, ints as a packed Int64List."""
    entries = b""
    for key, value in features.items():
        if isinstance(value, int):
            feature = _field(3, _field(1, _varint(value)))
        else:
            feature = _field(1, _field(1, value))
        entries += _field(1, _field(1, key.encode()) + _field(2, feature))
    return _field(1, entries)


def _crc32c(data: bytes) -> int:
    crc = 0xFFFFFFFF
    for byte in data:
        crc ^= byte
        for _ in range(8):
            crc = (crc >> 1) ^ (CRC32C_POLYNOMIAL if crc & 1 else 0)
    return crc ^ 0xFFFFFFFF


def _masked_crc(data: bytes) -> bytes:
    crc = _crc32c(data)
    return struct.pack("<I", (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF)


def _tfrecord(examples: list[bytes]) -> bytes:
    out = b""
    for example in examples:
        length = struct.pack("<Q", len(example))
        out += length + _masked_crc(length) + example + _masked_crc(example)
    return out


def _metadata(rng: np.random.Generator, names: list[str], patients: list[str]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "image_name": names,
            "patient_id": rng.choice(patients, size=len(names)),
            "sex": rng.choice(["male", "female", ""], size=len(names), p=[0.5, 0.45, 0.05]),
            "age_approx": rng.choice(np.arange(20, 90, 5), size=len(names)).astype(float),
            "anatom_site_general_challenge": rng.choice(SITES, size=len(names)),
        }
    )


def make_download(folder: Path, rng: np.random.Generator) -> None:
    count = TRAIN_RECORDS * IMAGES_PER_RECORD
    numbers = rng.choice(10_000_000, size=count + TEST_IMAGES, replace=False)
    names = [f"ISIC_{n:07d}" for n in numbers]
    patients = [f"IP_{n:07d}" for n in rng.choice(10_000_000, size=PATIENTS, replace=False)]
    per_record = [1] * MELANOMAS_PER_RECORD + [0] * (IMAGES_PER_RECORD - MELANOMAS_PER_RECORD)
    targets = np.concatenate([rng.permutation(per_record) for _ in range(TRAIN_RECORDS)])
    train = _metadata(rng, names[:count], patients)
    train["diagnosis"] = np.where(targets == 1, "melanoma", rng.choice(["unknown", "nevus"], count))
    train["benign_malignant"] = np.where(targets == 1, "malignant", "benign")
    train["target"] = targets
    test = _metadata(rng, names[count:], patients)
    files: dict[str, bytes] = {}
    records: list[list[bytes]] = [[] for _ in range(TRAIN_RECORDS)]
    for index, row in train.iterrows():
        pixels = _pixels(rng, bool(row["target"]))
        jpeg = jpeg_bytes(pixels, JPEG_SIZE)
        files[f"train/{row['image_name']}.dcm"] = _dicom(pixels, row["patient_id"])
        files[f"jpeg/train/{row['image_name']}.jpg"] = jpeg
        features = {"image": jpeg, "image_name": row["image_name"].encode()}
        features["patient_id"] = row["patient_id"].encode()
        features["target"] = int(row["target"])
        records[int(index) // IMAGES_PER_RECORD].append(_example(features))
    test_examples = []
    for name, patient in zip(test["image_name"], test["patient_id"], strict=True):
        pixels = _pixels(rng, bool(rng.random() < 0.3))
        jpeg = jpeg_bytes(pixels, JPEG_SIZE)
        files[f"test/{name}.dcm"] = _dicom(pixels, patient)
        files[f"jpeg/test/{name}.jpg"] = jpeg
        test_examples.append(_example({"image": jpeg, "image_name": name.encode()}))
    for number, examples in enumerate(records):
        files[f"tfrecords/train{number:02d}-{len(examples)}.tfrec"] = _tfrecord(examples)
    files[f"tfrecords/test00-{len(test_examples)}.tfrec"] = _tfrecord(test_examples)
    order = train.sort_values("image_name")  # Kaggle's train.csv is sorted by name
    sample = pd.DataFrame({"image_name": test["image_name"], "target": 0})
    with zipfile.ZipFile(folder / f"{COMPETITION}.zip", "w", zipfile.ZIP_DEFLATED) as bundle:
        bundle.writestr("train.csv", order.to_csv(index=False))
        bundle.writestr("test.csv", test.sort_values("image_name").to_csv(index=False))
        bundle.writestr("sample_submission.csv", sample.to_csv(index=False))
        for name, content in files.items():
            bundle.writestr(name, content)


def public_train_labels(public: Path) -> pd.DataFrame:
    train = pd.read_csv(public / "train.csv", dtype={"image_name": str})
    return train[["image_name", "target"]]


def _images(public: Path, part: str) -> dict[str, Path]:
    return {path.stem: path for path in sorted((public / "jpeg" / part).glob("*.jpg"))}


def train_files(public: Path) -> dict[str, Path]:
    return _images(public, "train")


def test_files(public: Path) -> dict[str, Path]:
    return _images(public, "test")
