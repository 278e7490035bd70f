"""Jigsaw's bias AUC: a hand-worked power mean, a plain re-computation, the binarised variant."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

from pytest_mlebench.graders import (
    Columns,
    GraderError,
    SubmissionSpec,
    get_metric,
    score_submission,
)
from pytest_mlebench.graders.metrics.bias import binarised_bias_auc

BIAS = get_metric("jigsaw-bias-auc")
IDENTITIES = ("male", "female", "black")


def _columns(toxicity: np.ndarray, identities: np.ndarray) -> Columns:
    names = ("toxicity", *IDENTITIES[: identities.shape[1]])
    return Columns.of_matrix(names, np.column_stack([toxicity, identities]).astype(float))


def _reference(toxicity: np.ndarray, identities: np.ndarray, scores: np.ndarray) -> float:
    """The competition's definition, subset by subset with scikit-learn's AUC."""
    toxic = toxicity >= 0.5
    kinds: list[list[float]] = [[], [], []]
    for j in range(identities.shape[1]):
        member = identities[:, j] >= 0.5
        subsets = [member, member ^ toxic, ~(member ^ toxic)]
        for kind, rows in enumerate(subsets):
            kinds[kind].append(roc_auc_score(toxic[rows], scores[rows]))
    means = [np.mean(np.power(values, -5.0)) ** (-1 / 5) for values in kinds]
    return 0.25 * roc_auc_score(toxic, scores) + 0.25 * sum(means)


def test_perfect_scores_are_one() -> None:
    toxicity = np.array([0.0, 0.2, 0.6, 0.9, 0.1, 0.7])
    identity = np.array([[1.0], [0.0], [1.0], [0.0], [0.6], [0.4]])
    got = BIAS.compute(_columns(toxicity, identity), Columns.of({"p": toxicity}))
    assert got == pytest.approx(1.0, abs=1e-12)


def test_power_mean_is_dominated_by_the_worst_identity() -> None:
    # Rows (toxic, male, female, score): male's subgroup AUC is 1 and female's 0.5, so
    # M(subgroup) = ((1 + 0.5^-5) / 2)^(-1/5) = 16.5^(-1/5) ≈ 0.57083, below the mean 0.75.
    toxicity = np.array([1, 0, 1, 0, 1, 0, 1, 0], dtype=float)
    identities = np.array(
        [[1, 0], [1, 0], [0, 1], [0, 1], [0, 0], [0, 0], [0, 1], [0, 1]], dtype=float
    )
    scores = np.array([0.9, 0.1, 0.6, 0.6, 0.8, 0.2, 0.6, 0.6])
    got = BIAS.compute(_columns(toxicity, identities), Columns.of({"p": scores}))
    assert got == pytest.approx(_reference(toxicity, identities, scores), abs=1e-12)
    female = roc_auc_score(toxicity[identities[:, 1] == 1], scores[identities[:, 1] == 1])
    assert female == 0.5
    assert pytest.approx(0.570825, abs=1e-6) == 16.5 ** (-1 / 5)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_equals_the_subset_by_subset_definition(seed: int) -> None:
    rng = np.random.default_rng(seed)
    rows = 3000
    toxicity = rng.choice([0.0, 0.2, 0.4, 0.5, 0.8, 1.0], size=rows)
    identities = rng.choice([0.0, 0.0, 0.0, 0.3, 0.5, 1.0], size=(rows, 3))
    scores = np.clip(toxicity + rng.normal(0, 0.3, rows), 0, 1).round(2)  # ties as well
    got = BIAS.compute(_columns(toxicity, identities), Columns.of({"p": scores}))
    assert got == pytest.approx(_reference(toxicity, identities, scores), abs=1e-12)
    binary = (scores >= 0.5).astype(float)
    original = binarised_bias_auc(_columns(toxicity, identities), Columns.of({"p": scores}))
    assert original == pytest.approx(_reference(toxicity, identities, binary), abs=1e-12)


def test_a_subgroup_without_both_classes_is_the_competitions_fault() -> None:
    toxicity = np.array([1.0, 0.0, 1.0, 0.0])
    identity = np.array([[1.0], [0.0], [1.0], [0.0]])  # every member toxic
    with pytest.raises(GraderError, match="subgroup of 'male'"):
        BIAS.compute(_columns(toxicity, identity), Columns.of({"p": [0.9, 0.1, 0.8, 0.2]}))


def test_graded_through_a_spec_with_identity_answer_columns(tmp_path: Path) -> None:
    spec = SubmissionSpec(
        id_column="id",
        target_columns=("prediction",),
        metric="jigsaw-bias-auc",
        answer_columns=("toxicity", "male"),
    )
    answers = pd.DataFrame(
        {"id": [1, 2, 3, 4, 5, 6], "toxicity": [0, 0.8, 0, 1, 0.5, 0.1], "male": [1, 1, 0, 0, 1, 0]}
    )
    answers.to_csv(tmp_path / "answers.csv", index=False)
    submission = pd.DataFrame(
        {"prediction": [0.7, 0.2, 0.9, 0.1, 0.4, 0.3], "id": [4, 3, 5, 2, 1, 6]}
    )
    submission.to_csv(tmp_path / "submission.csv", index=False)
    result = score_submission(tmp_path / "submission.csv", tmp_path / "answers.csv", spec)
    assert result.valid, result.reason
    aligned = submission.set_index("id").loc[answers["id"], "prediction"].to_numpy()
    expected = _reference(answers["toxicity"].to_numpy(), answers[["male"]].to_numpy(), aligned)
    assert result.score == pytest.approx(expected, abs=1e-12)
