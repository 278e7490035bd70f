"""dice-hausdorff: its distance transform against scipy's point-set distance, and its rules."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial.distance import directed_hausdorff

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics.base import Columns
from pytest_mlebench.graders.metrics.dice_hausdorff import dice_hausdorff, hausdorff_distance


def _point_set_distance(truth: np.ndarray, prediction: np.ndarray) -> float:
    """The definition: every voxel scaled by the volume's extent, both directions, over √3."""
    scale = np.array(truth.shape, dtype=float)
    a, b = np.argwhere(truth) / scale, np.argwhere(prediction) / scale
    return max(directed_hausdorff(a, b)[0], directed_hausdorff(b, a)[0]) / math.sqrt(3)


@pytest.mark.parametrize("seed", range(40))
def test_the_distance_transform_equals_the_point_set_distance(seed: int) -> None:
    rng = np.random.default_rng(seed)
    shape = tuple(int(n) for n in rng.integers(1, 9, size=3))
    truth = rng.random(shape) < rng.uniform(0.02, 0.4)
    prediction = rng.random(shape) < rng.uniform(0.02, 0.4)
    truth.flat[0] = prediction.flat[-1] = True  # neither empty
    assert hausdorff_distance(truth, prediction) == pytest.approx(
        _point_set_distance(truth, prediction), abs=1e-12
    )


def test_the_empty_conventions() -> None:
    empty, full = np.zeros((2, 3, 3), dtype=bool), np.ones((2, 3, 3), dtype=bool)
    assert hausdorff_distance(empty, empty) is None
    assert hausdorff_distance(empty, full) == hausdorff_distance(full, empty) == 1.0
    assert hausdorff_distance(full, full) == 0.0


def _columns(mask: str, slice_number: str = "1") -> tuple[Columns, Columns]:
    truth = Columns.of(
        {
            "segmentation": np.array([mask], dtype=object),
            "image_width": [4.0],
            "image_height": [4.0],
            "class": np.array(["stomach"], dtype=object),
            "case_day": np.array(["case1_day1"], dtype=object),
            "slice": np.array([slice_number], dtype=object),
        }
    )
    return truth, Columns.of({"predicted": np.array(["1 1"], dtype=object)})


def test_answers_without_any_mask_cannot_be_scored() -> None:
    truth, _ = _columns("")
    with pytest.raises(GraderError, match="no mask pixel"):
        dice_hausdorff(truth, Columns.of({"predicted": np.array([""], dtype=object)}))


def test_a_slice_number_that_is_not_a_number_is_the_answers_fault() -> None:
    truth, predicted = _columns("1 1", slice_number="first")
    with pytest.raises(GraderError, match="slice numbers"):
        dice_hausdorff(truth, predicted)
