"""map-at-k against a plain transcription of Kaggle's ``apk``/``mapk`` on random rankings."""

from __future__ import annotations

import numpy as np
import pytest

from pytest_mlebench.graders import Columns, GraderError, get_metric

MAP = get_metric("map-at-k")


def _kaggle_apk(actual: list[str], predicted: list[str], k: int) -> float:
    """Kaggle's ``apk``: precision at each new hit in the first ``k``, over ``min(|actual|, k)``."""
    if not actual:
        return 0.0
    hits, total = 0, 0.0
    for position, item in enumerate(predicted[:k]):
        if item in actual and item not in predicted[:position]:
            hits += 1
            total += hits / (position + 1.0)
    return total / min(len(set(actual)), k)


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("k", [1, 5, 12])
def test_map_at_k_equals_kaggles_mapk(seed: int, k: int) -> None:
    rng = np.random.default_rng(seed)
    items = [f"{n:010d}" for n in range(30)]
    truth = [list(rng.choice(items, int(rng.integers(0, 6)))) for _ in range(200)]
    pred = [list(rng.choice(items, int(rng.integers(0, 15)))) for _ in range(200)]
    expected = float(np.mean([_kaggle_apk(t, p, k) for t, p in zip(truth, pred, strict=True)]))
    got = MAP.compute(
        Columns.of({"t": np.array([" ".join(t) for t in truth], dtype=object)}),
        Columns.of({"p": np.array([" ".join(p) for p in pred], dtype=object)}),
        k=k,
    )
    assert got == pytest.approx(expected, rel=1e-12, abs=1e-15)


def test_no_relevant_items_anywhere_scores_zero() -> None:
    empty = Columns.of({"t": np.array(["", ""], dtype=object)})
    assert MAP.compute(empty, Columns.of({"p": np.array(["a", ""], dtype=object)})) == 0.0


def test_relevant_rows_only_leaves_rows_without_relevant_items_out_of_the_mean() -> None:
    truth = Columns.of({"t": np.array(["a b", "", "c"], dtype=object)})
    pred = Columns.of({"p": np.array(["a x", "a", "x c"], dtype=object)})
    # row 1: hit at rank 1 → 1/2; row 2: nothing relevant; row 3: hit at rank 2 → (1/2)/1
    assert MAP.compute(truth, pred) == pytest.approx((0.5 + 0 + 0.5) / 3)
    assert MAP.compute(truth, pred, relevant_rows_only=True) == pytest.approx(0.5)


def test_relevant_rows_only_needs_a_relevant_row() -> None:
    empty = Columns.of({"t": np.array([""], dtype=object)})
    with pytest.raises(GraderError, match="none is scored"):
        MAP.compute(
            empty, Columns.of({"p": np.array(["a"], dtype=object)}), relevant_rows_only=True
        )
