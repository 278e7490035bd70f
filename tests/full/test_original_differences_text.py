"""The worked examples of how our grading differs from the original MLE-bench's: text batch.

As ``test_original_differences.py`` does for the first Medium batch, each test computes one README
example both ways: ours with the graders library, the original's with the SciPy or scikit-learn
call its grader makes (or the variant in ``graders/`` that reproduces it).
"""

from __future__ import annotations

import math
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from scipy.stats import spearmanr
from sklearn.metrics import f1_score, roc_auc_score
from sklearn.preprocessing import MultiLabelBinarizer

from pytest_mlebench.definition import load_competition
from pytest_mlebench.graders import Columns, ScoreResult, score_submission
from pytest_mlebench.graders.metrics.bias import binarised_bias_auc
from pytest_mlebench.graders.metrics.sets import known_label_micro_f1
from pytest_mlebench.graders.metrics.spans import span_accuracy

COMPETITIONS = Path(__file__).resolve().parents[2] / "competitions"


def _score(
    competition_id: str, answers: pd.DataFrame, submission: pd.DataFrame, root: Path
) -> ScoreResult:
    spec = load_competition(COMPETITIONS / competition_id, leaderboard=False).submission
    answers.to_csv(root / "answers.csv", index=False)
    submission.to_csv(root / "submission.csv", index=False)
    return score_submission(root / "submission.csv", root / "answers.csv", spec)


def test_google_quest_a_constant_column_is_nan_there_and_invalid_here(tmp_path: Path) -> None:
    spec = load_competition(COMPETITIONS / "google-quest-challenge", leaderboard=False).submission
    targets = list(spec.target_columns)
    rng = np.random.default_rng(0)
    ids = [39, 46, 70, 132]
    truth = pd.DataFrame(rng.choice([0.0, 0.5, 1.0], size=(4, 30)), columns=targets)
    truth["question_type_spelling"] = [0.0, 0.0, 0.0, 0.333333]
    guess = truth + rng.normal(0, 0.2, size=truth.shape)
    guess["question_type_spelling"] = 0.0  # the natural guess for an almost-always-0 target
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # scipy warns about the constant input
        original = np.mean([spearmanr(guess[c], truth[c]).statistic for c in targets])
    assert math.isnan(original)
    result = _score(
        "google-quest-challenge",
        truth.assign(qa_id=ids),
        guess.assign(qa_id=ids),
        tmp_path,
    )
    assert not result.valid and result.score is None
    assert result.reason is not None
    assert "'question_type_spelling' holds the same value (0) in every row" in result.reason


def _kaggle_jaccard(prediction: str, truth: str) -> float:
    """The competition page's formula, as the original grader runs it."""
    a, b = set(prediction.lower().split()), set(truth.lower().split())
    c = a & b
    return len(c) / (len(a) + len(b) - len(c))


def test_tweet_an_empty_span_matched_exactly_fails_there_and_scores_here(tmp_path: Path) -> None:
    ids = ["fdb77c3752", "cb774db0d1", "549e992a42"]
    truth = ["", "so happy!!", "Sons of ****,"]
    pred = ["", "happy!!", "sons of ****,"]
    with pytest.raises(ZeroDivisionError):
        _kaggle_jaccard(pred[0], truth[0])  # the original's grade raises: no score at all
    result = _score(
        "tweet-sentiment-extraction",
        pd.DataFrame({"textID": ids, "selected_text": truth}),
        pd.DataFrame({"textID": ids, "selected_text": pred}),
        tmp_path,
    )
    # rows: 1 (both empty), 1/2 ({"happy!!"} of {"so", "happy!!"}), 1: mean 5/6
    assert result.valid, result.reason
    assert result.score == pytest.approx(5 / 6, abs=1e-12)
    others = [_kaggle_jaccard(p, t) for p, t in zip(pred[1:], truth[1:], strict=True)]
    assert others == [0.5, 1.0]  # the two agree on every row the formula can score


def test_jigsaw_low_but_well_ordered_scores_are_perfect_here_and_chance_there(
    tmp_path: Path,
) -> None:
    spec = load_competition(
        COMPETITIONS / "jigsaw-unintended-bias-in-toxicity-classification", leaderboard=False
    ).submission
    identities = list(spec.resolved_answer_columns[1:])
    rows = []  # for each identity: a toxic and a clean member, a toxic and a clean non-member
    for j in range(len(identities)):
        for member, toxicity in ((1.0, 0.8), (1.0, 0.1), (0.0, 0.9), (0.0, 0.2)):
            flags = [0.0] * len(identities)
            flags[j] = member
            rows.append([toxicity, *flags])
    answers = pd.DataFrame(rows, columns=["toxicity", *identities])
    answers.insert(0, "id", range(7000000, 7000000 + len(answers)))
    # A model that orders every comment rightly but never says more than 0.4.
    submission = pd.DataFrame({"id": answers["id"], "prediction": answers["toxicity"] * 0.4})
    result = _score(
        "jigsaw-unintended-bias-in-toxicity-classification", answers, submission, tmp_path
    )
    assert result.valid, result.reason
    assert result.score == pytest.approx(1.0, abs=1e-12)
    truth = Columns.of_matrix(
        tuple(spec.resolved_answer_columns), answers[list(spec.resolved_answer_columns)].to_numpy()
    )
    predicted = Columns.of({"prediction": submission["prediction"].to_numpy()})
    assert binarised_bias_auc(truth, predicted) == pytest.approx(0.5, abs=1e-12)
    # the same through scikit-learn, as the original computes it: every prediction becomes 0
    toxic = answers["toxicity"] >= 0.5
    assert roc_auc_score(toxic, (submission["prediction"] >= 0.5).astype(int)) == 0.5


