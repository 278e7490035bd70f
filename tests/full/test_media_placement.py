"""How the image, signal and volume competitions place their raw files, on Kaggle-shaped data.

The shared checks (``test_full_competitions.py``) see tables; these look at the files beside
them: media are placed byte for byte (copied or linked, never decoded), each on its own side of
the split, and a withdrawn or leaking part of a download (seti's ``old_leaky_data/``) never
reaches ``public/``.
"""

from __future__ import annotations

import hashlib
import json
import tarfile
from pathlib import Path

import pandas as pd
import pytest

from pytest_mlebench.definition import load_competition
from tests.full.shapes import load_shapes
from tests.lite.harness import PreparedLite, prepare_from_shape, score

COMPETITIONS = Path(__file__).resolve().parents[2] / "competitions"
SHAPES = load_shapes()


def _prepared(competition_id: str, root: Path) -> PreparedLite:
    competition = load_competition(COMPETITIONS / competition_id)
    return prepare_from_shape(competition, SHAPES[competition_id], root)


def _digests(root: Path) -> dict[str, Path]:
    return {
        hashlib.sha256(path.read_bytes()).hexdigest(): path
        for path in root.rglob("*")
        if path.is_file()
    }


@pytest.fixture(scope="module")
def seti(tmp_path_factory: pytest.TempPathFactory) -> PreparedLite:
    return _prepared("seti-breakthrough-listen", tmp_path_factory.mktemp("seti"))


def test_seti_old_leaky_data_never_reaches_public(seti: PreparedLite) -> None:
    raw = seti.public.parent / "raw"
    old = _digests(raw / "old_leaky_data")
    assert old, "the shaped download has an old_leaky_data/ folder"
    assert not any("old" in part for path in seti.public.rglob("*") for part in path.parts[-3:])
    leaked = set(old) & set(_digests(seti.public))
    assert not leaked, f"public holds old_leaky_data files: {[old[d].name for d in leaked]}"


def test_seti_cadences_are_placed_unchanged_by_side(seti: PreparedLite) -> None:
    raw = seti.public.parent / "raw" / "train"
    test_ids = set(seti.read_answers()["id"])
    train_ids = set(seti.shape.public_train_labels(seti.public)["id"])
    for side, ids in (("train", train_ids), ("test", test_ids)):
        placed = {path.stem: path for path in (seti.public / side).glob("*/*.npy")}
        assert set(placed) == ids
        for name, path in placed.items():
            assert path.parent.name == name[0]
            assert path.read_bytes() == (raw / name[0] / f"{name}.npy").read_bytes()


def test_rsna_miccai_dicom_trees_are_copied_not_decoded(tmp_path: Path) -> None:
    prepared = _prepared("rsna-miccai-brain-tumor-radiogenomic-classification", tmp_path)
    raw = tmp_path / "raw" / "train"
    test_ids = set(prepared.read_answers()["BraTS21ID"])
    train_ids = set(prepared.shape.public_train_labels(prepared.public)["BraTS21ID"])
    assert all(len(case) == 5 for case in test_ids | train_ids)  # zero-padded text, kept
    for side, ids in (("train", train_ids), ("test", test_ids)):
        assert {path.name for path in (prepared.public / side).iterdir()} == ids
        for case in ids:
            source = sorted(p.relative_to(raw / case) for p in (raw / case).rglob("*.dcm"))
            placed = sorted(
                p.relative_to(prepared.public / side / case)
                for p in (prepared.public / side / case).rglob("*.dcm")
            )
            assert placed == source
            assert {p.parts[0] for p in placed} == {"FLAIR", "T1w", "T1wCE", "T2w"}
            for relative in placed:
                data = (prepared.public / side / case / relative).read_bytes()
                assert data == (raw / case / relative).read_bytes()
                assert data[128:132] == b"DICM"


def test_alaska2_test_images_are_a_cover_or_its_stego_copy_as_labelled(tmp_path: Path) -> None:
    prepared = _prepared("alaska2-image-steganalysis", tmp_path)
    raw = tmp_path / "raw"
    covers = {hashlib.sha256(p.read_bytes()).hexdigest() for p in (raw / "Cover").glob("*.jpg")}
    stego = {
        hashlib.sha256(p.read_bytes()).hexdigest()
        for folder in ("JMiPOD", "JUNIWARD", "UERD")
        for p in (raw / folder).glob("*.jpg")
    }
    answers = prepared.read_answers()
    assert list(answers["Id"]) == [f"{n:04d}.jpg" for n in range(1, len(answers) + 1)]
    assert len(answers) == 120 // 15  # one cover in 15, as 5,000 of Kaggle's 75,000
    for name, label in zip(answers["Id"], answers["Label"], strict=True):
        digest = hashlib.sha256((prepared.public / "Test" / name).read_bytes()).hexdigest()
        assert digest in (stego if label == "1" else covers)
    train_covers = {
        hashlib.sha256(p.read_bytes()).hexdigest() for p in (prepared.public / "Cover").glob("*")
    }
    assert len(train_covers) == 120 - len(answers)
    held_out = {
        hashlib.sha256((prepared.public / "Test" / n).read_bytes()).hexdigest()
        for n, label in zip(answers["Id"], answers["Label"], strict=True)
        if label == "0"
    }
    assert not held_out & train_covers


