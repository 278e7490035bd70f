"""Metrics that read a flag or group column of the answers, and the angular and rounded ones.

Hand-worked values for ``masked-mae``, ``masked-mcrmse``, ``laplace-log-likelihood``,
``group-log-mae``, ``mean-angular-error`` and ``mae-rounded``; the spec shapes their arities
accept; and, through files, that the flag or group column comes from the answers only.
"""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pytest_mlebench.graders import (
    Columns,
    GraderError,
    SubmissionSpec,
    get_metric,
    score_submission,
)

ROOT2 = math.sqrt(2.0)

CASES = [
    # rows 1 and 3 scored: |1.5 − 1| and |2 − 4| → (0.5 + 2) / 2
    ("masked-mae", {"t": [1, 9, 4], "f": [1, 0, 1]}, {"p": [1.5, 0, 2]}, {}, 1.25),
    # the unscored row's error (100) counts nothing
    ("masked-mae", {"t": [0, 0], "f": [1, 0]}, {"p": [0, 100]}, {}, 0.0),
    # column a errors (1, 3) → rmse √5; column b errors (0, 4) → √8; the unscored row is ignored
    (
        "masked-mcrmse",
        {"a": [0, 0, 7], "b": [0, 0, 7], "f": [1, 1, 0]},
        {"a": [1, 3, 0], "b": [0, 4, 0]},
        {},
        (math.sqrt(5) + math.sqrt(8)) / 2,
    ),
    # σ 100, Δ 50 → −√2·0.5 − ln(100√2); the flag-0 row is ignored
    (
        "laplace-log-likelihood",
        {"v": [2000, 0], "f": [1, 0]},
        {"v": [2050, 9], "c": [100, 1]},
        {},
        -ROOT2 * 0.5 - math.log(ROOT2 * 100),
    ),
    # σ below 70 counts 70, Δ above 1000 counts 1000
    (
        "laplace-log-likelihood",
        {"v": [2000], "f": [1]},
        {"v": [5000], "c": [10]},
        {},
        -ROOT2 * 1000 / 70 - math.log(ROOT2 * 70),
    ),
    # group A: errors 1, 3 → MAE 2; group B: error 0.5 → mean(log 2, log 0.5) = 0
    (
        "group-log-mae",
        {"t": [0, 0, 0], "g": ["A", "A", "B"]},
        {"p": [1, -3, 0.5]},
        {},
        0.0,
    ),
    # a perfect group is floored: mean(log 1e-9, log 1)
    ("group-log-mae", {"t": [0, 5], "g": ["A", "B"]}, {"p": [0, 6]}, {}, math.log(1e-9) / 2),
    # another floor
    ("group-log-mae", {"t": [0], "g": ["A"]}, {"p": [0]}, {"floor": 1e-3}, math.log(1e-3)),
    # same direction → 0; poles: zenith 0 vs π → π (the azimuth does not matter at a pole)
    (
        "mean-angular-error",
        {"az": [1.0, 0.0], "zen": [0.5, 0.0]},
        {"az": [1.0, 2.0], "zen": [0.5, math.pi]},
        {},
        math.pi / 2,
    ),
    # on the equator, azimuths 0 and π/2 are a right angle apart; 2π + x is x
    (
        "mean-angular-error",
        {"az": [0.0, 1.0], "zen": [math.pi / 2, math.pi / 2]},
        {"az": [math.pi / 2, 1.0 + 2 * math.pi], "zen": [math.pi / 2, math.pi / 2]},
        {},
        math.pi / 4,
    ),
    # MAE 2.5 rounds to the even 2; MAE 3.5 to 4; 1.4 to 1
    ("mae-rounded", {"t": [0, 0]}, {"p": [2, 3]}, {}, 2.0),
    ("mae-rounded", {"t": [0, 0]}, {"p": [3, 4]}, {}, 4.0),
    ("mae-rounded", {"t": [10]}, {"p": [11.4]}, {}, 1.0),
    # TP 2, TN 1, FP 1, FN 0: (2·1 − 1·0) / sqrt(3·2·2·1) = 2 / √12
    ("mcc", {"t": [1, 1, 0, 0]}, {"p": [1, 1, 1, 0]}, {}, 2 / math.sqrt(12)),
    # perfect, inverted, and a constant prediction (no correlation: 0, as scikit-learn)
    ("mcc", {"t": [1, 0, 1]}, {"p": [1, 0, 1]}, {}, 1.0),
    ("mcc", {"t": [1, 0]}, {"p": [0, 1]}, {}, -1.0),
    ("mcc", {"t": [1, 0, 0]}, {"p": [0, 0, 0]}, {}, 0.0),
]


