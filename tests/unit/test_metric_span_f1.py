"""TensorFlow 2.0 QA's span F1: hand-worked counts, the original's accuracy, the answer rule."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest
from sklearn.metrics import f1_score

from pytest_mlebench.graders import Columns, SubmissionSpec, get_metric, score_submission
from pytest_mlebench.graders.metrics.spans import span_accuracy

SPAN_F1 = get_metric("span-f1")
SPEC = SubmissionSpec(
    id_column="example_id", target_columns=("PredictionString",), metric="span-f1"
)
TRUTH = ["10:20", "12:14 30:33", "", "YES", "", "5:9"]
PRED = ["10:20", "30:33", "", "NO", "1:2", ""]
# slot 1 TP; 2 TP (one of two acceptable spans); 3 blank, nothing to find: TN; 4 FP (wrong
# word); 5 FP (an answer where none exists); 6 FN (blank where one exists).


def _cols(truth: list[str], pred: list[str]) -> tuple[Columns, Columns]:
    return Columns.of({"t": truth}), Columns.of({"p": pred})


def test_kaggles_micro_f1_ignores_true_negatives() -> None:
    # 2·TP / (2·TP + FP + FN) = 4 / (4 + 2 + 1)
    assert SPAN_F1.compute(*_cols(TRUTH, PRED)) == pytest.approx(4 / 7, abs=1e-12)


def test_the_originals_number_is_accuracy() -> None:
    # right: slots 1, 2 and 3 (the true negative) of 6
    assert span_accuracy(*_cols(TRUTH, PRED)) == pytest.approx(0.5, abs=1e-12)
    # the original's own construction: y_pred = answered, y_true = right-if-answered or
    # answer-exists-if-blank, scored by scikit-learn's micro F1
    y_pred = [1, 1, 0, 1, 1, 0]
    y_true = [1, 1, 0, 0, 0, 1]
    assert f1_score(y_true, y_pred, average="micro") == pytest.approx(0.5, abs=1e-12)


def test_spans_compare_as_numbers() -> None:
    assert SPAN_F1.compute(*_cols(["10:20"], ["010:20"])) == 1.0


def test_all_blank_scores_zero_where_answers_exist() -> None:
    assert SPAN_F1.compute(*_cols(TRUTH, [""] * len(TRUTH))) == 0.0


@pytest.mark.parametrize(
    ("answer", "reason"),
    [
        ("yes", "answer 'yes' is not a token span 'start:end', YES or NO (upper case)"),
        ("10-20", "answer '10-20' is not a token span"),
        ("10:20 30:33", "answer '10:20 30:33' is not a token span"),
    ],
)
def test_an_answer_of_another_form_is_invalid_with_its_id(
    tmp_path: Path, answer: str, reason: str
) -> None:
    ids = ["-1220107454853145579_long", "-1220107454853145579_short"]
    pd.DataFrame({"example_id": ids, "PredictionString": ["10:20", "YES"]}).to_csv(
        tmp_path / "answers.csv", index=False
    )
    pd.DataFrame({"example_id": ids, "PredictionString": ["10:20", answer]}).to_csv(
        tmp_path / "submission.csv", index=False
    )
    result = score_submission(tmp_path / "submission.csv", tmp_path / "answers.csv", SPEC)
    assert not result.valid and result.reason is not None
    assert result.reason.startswith("row id '-1220107454853145579_short': "), result.reason
    assert reason in result.reason
