"""dice-hausdorff: its two ways of measuring against scipy's point-set distance, and its rules."""

from __future__ import annotations

import math

import numpy as np
import pytest
from scipy.spatial.distance import directed_hausdorff

from pytest_mlebench.graders.errors import GraderError
from pytest_mlebench.graders.metrics import hausdorff
from pytest_mlebench.graders.metrics.base import Columns
from pytest_mlebench.graders.metrics.dice_hausdorff import dice_hausdorff
from pytest_mlebench.graders.metrics.hausdorff import hausdorff_distance


def _point_set_distance(truth: np.ndarray, prediction: np.ndarray) -> float:
    """The definition: every voxel scaled by the volume's extent, both directions, over √3."""
    scale = np.array(truth.shape, dtype=float)
    a, b = np.argwhere(truth) / scale, np.argwhere(prediction) / scale
    return max(directed_hausdorff(a, b)[0], directed_hausdorff(b, a)[0]) / math.sqrt(3)


@pytest.mark.parametrize("share", [0, 10**9], ids=["surface tree", "distance transforms"])
@pytest.mark.parametrize("seed", range(30))
def test_both_ways_equal_the_point_set_distance(
    seed: int, share: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(hausdorff, "TREE_SHARE", share)  # 0: the tree always; 10⁹: never
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


def test_a_set_inside_a_hollow_one_is_measured_from_its_centre() -> None:
    # the truth is a hollow cube's shell, the prediction one voxel at its centre plus the shell:
    # the centre's nearest truth voxel is 3 steps away, though it is no surface voxel itself
    shell = np.ones((7, 7, 7), dtype=bool)
    shell[1:6, 1:6, 1:6] = False
    filled = shell.copy()
    filled[3, 3, 3] = True
    assert hausdorff_distance(shell, filled) == pytest.approx(3 / 7 / math.sqrt(3))


def _columns(mask: str, slice_number: str = "1") -> tuple[Columns, Columns]:
    truth = Columns.of(
        {
            "segmentation": np.array([mask], dtype=object),
            "image_width": [4.0],
            "image_height": [4.0],
            "organ": np.array(["stomach"], dtype=object),
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