def test_facebook_mean_f1_here_known_tag_micro_f1_there(tmp_path: Path) -> None:
    ids = [1, 2]
    truth = ["c# .net", "python"]
    pred = ["c# cobol", "python java"]
    result = _score(
        "facebook-recruiting-iii-keyword-extraction",
        pd.DataFrame({"Id": ids, "Tags": truth}),
        pd.DataFrame({"Id": ids, "Tags": pred}),
        tmp_path,
    )
    # per question: 2·1 / (2 + 2) = 1/2 and 2·1 / (1 + 2) = 2/3; mean 7/12
    assert result.valid and result.score == pytest.approx(7 / 12, abs=1e-12)
    original = known_label_micro_f1(Columns.of({"Tags": truth}), Columns.of({"Tags": pred}))
    binarizer = MultiLabelBinarizer(classes=sorted({"c#", ".net", "python"}), sparse_output=True)
    y_true = binarizer.fit_transform([t.split() for t in truth])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "unknown class(es) will be ignored"
        y_pred = binarizer.transform([p.split() for p in pred])
    assert f1_score(y_true, y_pred, average="micro") == pytest.approx(original, abs=1e-12)
    # cobol and java are in no answer: dropped, so 2 hits of 3 true and 2 predicted tags
    assert original == pytest.approx(0.8, abs=1e-12)


def test_imet_an_attribute_no_test_image_has_costs_here_not_there(tmp_path: Path) -> None:
    ids = ["10023b2cc4ed5f68", "100fbe75ed8fd887"]
    truth = ["13 51", "1092"]
    pred = ["13 51 3400", "1092"]  # 3400 is a real attribute, but no held-out image has it
    result = _score(
        "imet-2020-fgvc7",
        pd.DataFrame({"id": ids, "attribute_ids": truth}),
        pd.DataFrame({"id": ids, "attribute_ids": pred}),
        tmp_path,
    )
    assert result.valid and result.score == pytest.approx(2 * 3 / (3 + 4), abs=1e-12)
    original = known_label_micro_f1(Columns.of({"a": truth}), Columns.of({"a": pred}))
    assert original == 1.0


def test_plant_pathology_mean_f1_here_known_label_micro_f1_there(tmp_path: Path) -> None:
    images = ["85f8cb619c66b863.jpg", "ad8770db05586b59.jpg"]
    truth = ["scab frog_eye_leaf_spot", "healthy"]
    pred = ["scab", "healthy rust"]  # no held-out leaf has rust
    result = _score(
        "plant-pathology-2021-fgvc8",
        pd.DataFrame({"image": images, "labels": truth}),
        pd.DataFrame({"image": images, "labels": pred}),
        tmp_path,
    )
    # per image: 2·1 / (2 + 1) = 2/3 and 2·1 / (1 + 2) = 2/3
    assert result.valid and result.score == pytest.approx(2 / 3, abs=1e-12)
    original = known_label_micro_f1(Columns.of({"l": truth}), Columns.of({"l": pred}))
    assert original == pytest.approx(2 * 2 / (3 + 2), abs=1e-12)  # rust dropped: 0.8


def test_tf2qa_true_negatives_count_there_not_here(tmp_path: Path) -> None:
    examples = (-7853356005143141653, 4549465242785278785)
    ids = [f"{example}_{part}" for example in examples for part in ("long", "short")]
    truth = ["6:18", "YES", "", ""]  # the second question has no answer at all
    pred = ["6:18", "", "", ""]
    result = _score(
        "tensorflow2-question-answering",
        pd.DataFrame({"example_id": ids, "PredictionString": truth}),
        pd.DataFrame({"example_id": ids, "PredictionString": pred}),
        tmp_path,
    )
    # TP 1 (the long span), FN 1 (the missing YES); the two blank slots count nowhere: 2 / 3
    assert result.valid and result.score == pytest.approx(2 / 3, abs=1e-12)
    original = span_accuracy(Columns.of({"t": truth}), Columns.of({"p": pred}))
    # right: the span and both true negatives, 3 of 4
    assert original == pytest.approx(0.75, abs=1e-12)
    assert f1_score([1, 1, 0, 0], [1, 0, 0, 0], average="micro") == pytest.approx(original)


def test_jigsaw_refuses_a_toxicity_column_in_place_of_prediction(tmp_path: Path) -> None:
    # the original reads a `toxicity` column when `prediction` is missing; Kaggle's format (and
    # ours, decided in the competition's README) takes only `prediction`
    identities = ["male", "female", "homosexual_gay_or_lesbian", "christian", "jewish", "muslim",
                  "black", "white", "psychiatric_or_mental_illness"]  # fmt: skip
    answers = pd.DataFrame(
        [[float(i % 2), *([1.0] * 9 if i < 2 else [0.0] * 9)] for i in range(4)],
        columns=["toxicity", *identities],
    )
    answers.insert(0, "id", [7000000 + i for i in range(4)])
    cid = "jigsaw-unintended-bias-in-toxicity-classification"
    renamed = pd.DataFrame({"id": answers["id"], "toxicity": [0.1, 0.9, 0.2, 0.8]})
    result = _score(cid, answers, renamed, tmp_path)
    assert not result.valid
    assert result.reason == "missing column 'prediction'; expected columns: id, prediction"
    fixed = renamed.rename(columns={"toxicity": "prediction"})
    assert _score(cid, answers, fixed, tmp_path).valid