@pytest.mark.parametrize(("name", "truth", "pred", "params", "expected"), CASES)
def test_metric_matches_hand_computed_value(
    name: str,
    truth: dict[str, list[Any]],
    pred: dict[str, list[Any]],
    params: dict[str, Any],
    expected: float,
) -> None:
    value = get_metric(name).compute(Columns.of(truth), Columns.of(pred), **params)
    assert value == pytest.approx(expected, rel=1e-12, abs=1e-12)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_mcc_matches_scikit_learn(seed: int) -> None:
    from sklearn.metrics import matthews_corrcoef

    rng = np.random.default_rng(seed)
    truth, pred = rng.integers(0, 2 + seed, 300), rng.integers(0, 2 + seed, 300)
    got = get_metric("mcc").compute(Columns.of({"t": truth}), Columns.of({"p": pred}))
    assert got == pytest.approx(matthews_corrcoef(truth, pred), rel=1e-12, abs=1e-15)


def test_angular_error_matches_the_vector_definition() -> None:
    rng = np.random.default_rng(3)
    az, zen = rng.uniform(0, 2 * np.pi, (2, 200)), rng.uniform(0, np.pi, (2, 200))

    def vectors(a: np.ndarray, z: np.ndarray) -> np.ndarray:
        return np.stack([np.cos(a) * np.sin(z), np.sin(a) * np.sin(z), np.cos(z)], axis=1)

    dots = np.sum(vectors(az[0], zen[0]) * vectors(az[1], zen[1]), axis=1)
    expected = float(np.mean(np.arccos(np.clip(dots, -1, 1))))
    got = get_metric("mean-angular-error").compute(
        Columns.of({"az": az[0], "zen": zen[0]}), Columns.of({"az": az[1], "zen": zen[1]})
    )
    assert got == pytest.approx(expected, rel=1e-12)


@pytest.mark.parametrize(
    ("name", "truth", "pred", "match"),
    [
        ("masked-mae", {"t": [1, 2], "f": [0, 0]}, {"p": [1, 2]}, "flags no row"),
        ("masked-mae", {"t": [1, 2], "f": [0, 2]}, {"p": [1, 2]}, "only 0 and 1"),
        ("masked-mcrmse", {"t": [1], "f": [1]}, {"a": [1], "b": [1]}, "flag column"),
        ("laplace-log-likelihood", {"v": [1], "f": [0]}, {"v": [1], "c": [1]}, "flags no row"),
        ("group-log-mae", {"t": [1]}, {"p": [1]}, "group column"),
    ],
)
def test_unusable_answers_raise_grader_error(
    name: str, truth: dict[str, list[Any]], pred: dict[str, list[Any]], match: str
) -> None:
    with pytest.raises(GraderError, match=match):
        get_metric(name).compute(Columns.of(truth), Columns.of(pred))


@pytest.mark.parametrize("floor", [0, -1.0, "x", True])
def test_group_log_mae_rejects_a_bad_floor(floor: object) -> None:
    with pytest.raises(GraderError, match="floor"):
        get_metric("group-log-mae").compute(
            Columns.of({"t": [0.0], "g": ["A"]}), Columns.of({"p": [0.0]}), floor=floor
        )


def _files(tmp_path: Path, answers: str, submission: str) -> tuple[Path, Path]:
    answers_path, submission_path = tmp_path / "answers.csv", tmp_path / "submission.csv"
    answers_path.write_text(answers, "utf-8")
    submission_path.write_text(submission, "utf-8")
    return submission_path, answers_path


def test_a_group_column_is_read_as_text_from_the_answers(tmp_path: Path) -> None:
    spec = SubmissionSpec("id", ("y",), "group-log-mae", answer_columns=("y", "type"))
    submission, answers = _files(
        tmp_path, "id,y,type\n1,0,1JHC\n2,0,1JHC\n3,0,2JHH\n", "id,y\n3,0.5\n1,1\n2,3\n"
    )
    result = score_submission(submission, answers, spec)
    assert result.valid, result.reason
    assert result.score == pytest.approx((math.log(2) + math.log(0.5)) / 2)


def test_a_flag_column_is_read_from_the_answers_only(tmp_path: Path) -> None:
    spec = SubmissionSpec("id", ("y",), "masked-mae", answer_columns=("y", "scored"))
    submission, answers = _files(tmp_path, "id,y,scored\na,1,1\nb,5,0\n", "id,y\nb,0\na,2\n")
    result = score_submission(submission, answers, spec)
    assert result.valid and result.score == pytest.approx(1.0)


def test_a_group_metric_without_its_group_column_is_a_broken_spec(tmp_path: Path) -> None:
    spec = SubmissionSpec("id", ("y",), "group-log-mae")
    submission, answers = _files(tmp_path, "id,y\n1,0\n", "id,y\n1,0\n")
    with pytest.raises(GraderError, match="group column"):
        score_submission(submission, answers, spec)


def test_a_flag_that_is_not_a_number_is_a_broken_answers_file(tmp_path: Path) -> None:
    spec = SubmissionSpec("id", ("y",), "masked-mae", answer_columns=("y", "scored"))
    submission, answers = _files(tmp_path, "id,y,scored\n1,0,yes\n", "id,y\n1,0\n")
    with pytest.raises(GraderError, match="scored"):
        score_submission(submission, answers, spec)