def test_rsna_breast_all_zero_submission_scores_zero_and_images_stay_by_patient(
    tmp_path: Path,
) -> None:
    prepared = _prepared("rsna-breast-cancer-detection", tmp_path / "prepared")
    zeros = prepared.read_sample().assign(cancer=0.0)
    result = score(prepared, zeros, tmp_path / "zeros.csv")
    assert result.valid, result.reason
    assert result.score == 0.0
    test = pd.read_csv(prepared.public / "test.csv", dtype=str)
    placed = {p.parent.name for p in (prepared.public / "test_images").rglob("*.dcm")}
    assert placed == set(test["patient_id"])
    assert len(list((prepared.public / "test_images").rglob("*.dcm"))) == len(test)


def test_rsna_2022_holds_out_the_drawn_tenth_as_test_and_keeps_labels_of_test_private(
    tmp_path: Path,
) -> None:
    prepared = _prepared("rsna-2022-cervical-spine-fracture-detection", tmp_path)
    raw = tmp_path / "raw"
    studies = pd.read_csv(raw / "train.csv", dtype=str)["StudyInstanceUID"]
    boxed = set(pd.read_csv(raw / "train_bounding_boxes.csv", dtype=str)["StudyInstanceUID"])
    segmented = {path.stem for path in (raw / "segmentations").glob("*.nii")}
    test = set(prepared.read_answers()["StudyInstanceUID"])
    train = set(pd.read_csv(prepared.public / "train.csv", dtype=str)["StudyInstanceUID"])
    # the stated intent: a tenth held out (the original makes that tenth its train set)
    assert len(test) == round(0.1 * len(studies)) and len(train) == len(studies) - len(test)
    # at least a tenth of each subset (the last draw, from all the rest, may add more)
    assert len(test & boxed & segmented) >= round(0.1 * len(boxed & segmented))
    assert len(test & segmented) >= round(0.1 * len(segmented))
    assert len(test & boxed) >= round(0.1 * len(boxed))
    public_boxes = pd.read_csv(prepared.public / "train_bounding_boxes.csv", dtype=str)
    assert set(public_boxes["StudyInstanceUID"]) == boxed - test
    placed = {path.stem for path in (prepared.public / "segmentations").glob("*.nii")}
    assert placed == segmented - test
    assert {p.name for p in (prepared.public / "test_images").iterdir()} == test
    rows = pd.read_csv(prepared.public / "test.csv", dtype=str)
    assert len(rows) == 8 * len(test)
    assert (rows["row_id"] == rows["StudyInstanceUID"] + "_" + rows["prediction_type"]).all()


def test_inaturalist_repacks_the_images_by_side_with_tarfile(tmp_path: Path) -> None:
    prepared = _prepared("inaturalist-2019-fgvc6", tmp_path)
    with tarfile.open(tmp_path / "raw" / "train_val2019.tar.gz") as source:
        originals = {m.name: source.extractfile(m).read() for m in source if m.isfile()}  # type: ignore[union-attr]
    test_doc = json.loads((prepared.public / "test2019.json").read_text("utf-8"))
    assert set(test_doc) == {"images", "info", "licenses"}  # no annotations, no categories
    answers = prepared.read_answers()
    assert [str(image["id"]) for image in test_doc["images"]] == list(answers["id"])
    train_doc = json.loads((prepared.public / "train2019.json").read_text("utf-8"))
    val_doc = json.loads((prepared.public / "val2019.json").read_text("utf-8"))
    by_category = pd.Series([a["category_id"] for a in train_doc["annotations"]]).value_counts()
    held = answers["predicted"].astype(int).value_counts()
    # sizes 1, 3, 4, 9, …: the single image stays in train; 3 and 4 give one; 9 gives two
    assert 0 not in held.index and by_category[0] == 1
    assert held[1] == 1 and held[2] == 1 and held[3] == 2
    assert (prepared.public / "test2019.tar").read_bytes()[:2] != b"\x1f\x8b"  # plain tar
    with tarfile.open(prepared.public / "test2019.tar") as test_tar:
        test_members = {m.name: test_tar.extractfile(m).read() for m in test_tar}  # type: ignore[union-attr]
    assert set(test_members) == {image["file_name"] for image in test_doc["images"]}
    with tarfile.open(prepared.public / "train_val2019.tar") as train_tar:
        train_names = set(train_tar.getnames())
    expected = {i["file_name"] for i in train_doc["images"]} | {
        i["file_name"] for i in val_doc["images"]
    }
    assert train_names == expected
    by_basename = {name.split("/")[-1]: data for name, data in originals.items()}
    for name, data in test_members.items():
        assert data == by_basename[name.split("/")[-1]]  # bytes unchanged
    assert not {name.split("/")[-1] for name in test_members} & {
        name.split("/")[-1] for name in train_names
    }
