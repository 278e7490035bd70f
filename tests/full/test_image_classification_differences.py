"""The image-classification competitions of batch B4: format handling and grading differences.

Cassava's held-out TFRecords lose their ``target`` feature (the original copies them with the
label inside); a damaged TFRecord is a ``PrepareError`` naming the file. The worked examples of
each README compute both sides: ours with the graders library, the original's with the
scikit-learn call its grader makes.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import accuracy_score

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


def test_cassava_text_label_invalid_here_crash_there(tmp_path: Path) -> None:
    answers = pd.DataFrame({"image_id": ["a.jpg", "b.jpg"], "label": [3, 4]})
    submission = pd.DataFrame({"image_id": ["a.jpg", "b.jpg"], "label": ["3", "healthy"]})
    result = _score(cassava.COMPETITION, answers, submission, tmp_path)
    assert not result.valid
    assert result.reason == "column 'label' has 1 non-numeric value, e.g. 'healthy' at id 'b.jpg'"
    read = pd.read_csv(tmp_path / "submission.csv")
    with pytest.raises(ValueError, match="Mix of label input types"):
        accuracy_score(answers["label"].to_numpy(), read["label"].to_numpy())
