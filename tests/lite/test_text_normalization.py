"""Text normalisation keeps tokens such as ``NA`` and ``null`` as the strings they are.

Kaggle's files hold tokens that pandas reads as missing by default (``NA``, ``N/A``, ``null``,
``nan``, ``None``, ``n/a``). Prepare must copy them as text into the public files and the
answers, and the grader must compare them literally, so ``NA`` is right only where ``NA`` is.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from pytest_mlebench.definition import load_competition
from tests.lite.harness import PreparedLite, prepare_from_shape, read_text_csv, score
from tests.lite.shapes import load_shapes
from tests.lite.shapes.text_normalization_challenge_english_language import LITERALS

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = {
    "text-normalization-challenge-english-language": "en",
    "text-normalization-challenge-russian-language": "ru",
}


@pytest.fixture(scope="module", params=sorted(LANGUAGES))
def prepared(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> PreparedLite:
    competition = load_competition(ROOT / "competitions" / request.param)
    return prepare_from_shape(
        competition, load_shapes()[request.param], tmp_path_factory.mktemp(request.param)
    )


def test_literal_tokens_stay_text_in_public_and_private_files(prepared: PreparedLite) -> None:
    language = LANGUAGES[prepared.competition.id]
    train = read_text_csv(prepared.public / f"{language}_train.csv")
    test = read_text_csv(prepared.public / f"{language}_test_2.csv")
    answers = prepared.read_answers()
    assert set(LITERALS) <= set(train["after"]) | set(answers["after"])
    assert set(LITERALS) & set(test["before"])
    assert "" not in set(train["before"]) | set(test["before"]) | set(answers["after"])


def test_a_literal_token_is_right_only_as_itself(prepared: PreparedLite, tmp_path: Path) -> None:
    answers = prepared.read_answers()
    literal = answers[answers["after"].isin(LITERALS)]
    assert len(literal) > 0
    swapped = {"NA": "N/A", "N/A": "NA", "null": "None", "None": "null", "nan": "NA", "n/a": "N/A"}
    submission = answers.copy()
    submission.loc[literal.index, "after"] = literal["after"].map(swapped)
    result = score(prepared, submission, tmp_path / "swapped.csv")
    assert result.valid, result.reason
    assert result.score == pytest.approx(1 - len(literal) / len(answers))
    assert score(prepared, pd.DataFrame(answers), tmp_path / "same.csv").score == 1.0
