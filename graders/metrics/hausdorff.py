"""The symmetric Hausdorff distance of two voxel sets of a volume scaled into the unit cube.

Every voxel's coordinates are divided by the volume's extent along each axis (``extent``: slices,
height, width), so the whole volume fits the unit cube, and the distance — the farthest any voxel
of one set lies from the nearest voxel of the other, either way round — is divided by the cube's
diagonal √3, which puts it in [0, 1]. This is scipy's ``directed_hausdorff`` on the scaled voxel
coordinates, taken both ways, computed without listing every voxel:

- only the box bounding both sets matters (the nearest voxel of a set lies inside it);
- a voxel in both sets is at distance 0, so only the voxels of one set outside the other are
  measured from;
- the nearest voxel of a set, seen from outside it, is on its surface (a voxel with a 6-neighbour
  outside the set: from any other, one step along an axis towards the query point would be
  closer), so a KD-tree of the surface voxels (scipy) answers, when the voxels to measure from and
  the surface are few beside the box;
- otherwise (each way on its own) a Euclidean distance transform of the box (scipy) gives every
  voxel's distance to the other set at once.

Both ways are exact; memory is bounded by the box (a volume of a few hundred MRI slices is a few
tens of megabytes as booleans).
"""

from __future__ import annotations

import math

import numpy as np
import numpy.typing as npt

BoolVolume = npt.NDArray[np.bool_]

UNIT_CUBE_DIAGONAL = math.sqrt(3.0)
"""The longest distance in the unit cube a volume is scaled into."""

TREE_SHARE = 2
"""Each way, the KD-tree answers when the voxels it measures from and the surface it measures to
are under a ``1/TREE_SHARE`` share of the box's voxels; a distance transform answers otherwise."""

_FACES = np.zeros((3, 3, 3), dtype=bool)  # the six face neighbours and the centre
_FACES[1, 1, :] = _FACES[1, :, 1] = _FACES[:, 1, 1] = True


def hausdorff_distance(
    truth: BoolVolume, prediction: BoolVolume, extent: tuple[int, ...] | None = None
) -> float | None:
    """The normalised symmetric Hausdorff distance of two voxel sets, in [0, 1].

    ``extent`` is the volume's size along each axis when the arrays are a part of it (default:
    their shape). None when both sets are empty (nothing to measure), 1 when exactly one is, 0
    when they are equal.
    """
    has_truth, has_prediction = bool(truth.any()), bool(prediction.any())
    if not (has_truth or has_prediction):
        return None
    if has_truth != has_prediction:
        return 1.0
    if np.array_equal(truth, prediction):
        return 0.0
    scale = np.array([1.0 / size for size in (extent or truth.shape)])
    box = _bounding_box(truth | prediction)
    truth, prediction = truth[box], prediction[box]
    forward = _farthest(truth & ~prediction, prediction, scale)
    backward = _farthest(prediction & ~truth, truth, scale)
    return max(forward, backward) / UNIT_CUBE_DIAGONAL


def _farthest(sources: BoolVolume, target: BoolVolume, scale: npt.NDArray[np.float64]) -> float:
    # SciPy is imported here: the metrics module must stay cheap to import for every grading.
    from scipy.ndimage import binary_erosion, distance_transform_edt
    from scipy.spatial import cKDTree

    """The largest distance from a source voxel (none of them in ``target``) to the nearest
    voxel of ``target``; 0 without sources."""
    if not sources.any():
        return 0.0
    surface = target & ~binary_erosion(target, _FACES, border_value=1)
    if (int(sources.sum()) + int(surface.sum())) * TREE_SHARE < target.size:
        tree = cKDTree(np.argwhere(surface) * scale)
        distances, _ = tree.query(np.argwhere(sources) * scale, k=1)
        return float(np.max(distances))
    sampling = tuple(float(s) for s in scale)
    return float(distance_transform_edt(~target, sampling=sampling)[sources].max())


def _bounding_box(voxels: BoolVolume) -> tuple[slice, ...]:
    box = []
    for axis in range(voxels.ndim):
        others = tuple(other for other in range(voxels.ndim) if other != axis)
        present = np.flatnonzero(voxels.any(axis=others))
        box.append(slice(int(present[0]), int(present[-1]) + 1))
    return tuple(box)
