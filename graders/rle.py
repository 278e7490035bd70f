"""Run-length encoded masks: parse, validate and measure them as run intervals, never as pixels.

Every segmentation competition writes a mask as ``"start length start length ..."`` with 1-based
starts counted through the image's pixels in one order: column-major (down each column, then the
next column: TGS salt, HuBMAP, contrails) or row-major (along each row: UW-Madison, Vesuvius). An
empty mask is written as an empty cell, ``"-"`` or a missing value (NaN).

:func:`parse_runs` turns the text into :class:`Runs`: sorted, disjoint, half-open 0-based
intervals of the flattened image. A mask of 10⁹ pixels with a few thousand runs stays a few
thousand pairs of integers; areas and overlaps come from the interval end points
(:func:`intersection_area`), so nothing is ever decoded to a dense array. The pixel order matters
only when a mask is built from or compared with an image array (:func:`encode`); two masks in the
same order are measured without it.

Invalid encodings raise :class:`RleError` with the reason: a token that is not a whole number, an
odd number of tokens, a start below 1, a length below 1, a run past the last pixel, and runs that
overlap or are not in increasing order. Runs that merely touch are merged.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
import numpy.typing as npt

Order = Literal["column", "row"]
"""The pixel order runs count through: ``column`` (down each column first) or ``row``."""

EMPTY_TEXTS = frozenset({"", "-"})
"""Cell texts that mean an empty mask (besides a missing value)."""

IntArray = npt.NDArray[np.int64]


class RleError(ValueError):
    """A run-length encoding that cannot be a mask; the message says why."""


@dataclass(frozen=True, eq=False)
class Runs:
    """A mask as sorted, disjoint, half-open 0-based pixel intervals ``[starts[i], ends[i])``."""

    starts: IntArray
    ends: IntArray

    @property
    def area(self) -> int:
        """The number of pixels in the mask."""
        return int((self.ends - self.starts).sum())

    @property
    def empty(self) -> bool:
        """True when the mask has no pixel."""
        return len(self.starts) == 0

    def __len__(self) -> int:
        return len(self.starts)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Runs):
            return NotImplemented
        return bool(
            np.array_equal(self.starts, other.starts) and np.array_equal(self.ends, other.ends)
        )

    __hash__ = None  # type: ignore[assignment]


EMPTY = Runs(np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64))
"""The empty mask."""


def is_empty_cell(cell: object) -> bool:
    """True for a missing value (None, NaN) or a text meaning an empty mask."""
    if cell is None or (isinstance(cell, float) and math.isnan(cell)):
        return True
    return str(cell).strip() in EMPTY_TEXTS


def parse_runs(cell: object, pixels: int | None = None) -> Runs:
    """The runs a cell encodes; ``pixels`` (the image's pixel count) bounds them when given.

    Raises:
        RleError: The text is not a valid encoding (the message says why).
    """
    if is_empty_cell(cell):
        return EMPTY
    tokens = str(cell).split()
    if len(tokens) % 2:
        raise RleError(f"{len(tokens)} numbers: a run-length encoding needs start-length pairs")
    try:
        numbers = np.array([int(token) for token in tokens], dtype=np.int64)
    except (ValueError, OverflowError):
        bad = next(token for token in tokens if not _is_whole(token))
        raise RleError(f"{bad!r} is not a whole number") from None
    starts, lengths = numbers[0::2] - 1, numbers[1::2]
    _require_positive(starts, lengths)
    ends = starts + lengths
    if pixels is not None and ends[-1] > pixels:
        at = int(np.argmax(ends > pixels))
        raise RleError(
            f"the run starting at pixel {int(starts[at]) + 1} (length {int(lengths[at])}) "
            f"ends past the image's {pixels} pixels"
        )
    return _merge_touching(starts, ends)


def _is_whole(token: str) -> bool:
    try:
        int(token)
    except ValueError:
        return False
    return True


def _require_positive(starts: IntArray, lengths: IntArray) -> None:
    if (starts < 0).any():
        raise RleError(
            f"start {int(starts[np.argmax(starts < 0)]) + 1} is below 1 (starts are 1-based)"
        )
    if (lengths < 1).any():
        raise RleError(f"run length {int(lengths[np.argmax(lengths < 1)])} is below 1")


def _merge_touching(starts: IntArray, ends: IntArray) -> Runs:
    crossing = starts[1:] < ends[:-1]
    if crossing.any():
        at = int(np.argmax(crossing)) + 1
        kind = "overlaps" if starts[at] >= starts[at - 1] else "comes before"
        raise RleError(
            f"the run starting at pixel {int(starts[at]) + 1} {kind} the run starting at pixel "
            f"{int(starts[at - 1]) + 1}; runs must be in increasing order without overlap"
        )
    # a run that starts where the previous one ends continues it: one run per group
    first_of_group = np.flatnonzero(np.append(True, starts[1:] != ends[:-1]))
    last_of_group = np.append(first_of_group[1:] - 1, len(ends) - 1)
    return Runs(starts[first_of_group].copy(), ends[last_of_group].copy())


def format_runs(runs: Runs) -> str:
    """The 1-based ``start length`` text of ``runs`` (empty text for the empty mask)."""
    pairs = np.column_stack((runs.starts + 1, runs.ends - runs.starts)).ravel()
    return " ".join(str(int(number)) for number in pairs)


def encode(mask: npt.ArrayLike, order: Order) -> str:
    """The run-length text of a 2-D boolean image array, counting pixels in ``order``.

    For building small masks (fixtures, tests); scoring never goes through arrays.
    """
    image = np.asarray(mask, dtype=bool)
    if image.ndim != 2:
        raise ValueError(f"a mask must be a 2-D array, not {image.ndim}-D")
    flat = image.ravel(order="F" if order == "column" else "C").astype(np.int8)
    changes = np.flatnonzero(np.diff(np.concatenate(([0], flat, [0]))))
    starts, ends = changes[0::2], changes[1::2]
    return format_runs(Runs(starts.astype(np.int64), ends.astype(np.int64)))


def intersection_area(first: Runs, second: Runs) -> int:
    """The number of pixels in both masks, from the runs' end points alone.

    Every end point is an event (+1 at a start, -1 at an end); between consecutive events the
    running sum says how many masks cover the stretch, and the stretches covered twice add up
    to the overlap. ``O(n log n)`` in the number of runs, whatever the image's size.
    """
    if first.empty or second.empty:
        return 0
    points = np.concatenate((first.starts, first.ends, second.starts, second.ends))
    steps = np.concatenate(
        (
            np.ones(len(first), dtype=np.int64),
            -np.ones(len(first), dtype=np.int64),
            np.ones(len(second), dtype=np.int64),
            -np.ones(len(second), dtype=np.int64),
        )
    )
    order = np.argsort(points, kind="stable")
    points, coverage = points[order], np.cumsum(steps[order])
    return int((np.diff(points) * (coverage[:-1] == 2)).sum())
