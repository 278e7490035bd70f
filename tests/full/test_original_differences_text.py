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
from scipy.stats import spearmanr

from pytest_mlebench.definition import load_competition
from pytest_mlebench.graders import ScoreResult, score_submission

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
