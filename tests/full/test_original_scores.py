"""The original-compatible score in the record of a graded fixture, one test per competition.

Each competition here declares ``original_grader:`` (the original MLE-bench scores it with a
variant of Kaggle's metric). On a Kaggle-shaped fixture prepared by the competition's own
``prepare.py`` (aptos2019's is the Lite one), the grade of the answers as a submission, rows
shuffled, carries the original's score and the medal it earns on the same board; a file the two
grade apart carries the number the original's way gives, computed here as its grader does.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import pandas as pd
import pytest
from sklearn.metrics import cohen_kappa_score, f1_score
from sklearn.preprocessing import MultiLabelBinarizer

from pytest_mlebench.definition import load_competition
from pytest_mlebench.graders import Columns
from pytest_mlebench.graders.metrics.bias import binarised_bias_auc
from pytest_mlebench.grading import grade_submission
from pytest_mlebench.medals import medal_for
from pytest_mlebench.records.grade_report import GradeReport
from tests.full.shapes import load_shapes
from tests.lite.harness import PreparedLite, perfect, prepare_from_shape
from tests.lite.shapes import load_shapes as load_lite_shapes

COMPETITIONS = Path(__file__).resolve().parents[2] / "competitions"
JIGSAW = "jigsaw-unintended-bias-in-toxicity-classification"
LABEL_SETS = (
    "facebook-recruiting-iii-keyword-extraction",
    "plant-pathology-2021-fgvc8",
    "imet-2020-fgvc7",
)
TF2QA = "tensorflow2-question-answering"
KAPPA = ("aptos2019-blindness-detection", "learning-agency-lab-automated-essay-scoring-2")
GRADERS = {
    JIGSAW: "binarised-bias-auc over 1 column",
    **{competition: "known-label-micro-f1 over 1 column" for competition in LABEL_SETS},
    TF2QA: "span-accuracy over 1 column",
    **{competition: "present-label-kappa over 1 column" for competition in KAPPA},
}


def _prepare(competition_id: str, root: Path) -> PreparedLite:
    competition = load_competition(COMPETITIONS / competition_id)
    shapes = {**load_lite_shapes(), **load_shapes()}  # aptos2019 is a Lite competition
    return prepare_from_shape(competition, shapes[competition_id], root / "prepared")


def _grade(prepared: PreparedLite, submission: pd.DataFrame, path: Path) -> GradeReport:
    submission.to_csv(path, index=False)
    return grade_submission(path, prepared.competition, prepared.answers)


def _expected_medal(report: GradeReport, score: float) -> str | None:
    assert report.thresholds is not None
    return medal_for(score, report.thresholds).medal


@pytest.mark.parametrize("competition_id", sorted(GRADERS))
def test_the_answers_shuffled_carry_the_originals_perfect_score_and_gold(
    competition_id: str, tmp_path: Path
) -> None:
    prepared = _prepare(competition_id, tmp_path)
    answers = perfect(prepared)
    shuffled = answers.sample(frac=1.0, random_state=3)[list(reversed(answers.columns))]
    for name, submission in (("perfect", answers), ("shuffled", shuffled)):
        report = _grade(prepared, submission, tmp_path / f"{name}.csv")
        assert report.valid_submission, report.invalid_reason
        assert report.medal == "gold"
        assert report.to_dict()["original"] == {
            "grader": GRADERS[competition_id],
            "score": pytest.approx(1.0, abs=1e-12),
            "medal": "gold",
        }


def test_jigsaw_record_carries_the_binarised_number(tmp_path: Path) -> None:
    prepared = _prepare(JIGSAW, tmp_path)
    submission = perfect(prepared)
    submission["prediction"] = submission["prediction"].astype(float) * 0.4  # all below 0.5
    report = _grade(prepared, submission, tmp_path / "low.csv")
    assert report.valid_submission and report.score == pytest.approx(1.0, abs=1e-12)
    answers = prepared.read_answers()
    truth = prepared.spec.resolved_answer_columns
    expected = binarised_bias_auc(
        Columns.of_matrix(tuple(truth), answers[list(truth)].astype(float).to_numpy()),
        Columns.of({"prediction": [0.0] * len(answers)}),
    )
    assert expected == pytest.approx(0.5, abs=1e-12)  # every cut prediction is 0: chance
    assert report.original_score == pytest.approx(expected, abs=1e-12)
    assert report.original_medal == _expected_medal(report, expected)
    assert report.original_medal != report.medal


@pytest.mark.parametrize("competition_id", LABEL_SETS)
def test_label_set_record_carries_the_known_label_micro_f1(
    competition_id: str, tmp_path: Path
) -> None:
    prepared = _prepare(competition_id, tmp_path)
    submission = perfect(prepared)
    column = prepared.spec.target_columns[0]
    extra = "9999999" if competition_id == "imet-2020-fgvc7" else "zz-no-such-label"
    submission[column] = submission[column].astype(str) + f" {extra}"  # in no answer
    report = _grade(prepared, submission, tmp_path / "extra.csv")
    assert report.valid_submission, report.invalid_reason
    assert report.score is not None and report.score < 1.0  # a false positive in every row
    # the original's way: scikit-learn's micro F1 over the answers' labels only
    truth = [str(cell).split() for cell in prepared.read_answers()[column]]
    binarizer = MultiLabelBinarizer(sparse_output=True)
    y_true = binarizer.fit_transform(truth)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "unknown class(es) will be ignored"
        y_pred = binarizer.transform([[*labels, extra] for labels in truth])
    expected = float(f1_score(y_true, y_pred, average="micro"))
    assert expected == pytest.approx(1.0)
    assert report.original_score == pytest.approx(expected, abs=1e-12)
    assert report.original_medal == "gold" == _expected_medal(report, expected)


def test_tf2qa_record_counts_blank_true_negatives(tmp_path: Path) -> None:
    prepared = _prepare(TF2QA, tmp_path)
    submission = perfect(prepared).assign(PredictionString="")  # no answer anywhere
    report = _grade(prepared, submission, tmp_path / "blank.csv")
    assert report.valid_submission and report.score == 0.0  # nothing found
    cells = prepared.read_answers()["PredictionString"].fillna("").astype(str).str.strip()
    expected = float((cells == "").mean())  # the slots with no answer are right there
    assert 0.0 < expected < 1.0
    assert report.original_score == pytest.approx(expected, abs=1e-12)
    assert report.original_medal == _expected_medal(report, expected)


@pytest.mark.parametrize("competition_id", KAPPA)
def test_kappa_record_weighs_by_position_among_the_ratings_present(
    competition_id: str, tmp_path: Path
) -> None:
    prepared = _prepare(competition_id, tmp_path)
    submission = perfect(prepared)
    column = prepared.spec.target_columns[0]
    truth = submission[column].astype(int).to_numpy()
    pred = truth.copy()
    pred[truth == truth.max()] = truth.max() + 2  # beyond the scale, leaving a gap
    report = _grade(prepared, submission.assign(**{column: pred}), tmp_path / "beyond.csv")
    assert report.valid_submission, report.invalid_reason
    expected = float(cohen_kappa_score(truth, pred, weights="quadratic"))  # the original's call
    assert report.original_score == pytest.approx(expected, abs=1e-12)
    assert report.score is not None and report.score < expected  # two steps here, one there
    assert report.original_medal == _expected_medal(report, expected)
