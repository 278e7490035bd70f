"""The image-classification competitions of batch B4: format handling and grading differences.

Cassava's held-out TFRecords lose their ``target`` feature (the original copies them with the
label inside); a damaged TFRecord is a ``PrepareError`` naming the file. The worked examples of
each README compute both sides: ours with the graders library, the original's with the
scikit-learn call its grader makes.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score, f1_score

from pytest_mlebench.definition import load_competition, load_prepare
from pytest_mlebench.errors import PrepareError
from pytest_mlebench.graders import ScoreResult, score_submission
from pytest_mlebench.kaggle import extract_archives
from tests.full.shapes import cassava_leaf_disease_classification as cassava

COMPETITIONS = Path(__file__).resolve().parents[2] / "competitions"


def _score(
    competition_id: str, answers: pd.DataFrame, submission: pd.DataFrame, root: Path
) -> ScoreResult:
    spec = load_competition(COMPETITIONS / competition_id, leaderboard=False).submission
    answers.to_csv(root / "answers.csv", index=False)
    submission.to_csv(root / "submission.csv", index=False)
    return score_submission(root / "submission.csv", root / "answers.csv", spec)


def _prepare(competition_id: str, shape: object, root: Path) -> tuple[Path, Path, Path]:
    download, raw, public, private = (root / n for n in ("download", "raw", "public", "private"))
    for folder in (download, public, private):
        folder.mkdir(parents=True)
    shape.make_download(download, np.random.default_rng(0))  # type: ignore[attr-defined]
    extract_archives(download, raw)
    load_prepare(load_competition(COMPETITIONS / competition_id))(raw, public, private)
    return raw, public, private


def test_cassava_test_tfrecords_hold_the_test_photos_without_labels(tmp_path: Path) -> None:
    _, public, private = _prepare(cassava.COMPETITION, cassava, tmp_path)
    answers = pd.read_csv(private / "answers.csv", dtype=str)
    test_records = sorted((public / "test_tfrecords").glob("ld_test*.tfrec"))
    assert test_records
    names: list[str] = []
    for path in test_records:
        assert cassava.record_features(path) == {"image", "image_name"}
        names += [bytes(e["image_name"]).decode() for e in cassava.tfrecord_loader(str(path), None)]
        assert path.stem.endswith(f"-{len(list(cassava.tfrecord_loader(str(path), None)))}")
    assert sorted(names) == sorted(answers["image_id"])
    for path in (public / "train_tfrecords").glob("*.tfrec"):
        assert "target" in cassava.record_features(path)


def test_cassava_damaged_tfrecord_is_a_clear_error(tmp_path: Path) -> None:
    raw, _, _ = _prepare(cassava.COMPETITION, cassava, tmp_path / "first")
    for path in sorted((raw / "train_tfrecords").glob("*.tfrec")):
        path.write_bytes(path.read_bytes()[:30])
    again = [tmp_path / n for n in ("public", "private")]
    for folder in again:
        folder.mkdir()
    prepare = load_prepare(load_competition(COMPETITIONS / cassava.COMPETITION))
    with pytest.raises(PrepareError, match="is not a readable TFRecord file"):
        prepare(raw, *again)


TEXT_LABEL_CASES = [
    (
        "cassava-leaf-disease-classification",
        "image_id",
        "label",
        ["a.jpg", "b.jpg"],
        [3, 4],
        "healthy",
    ),
    ("iwildcam-2020-fgvc7", "Id", "Category", ["a", "b"], [0, 72], "deer"),
    (
        "cdiscount-image-classification-challenge",
        "_id",
        "category_id",
        ["10", "11"],
        [1000010653, 1000004079],
        "CARTE",
    ),
]


@pytest.mark.parametrize(
    ("competition_id", "id_column", "column", "ids", "truth", "word"), TEXT_LABEL_CASES
)
def test_text_label_invalid_here_crash_there(
    competition_id: str,
    id_column: str,
    column: str,
    ids: list[str],
    truth: list[int],
    word: str,
    tmp_path: Path,
) -> None:
    answers = pd.DataFrame({id_column: ids, column: truth})
    submission = pd.DataFrame({id_column: ids, column: [str(truth[0]), word]})
    result = _score(competition_id, answers, submission, tmp_path)
    assert not result.valid
    assert (
        result.reason
        == f"column {column!r} has 1 non-numeric value, e.g. {word!r} at id {ids[1]!r}"
    )
    read = pd.read_csv(tmp_path / "submission.csv")
    with pytest.raises(ValueError, match="Mix of label input types"):
        accuracy_score(answers[column].to_numpy(), read[column].to_numpy())


FRACTIONAL_ID_CASES = [
    ("iwildcam-2019-fgvc6", "Id", "Category"),
    ("herbarium-2020-fgvc7", "Id", "Predicted"),
    ("herbarium-2021-fgvc8", "Id", "Predicted"),
    ("herbarium-2022-fgvc9", "Id", "Predicted"),
]


@pytest.mark.parametrize(("competition_id", "id_column", "column"), FRACTIONAL_ID_CASES)
def test_fractional_class_id_invalid_here_truncated_there(
    competition_id: str, id_column: str, column: str, tmp_path: Path
) -> None:
    answers = pd.DataFrame({id_column: ["a", "b"], column: [3, 5]})
    submission = pd.DataFrame({id_column: ["a", "b"], column: [3.7, 5]})
    result = _score(competition_id, answers, submission, tmp_path)
    assert not result.valid
    assert result.reason == (
        f"column {column!r} has 1 non-integer value, e.g. 3.7 at id 'a'; "
        "this metric needs whole-number labels"
    )
    read = pd.read_csv(tmp_path / "submission.csv")
    original = f1_score(
        [int(y) for y in answers[column]], [int(y) for y in read[column]], average="macro"
    )
    assert original == 1.0
    whole = _score(competition_id, answers, answers, tmp_path)
    assert whole.valid and whole.score == 1.0


def test_iwildcam_2020_public_counts_cover_train_images_only(tmp_path: Path) -> None:
    from tests.full.shapes import iwildcam_2020_fgvc7 as shape

    _, public, private = _prepare(shape.COMPETITION, shape, tmp_path)
    train = json.loads((public / "iwildcam2020_train_annotations.json").read_text("utf-8"))
    test = json.loads((public / "iwildcam2020_test_information.json").read_text("utf-8"))
    labels = pd.Series([note["category_id"] for note in train["annotations"]]).value_counts()
    assert {c["id"]: c["count"] for c in train["categories"]} == {
        c["id"]: int(labels.get(c["id"], 0)) for c in train["categories"]
    }
    assert "annotations" not in test
    answers = pd.read_csv(private / "answers.csv", dtype=str)
    assert sorted(image["id"] for image in test["images"]) == sorted(answers["Id"])


def test_cdiscount_bson_parts_keep_products_and_drop_test_labels(tmp_path: Path) -> None:
    from tests.full.shapes import cdiscount_image_classification_challenge as shape

    raw, public, private = _prepare(shape.COMPETITION, shape, tmp_path)
    source = shape.read_products(raw / "train.bson")
    train = shape.read_products(public / "train.bson")
    test = shape.read_products(public / "test.bson")
    answers = pd.read_csv(private / "answers.csv")
    assert len(train) + len(test) == len(source)
    assert all(set(p) == {"_id", "imgs"} for p in test)
    assert sorted(p["_id"] for p in test) == answers["_id"].tolist()
    by_id = {p["_id"]: p for p in source}
    assert all(by_id[p["_id"]] == p for p in train)  # train products unchanged
    assert all(by_id[p["_id"]]["imgs"] == p["imgs"] for p in test)
    labels = {p["_id"]: p["category_id"] for p in source}
    assert answers["category_id"].tolist() == [labels[i] for i in answers["_id"]]
    assert shape.read_products(public / "train_example.bson") == train[:100]
    assert not list(public.glob("*.partial"))


def test_cdiscount_damaged_bson_is_a_clear_error(tmp_path: Path) -> None:
    from tests.full.shapes import cdiscount_image_classification_challenge as shape

    raw, _, _ = _prepare(shape.COMPETITION, shape, tmp_path / "first")
    data = (raw / "train.bson").read_bytes()
    (raw / "train.bson").write_bytes(data[: len(data) // 2])
    again = [tmp_path / n for n in ("public", "private")]
    for folder in again:
        folder.mkdir()
    prepare = load_prepare(load_competition(COMPETITIONS / shape.COMPETITION))
    with pytest.raises(PrepareError, match="is not a readable BSON file"):
        prepare(raw, *again)
