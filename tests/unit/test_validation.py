"""Submission validation: the original's verified grader bugs, and every way a file can be wrong."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from pytest_mlebench.graders import (
    GraderError,
    ScoreResult,
    SubmissionSpec,
    UnknownMetricError,
    score_submission,
    validate_submission,
)

AUC = SubmissionSpec(id_column="id", target_columns=("target",), metric="roc-auc")
AUC_ANSWERS = "id,target\na,0\nb,1\nc,1\nd,0\n"
LOGLOSS = SubmissionSpec(
    id_column="id", target_columns=("x", "y", "z"), metric="multi-class-log-loss"
)
LOGLOSS_ANSWERS = "id,x,y,z\n1,1,0,0\n2,0,1,0\n"


def write(directory: Path, name: str, content: str | bytes) -> Path:
    path = directory / name
    if isinstance(content, str):
        path.write_text(content, encoding="utf-8")
    else:
        path.write_bytes(content)
    return path


def grade(
    tmp_path: Path, spec: SubmissionSpec, answers: str, submission: str | bytes
) -> ScoreResult:
    return score_submission(
        write(tmp_path, "submission.csv", submission), write(tmp_path, "answers.csv", answers), spec
    )


# --- The verified bugs of the original grader -------------------------------------------------

JIGSAW_LABELS = ("toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate")


def test_reordered_class_columns_still_score_perfectly(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    answers = pd.DataFrame({"id": [f"c{i:03d}" for i in range(40)]})
    for label in JIGSAW_LABELS:
        answers[label] = np.r_[0, 1, rng.integers(0, 2, 38)]
    answers.to_csv(tmp_path / "answers.csv", index=False)
    reordered = answers[["id", *reversed(JIGSAW_LABELS)]].sample(frac=1.0, random_state=1)
    reordered.to_csv(tmp_path / "submission.csv", index=False)
    spec = SubmissionSpec(
        id_column="id", target_columns=JIGSAW_LABELS, metric="mean-column-roc-auc"
    )
    result = score_submission(tmp_path / "submission.csv", tmp_path / "answers.csv", spec)
    assert result == ScoreResult(valid=True, score=1.0)


def test_shuffled_rows_still_score_perfectly(tmp_path: Path) -> None:
    rng = np.random.default_rng(0)
    answers = pd.DataFrame(
        {"id": np.arange(1, 61), "formation": rng.random(60), "bandgap": 5 * rng.random(60)}
    )
    answers.to_csv(tmp_path / "answers.csv", index=False)
    answers.sample(frac=1.0, random_state=3).to_csv(tmp_path / "submission.csv", index=False)
    spec = SubmissionSpec(
        id_column="id", target_columns=("formation", "bandgap"), metric="mean-column-rmsle"
    )
    result = score_submission(tmp_path / "submission.csv", tmp_path / "answers.csv", spec)
    assert result == ScoreResult(valid=True, score=0.0)


def test_right_length_but_wrong_ids_is_invalid(tmp_path: Path) -> None:
    answers = "key,fare\n" + "".join(f"2015-01-{day:02d},{day}.5\n" for day in range(1, 11))
    submission = "key,fare\n" + "".join(f"2016-01-{day:02d},{day}.5\n" for day in range(1, 11))
    spec = SubmissionSpec(id_column="key", target_columns=("fare",), metric="rmse")
    result = grade(tmp_path, spec, answers, submission)
    assert not result.valid
    assert result.reason == (
        "10 ids are not in the test set, e.g. '2016-01-01' (10 test ids are missing)"
    )


def test_a_non_finite_metric_result_is_invalid(tmp_path: Path) -> None:
    # Constant answers and the same constant prediction: kappa is 0/0.
    spec = SubmissionSpec(
        id_column="id", target_columns=("grade",), metric="quadratic-weighted-kappa"
    )
    result = grade(tmp_path, spec, "id,grade\n1,2\n2,2\n", "id,grade\n1,2\n2,2\n")
    assert not result.valid
    assert result.score is None
    assert result.reason is not None and "returned nan" in result.reason


# --- Valid variations --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "submission",
    [
        pytest.param("id,target\nb,0.9\na,0.1\nc,0.8\nd,0.3\n", id="shuffled"),
        pytest.param(b"\xef\xbb\xbfid,target\na,0.1\nb,0.9\nc,0.8\nd,0.3\n", id="utf8-bom"),
        pytest.param("id,target\r\na,0.1\r\nb,0.9\r\nc,0.8\r\nd,0.3\r\n", id="crlf"),
        pytest.param("id,target\ra,0.1\rb,0.9\rc,0.8\rd,0.3\r", id="cr"),
        pytest.param('"id","target"\n"a",0.1\n"b",0.9\nc,0.8\nd,0.3', id="quoted-no-final-newline"),
        pytest.param(" id , target \n a ,0.1\nb, 0.9\nc ,0.8 \nd,0.3\n", id="whitespace"),
        pytest.param("target,id\n0.1,a\n0.9,b\n0.8,c\n0.3,d\n", id="columns-swapped"),
        pytest.param("id,target\na,-5\nb,1e3\nc,200\nd,0\n", id="any-real-score"),
        pytest.param("id,target\n\na,0.1\nb,0.9\n\nc,0.8\nd,0.3\n\n", id="blank-lines"),
    ],
)
def test_valid_submission_variations_score_perfectly(tmp_path: Path, submission: str) -> None:
    assert grade(tmp_path, AUC, AUC_ANSWERS, submission) == ScoreResult(valid=True, score=1.0)


def test_text_labels_and_numeric_labels(tmp_path: Path) -> None:
    spec = SubmissionSpec(id_column="id", target_columns=("label",), metric="accuracy")
    numeric = grade(tmp_path, spec, "id,label\n1,1\n2,2\n", "id,label\n2,2.0\n1, 1\n")
    assert numeric == ScoreResult(valid=True, score=1.0)
    text = grade(tmp_path, spec, "id,label\n1,cat\n2,dog\n", "id,label\n1,cat\n2, cat \n")
    assert text == ScoreResult(valid=True, score=0.5)


TEXT = SubmissionSpec(id_column="id", target_columns=("after",), metric="accuracy")
LITERAL_ANSWERS = (
    "id,after\n0_0,NA\n0_1,N/A\n0_2,null\n0_3,nan\n0_4,None\n0_5,n/a\n0_6,\n0_7,word\n"
)


def test_text_labels_that_look_missing_are_compared_as_literal_strings(tmp_path: Path) -> None:
    """Text normalisation: ``NA``, ``N/A``, ``null``, ``nan``, ``None``, ``n/a`` and the empty
    string are eight different answers, in the answers and in the submission alike (the
    original's pandas loading made them all one missing value, so they matched each other)."""
    assert grade(tmp_path, TEXT, LITERAL_ANSWERS, LITERAL_ANSWERS) == ScoreResult(True, 1.0)
    swapped = "id,after\n0_0,N/A\n0_1,NA\n0_2,None\n0_3,\n0_4,null\n0_5,nan\n0_6,n/a\n0_7,word\n"
    assert grade(tmp_path, TEXT, LITERAL_ANSWERS, swapped) == ScoreResult(True, 1 / 8)


@pytest.mark.parametrize(
    ("answer", "submitted", "right"),
    [
        pytest.param("NA", "NA", True, id="NA-NA"),
        pytest.param("NA", "N/A", False, id="NA-N/A"),
        pytest.param("N/A", "NA", False, id="N/A-NA"),
        pytest.param("NA", "", False, id="NA-empty"),
        pytest.param("", "", True, id="empty-empty"),
        pytest.param("null", "nan", False, id="null-nan"),
        pytest.param("None", '"None"', True, id="quoted-None"),
    ],
)
def test_one_text_label_against_another(
    tmp_path: Path, answer: str, submitted: str, right: bool
) -> None:
    answers = f"id,after\n0_0,{answer}\n0_1,word\n"
    result = grade(tmp_path, TEXT, answers, f"id,after\n0_1,word\n0_0,{submitted}\n")
    assert result == ScoreResult(valid=True, score=1.0 if right else 0.5)


def test_numeric_labels_still_reject_missing_values(tmp_path: Path) -> None:
    """Labels that are all numbers stay numbers (``2`` = ``2.0``), where ``NA`` is missing."""
    spec = SubmissionSpec(id_column="Id", target_columns=("Cover_Type",), metric="accuracy")
    result = grade(tmp_path, spec, "Id,Cover_Type\n1,2\n2,3\n", "Id,Cover_Type\n1,2.0\n2,NA\n")
    assert not result.valid
    assert result.reason is not None and "missing value" in result.reason


def test_map_at_k_accepts_empty_rankings(tmp_path: Path) -> None:
    spec = SubmissionSpec(
        id_column="user", target_columns=("items",), metric="map-at-k", metric_params={"k": 3}
    )
    result = grade(tmp_path, spec, "user,items\nu1,a b\nu2,c\n", "user,items\nu2,\nu1,a x b\n")
    # u1: (1/1 + 2/3) / 2 = 5/6; u2: nothing predicted → 0
    assert result.valid
    assert result.score == pytest.approx(5 / 12)


def test_extra_columns_are_ignored_when_the_spec_says_so(tmp_path: Path) -> None:
    spec = SubmissionSpec(
        id_column="id", target_columns=("target",), metric="roc-auc", extra_columns="ignore"
    )
    submission = "note,id,target\nx,a,0.1\ny,b,0.9\nz,c,0.8\nw,d,0.3\n"
    assert grade(tmp_path, spec, AUC_ANSWERS, submission) == ScoreResult(valid=True, score=1.0)


def test_answers_as_a_dataframe_agree_with_the_file(tmp_path: Path) -> None:
    submission = write(tmp_path, "submission.csv", "id,target\nb,0.9\na,0.4\nc,0.35\nd,0.1\n")
    from_file = score_submission(submission, write(tmp_path, "answers.csv", AUC_ANSWERS), AUC)
    frame = pd.DataFrame({"id": ["a", "b", "c", "d"], "target": [0, 1, 1, 0]})
    assert score_submission(submission, frame, AUC) == from_file
    assert from_file == ScoreResult(valid=True, score=0.75)


def test_validate_submission_never_scores(tmp_path: Path) -> None:
    submission = write(tmp_path, "submission.csv", "id,target\na,0.1\nb,0.9\nc,0.8\nd,0.3\n")
    answers = write(tmp_path, "answers.csv", AUC_ANSWERS)
    assert validate_submission(submission, answers, AUC) == ScoreResult(valid=True)
    broken = write(tmp_path, "broken.csv", "id,target\na,0.1\n")
    assert validate_submission(broken, answers, AUC) == score_submission(broken, answers, AUC)


def test_probability_rows_within_the_tolerance_are_accepted(tmp_path: Path) -> None:
    result = grade(tmp_path, LOGLOSS, LOGLOSS_ANSWERS, "id,x,y,z\n1,0.5,0.25,0.2504\n2,0,1,0\n")
    assert result.valid


# --- Invalid submissions: one reason each ------------------------------------------------------

INVALID = [
    pytest.param(AUC, AUC_ANSWERS, b"", "file is empty", id="empty"),
    pytest.param(AUC, AUC_ANSWERS, "\n\n", "file has no header (only blank lines)", id="blank"),
    pytest.param(
        AUC,
        AUC_ANSWERS,
        "id,target\n",
        "no data rows (the file has only a header)",
        id="header-only",
    ),
    pytest.param(
        AUC,
        AUC_ANSWERS,
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        "file is binary, not CSV text (NUL byte at offset 8)",
        id="binary",
    ),
    pytest.param(
        AUC,
        AUC_ANSWERS,
        "id,target\na,0.1\nb,0.9\nc\xe9,0.8\n".encode("latin-1"),
        "file is not UTF-8 text: invalid byte 0xe9 on line 4; save it as UTF-8",
        id="latin-1",
    ),
    pytest.param(
        AUC,
        AUC_ANSWERS,
        "id,target\n".encode("utf-16"),
        "file is UTF-16 text; save it as UTF-8",
        id="utf-16",
    ),
    pytest.param(
        AUC,
        AUC_ANSWERS,
        "id;target\na;0.1\n",
        "expected comma-separated CSV; the header has one column 'id;target'",
        id="semicolons",
    ),
    pytest.param(
        AUC,
        AUC_ANSWERS,
        "id\ttarget\na\t0.1\n",
        "expected comma-separated CSV; the header has one column 'id\\ttarget'",
        id="tabs",
    ),
    pytest.param(
        AUC,
        AUC_ANSWERS,
        "id,score\na,0.1\n",
        "missing column 'target'; expected columns: id, target",
        id="missing-column",
    ),
    pytest.param(
        AUC,
        AUC_ANSWERS,
        "id,Target\na,0.1\n",
        "missing column 'target'; expected columns: id, target (found 'Target': names are "
        "case-sensitive)",
        id="case",
    ),
    pytest.param(
        AUC,
        AUC_ANSWERS,
        "id,target,target\na,0.1,0.2\n",
        "duplicate column 'target' in the header; column names must be unique",
        id="duplicate-column",
    ),
    pytest.param(
        AUC,
        AUC_ANSWERS,
        ",id,target\n0,a,0.1\n1,b,0.9\n2,c,0.8\n3,d,0.3\n",
        "unexpected column ''; expected columns: id, target",
        id="pandas-index-column",
    ),
    pytest.param(
        AUC,
        AUC_ANSWERS,
        "id,target\na,0.1\nb,0.9,1\nc,0.8\nd,0.3\n",
        "malformed CSV: a row has 3 fields, the header has 2: 'b,0.9,1'",
        id="ragged-row",
    ),
    pytest.param(
        AUC,
        AUC_ANSWERS,
        "id,target\na,0.1\n   \nb,0.9\nc,0.8\nd,0.3\n",
        "malformed CSV: a row has 1 field, the header has 2: '   '",
        id="whitespace-line",
    ),
    pytest.param(
        AUC,
        AUC_ANSWERS,
        "id,target\na,0.1\na,0.9\nc,0.8\nd,0.3\n",
        "duplicate id 'a' (2 times)",
        id="duplicate-id",
    ),
    pytest.param(
        AUC,
        AUC_ANSWERS,
        "id,target\na,0.1\na,0.9\nc,0.8\nc,0.3\n",
        "2 ids appear more than once, e.g. 'a' (2 times)",
        id="duplicate-ids",
    ),
    pytest.param(
        AUC,
        AUC_ANSWERS,
        "id,target\na,0.1\nc,0.8\n",
        "2 ids of the test set are missing, e.g. 'b'",
        id="missing-ids",
    ),
    pytest.param(
        AUC,
        AUC_ANSWERS,
        "id,target\na,0.1\nb,0.9\nc,0.8\nd,0.3\ne,0.5\n",
        "1 id is not in the test set, e.g. 'e'",
        id="unknown-id",
    ),
    pytest.param(
        AUC,
        AUC_ANSWERS,
        "id,target\na,0.1\nb,\nc,NaN\nd,0.3\n",
        "column 'target' has 2 missing values, e.g. at id 'b'; every row needs a number",
        id="nan",
    ),
    pytest.param(
        AUC,
        AUC_ANSWERS,
        "id,target\na,0.1\nb,inf\nc,0.8\nd,-inf\n",
        "column 'target' has 2 non-finite values, e.g. inf at id 'b'",
        id="inf",
    ),
    pytest.param(
        AUC,
        AUC_ANSWERS,
        "id,target\na,0.1\nb,high\nc,0.8\nd,0.3\n",
        "column 'target' has 1 non-numeric value, e.g. 'high' at id 'b'",
        id="non-numeric",
    ),
    pytest.param(
        LOGLOSS,
        LOGLOSS_ANSWERS,
        "id,x,y,z\n1,0.5,0.5,0\n2,1.5,-0.5,0\n",
        "column 'x' has 1 value outside [0, 1], e.g. 1.5 at id '2'; probabilities must be "
        "between 0 and 1",
        id="probability-out-of-range",
    ),
    pytest.param(
        LOGLOSS,
        LOGLOSS_ANSWERS,
        "id,x,y,z\n1,0.5,0.5,0\n2,0.6,0.6,0.1\n",
        "probabilities of row id '2' sum to 1.3, expected 1 (±0.001); 1 row in all",
        id="row-sum",
    ),
    pytest.param(
        SubmissionSpec(id_column="id", target_columns=("y",), metric="rmsle"),
        "id,y\n1,3\n2,4\n",
        "id,y\n1,3\n2,-0.5\n",
        "column 'y' has 1 negative value, e.g. -0.5 at id '2'; this metric needs values >= 0",
        id="negative-rmsle",
    ),
    pytest.param(
        SubmissionSpec(id_column="id", target_columns=("y",), metric="rmse-log"),
        "id,y\n1,3\n2,4\n",
        "id,y\n1,3\n2,0\n",
        "column 'y' has 1 value <= 0, e.g. 0 at id '2'; this metric needs values > 0",
        id="zero-rmse-log",
    ),
    pytest.param(
        SubmissionSpec(id_column="id", target_columns=("g",), metric="quadratic-weighted-kappa"),
        "id,g\n1,3\n2,4\n",
        "id,g\n1,3\n2,3.5\n",
        "column 'g' has 1 non-integer value, e.g. 3.5 at id '2'; this metric needs whole-number "
        "labels",
        id="non-integer-kappa",
    ),
    pytest.param(
        SubmissionSpec(id_column="id", target_columns=("label",), metric="accuracy"),
        "id,label\n1,3\n2,4\n",
        "id,label\n1,3\n2,four\n",
        "column 'label' has 1 non-numeric value, e.g. 'four' at id '2'",
        id="text-for-numeric-label",
    ),
]


@pytest.mark.parametrize(("spec", "answers", "submission", "reason"), INVALID)
def test_invalid_submission_gets_a_reason(
    tmp_path: Path, spec: SubmissionSpec, answers: str, submission: str | bytes, reason: str
) -> None:
    result = grade(tmp_path, spec, answers, submission)
    assert result == ScoreResult.invalid(reason)


def test_extra_columns_are_rejected_by_default(tmp_path: Path) -> None:
    submission = "id,target,note,rank\na,0.1,x,1\nb,0.9,y,2\nc,0.8,z,3\nd,0.3,w,4\n"
    result = grade(tmp_path, AUC, AUC_ANSWERS, submission)
    assert result.reason == "unexpected 2 columns 'note', 'rank'; expected columns: id, target"


def test_a_directory_is_invalid(tmp_path: Path) -> None:
    answers = write(tmp_path, "answers.csv", AUC_ANSWERS)
    (tmp_path / "submission.csv").mkdir()
    result = score_submission(tmp_path / "submission.csv", answers, AUC)
    assert not result.valid
    assert result.reason is not None and result.reason.startswith("submission is a directory")


def test_a_missing_file_is_invalid(tmp_path: Path) -> None:
    answers = write(tmp_path, "answers.csv", AUC_ANSWERS)
    result = score_submission(tmp_path / "nowhere.csv", answers, AUC)
    assert result.reason == f"file not found: {tmp_path / 'nowhere.csv'}"


def test_an_oversized_file_is_rejected_before_parsing(tmp_path: Path) -> None:
    answers = write(tmp_path, "answers.csv", AUC_ANSWERS)
    submission = tmp_path / "submission.csv"
    with submission.open("wb") as stream:
        stream.write(b"id,target\n")
        stream.truncate(60_000_000)  # sparse: instant, and full of NUL bytes if ever read
    result = score_submission(submission, answers, AUC)
    assert result.reason == (
        "file is 60.0 MB, over the 50.0 MB limit for this competition; the answers file is 0.0 MB"
    )


# --- The competition's faults raise GraderError ------------------------------------------------


@pytest.mark.parametrize(
    ("spec", "answers", "match"),
    [
        pytest.param(AUC, "id,label\na,1\n", "missing column 'target'", id="answers-column"),
        pytest.param(AUC, "id,target\na,0\na,1\n", "repeat id 'a'", id="answers-duplicate-id"),
        pytest.param(AUC, "id,target\na,0\nb,\n", "missing value", id="answers-missing-value"),
        pytest.param(AUC, "id,target\na,0\nb,yes\n", "non-numeric", id="answers-text"),
        pytest.param(
            SubmissionSpec(id_column="id", target_columns=("a", "b"), metric="roc-auc"),
            "id,a,b\nx,0,1\n",
            "needs one target column",
            id="arity",
        ),
        pytest.param(
            SubmissionSpec(
                id_column="id", target_columns=("target",), metric="rmse", metric_params={"k": 3}
            ),
            AUC_ANSWERS,
            "no parameter 'k'",
            id="unknown-parameter",
        ),
        pytest.param(
            SubmissionSpec(id_column="id", target_columns=("id",), metric="rmse"),
            AUC_ANSWERS,
            "distinct target columns",
            id="id-as-target",
        ),
    ],
)
def test_broken_answers_or_spec_raise(
    tmp_path: Path, spec: SubmissionSpec, answers: str, match: str
) -> None:
    # Spec and answer columns are checked first; duplicate answer ids once ids are compared.
    submission = "id,target\na,0.1\nb,0.9\n"
    with pytest.raises(GraderError, match=match):
        grade(tmp_path, spec, answers, submission)


def test_unknown_metric_raises(tmp_path: Path) -> None:
    spec = SubmissionSpec(id_column="id", target_columns=("target",), metric="f2-score")
    with pytest.raises(UnknownMetricError, match="known metrics: accuracy"):
        grade(tmp_path, spec, AUC_ANSWERS, "id,target\na,1\n")


def test_missing_answers_file_raises(tmp_path: Path) -> None:
    submission = write(tmp_path, "submission.csv", "id,target\na,1\n")
    with pytest.raises(GraderError, match="file not found"):
        score_submission(submission, tmp_path / "answers.csv", AUC)


# --- Id matching does not depend on hash quality -----------------------------------------------


@pytest.mark.parametrize(
    ("submission", "reason"),
    [
        pytest.param("id,target\nb,0.9\na,0.1\nc,0.8\nd,0.3\n", None, id="valid"),
        pytest.param(
            "id,target\nb,0.9\na,0.1\nc,0.8\ne,0.3\n",
            "1 id is not in the test set, e.g. 'e' (1 test id is missing)",
            id="wrong-id",
        ),
        pytest.param(
            "id,target\nb,0.9\na,0.1\nc,0.8\nc,0.3\n", "duplicate id 'c' (2 times)", id="repeat"
        ),
    ],
)
def test_colliding_hashes_cannot_change_the_outcome(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, submission: str, reason: str | None
) -> None:
    def colliding(values: object) -> np.ndarray:
        return np.zeros(len(values), dtype=np.uint64)  # type: ignore[arg-type]

    monkeypatch.setattr("pytest_mlebench.graders.alignment.hash_strings", colliding)
    result = grade(tmp_path, AUC, AUC_ANSWERS, submission)
    assert result.reason == reason
    assert result.valid is (reason is None)


def test_long_and_unicode_ids_are_matched(tmp_path: Path) -> None:
    ids = ["x" * 300, "\u00e9t\u00e9", "\u4e2d\u6587-" + "y" * 20, "short"]
    answers = "id,target\n" + "".join(f"{i},{n % 2}\n" for n, i in enumerate(ids))
    submission = "id,target\n" + "".join(
        f"{i},{n % 2}\n" for n, i in reversed(list(enumerate(ids)))
    )
    assert grade(tmp_path, AUC, answers, submission) == ScoreResult(valid=True, score=1.0)


@pytest.mark.parametrize("size", [1, 2, 3, 1000, 4097])
def test_hash_matching_pairs_every_row(tmp_path: Path, size: int) -> None:
    rng = np.random.default_rng(size)
    ids = [f"id-{value}" for value in rng.permutation(size * 3)[:size]]
    values = rng.random(size)
    pd.DataFrame({"id": ids, "y": values}).to_csv(tmp_path / "answers.csv", index=False)
    shuffled = rng.permutation(size)
    frame = pd.DataFrame({"id": np.asarray(ids)[shuffled], "y": values[shuffled]})
    frame.to_csv(tmp_path / "submission.csv", index=False)
    spec = SubmissionSpec(id_column="id", target_columns=("y",), metric="rmse")
    result = score_submission(tmp_path / "submission.csv", tmp_path / "answers.csv", spec)
    assert result == ScoreResult(valid=True, score=0.0)


@pytest.mark.parametrize("seed", range(3))
def test_string_hashes_depend_on_content_only(seed: int) -> None:
    from pytest_mlebench.graders.hashing import hash_strings

    rng = np.random.default_rng(seed)
    alphabet = list("ab\u00e9 -0")
    texts = ["", "a", "a" * 8, "a" * 9, "b" * 17]
    texts += ["".join(rng.choice(alphabet, int(rng.integers(0, 40)))) for _ in range(300)]
    cut = int(rng.integers(1, len(texts)))
    whole = hash_strings(pa.chunked_array([pa.array(texts)]))
    pieces = hash_strings(pa.chunked_array([pa.array(texts[:cut]), pa.array(texts)[cut:]]))
    backwards = hash_strings(pa.chunked_array([pa.array(texts[::-1])]))
    assert whole is not None and pieces is not None and backwards is not None
    assert list(pieces) == list(whole)
    assert list(backwards[::-1]) == list(whole)
    by_text = dict(zip(texts, whole, strict=True))
    assert len(set(by_text.values())) == len(by_text)


def test_ids_written_as_floats_are_named_with_the_fix(tmp_path: Path) -> None:
    answers = "PassengerId,target\n1890,0\n1891,1\n1892,1\n"
    # What pandas writes when the id column went through a float array.
    submission = "PassengerId,target\n1890.0,0.1\n1891.0,0.9\n1892.0,0.8\n"
    spec = SubmissionSpec(id_column="PassengerId", target_columns=("target",), metric="roc-auc")
    result = grade(tmp_path, spec, answers, submission)
    assert not result.valid and result.reason is not None
    assert result.reason.startswith("3 ids are not in the test set, e.g. '1890.0'")
    assert "written as floats ('1890.0' for the test id '1890')" in result.reason
    assert ".astype(int)" in result.reason


def test_a_float_looking_id_that_is_not_a_test_id_gets_no_float_hint(tmp_path: Path) -> None:
    answers = "id,target\n1890,0\n1891,1\n"
    submission = "id,target\n1890,0.1\n7.0,0.9\n"
    spec = SubmissionSpec(id_column="id", target_columns=("target",), metric="roc-auc")
    result = grade(tmp_path, spec, answers, submission)
    assert result.reason == "1 id is not in the test set, e.g. '7.0' (1 test id is missing)"


def test_a_byte_order_mark_before_the_first_id_is_refused_like_on_any_row(tmp_path: Path) -> None:
    bom = "\ufeff"
    at_start = grade(tmp_path, AUC, AUC_ANSWERS, bom + "id,target\na,0.1\nb,0.9\nc,0.8\nd,0.2\n")
    assert at_start.valid  # before the header: the one place a mark belongs
    first_row = grade(tmp_path, AUC, AUC_ANSWERS, f"id,target\n{bom}a,0.1\nb,0.9\nc,0.8\nd,0.2\n")
    later_row = grade(tmp_path, AUC, AUC_ANSWERS, f"id,target\na,0.1\n{bom}b,0.9\nc,0.8\nd,0.2\n")
    assert not first_row.valid and not later_row.valid
    assert first_row.reason is not None and "byte order mark" in first_row.reason


def test_unknown_ids_are_counted_once_however_often_they_repeat(tmp_path: Path) -> None:
    rows = "".join(f"x{n % 3},0.5\n" for n in range(30))
    result = grade(tmp_path, AUC, AUC_ANSWERS, "id,target\n" + rows)
    assert result.reason is not None
    assert result.reason.startswith("3 ids are not in the test set (30 rows), e.g. 'x0'")
