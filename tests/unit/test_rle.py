"""The shared run-length codec: parsing, the empty conventions, invalid runs, interval overlap."""

from __future__ import annotations

import math

import numpy as np
import pytest

from pytest_mlebench.graders.rle import (
    EMPTY,
    Order,
    RleError,
    Runs,
    encode,
    format_runs,
    intersection_area,
    is_empty_cell,
    parse_runs,
)


def runs(*pairs: tuple[int, int]) -> Runs:
    """Runs from 0-based half-open ``(start, end)`` pairs."""
    return Runs(
        np.array([start for start, _ in pairs], dtype=np.int64),
        np.array([end for _, end in pairs], dtype=np.int64),
    )


@pytest.mark.parametrize("cell", ["", "  ", "-", " - ", None, math.nan, np.nan])
def test_every_empty_convention_is_the_empty_mask(cell: object) -> None:
    assert is_empty_cell(cell)
    assert parse_runs(cell, pixels=10) == EMPTY
    assert parse_runs(cell).area == 0


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1 1", runs((0, 1))),
        ("3 2 10 1", runs((2, 4), (9, 10))),
        ("1 2 3 2", runs((0, 4))),  # touching runs merge
        ("1 1 2 1 3 1 7 2", runs((0, 3), (6, 8))),
        ("  5   5  ", runs((4, 9))),
    ],
)
def test_valid_texts_parse_to_sorted_disjoint_intervals(text: str, expected: Runs) -> None:
    assert parse_runs(text, pixels=10) == expected


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("1 2 3", "3 numbers"),
        ("1 a", "'a' is not a whole number"),
        ("1 2.5", "'2.5' is not a whole number"),
        ("0 3", "start 0 is below 1"),
        ("-2 3", "start -2 is below 1"),
        ("1 0", "run length 0 is below 1"),
        ("4 -1", "run length -1 is below 1"),
        ("8 4", "starting at pixel 8 (length 4) ends past the image's 10 pixels"),
        ("1 5 3 2", "starting at pixel 3 overlaps the run starting at pixel 1"),
        ("6 2 1 2", "starting at pixel 1 comes before the run starting at pixel 6"),
    ],
)
def test_invalid_texts_are_rejected_with_the_reason(text: str, reason: str) -> None:
    with pytest.raises(RleError, match=reason.replace("(", r"\(").replace(")", r"\)")):
        parse_runs(text, pixels=10)


def test_without_a_pixel_count_only_the_image_bound_is_unchecked() -> None:
    assert parse_runs("8 4").area == 4


@pytest.mark.parametrize(("order", "expected"), [("column", "2 3"), ("row", "2 1 4 2")])
def test_encode_counts_pixels_in_the_given_order(order: Order, expected: str) -> None:
    # column-major visits (0,0) (1,0) (0,1) (1,1) ...: pixels 2-4 set; row-major: 2, 4 and 5
    mask = np.array([[0, 1, 0], [1, 1, 0]], dtype=bool)
    assert encode(mask, order) == expected


def test_format_round_trips_and_the_empty_mask_is_empty_text() -> None:
    assert format_runs(parse_runs("3 2 10 1")) == "3 2 10 1"
    assert format_runs(parse_runs("1 2 3 2")) == "1 4"
    assert format_runs(EMPTY) == ""
    assert encode(np.zeros((3, 3), dtype=bool), "row") == ""


@pytest.mark.parametrize(
    ("first", "second", "overlap"),
    [
        ("1 4", "3 4", 2),
        ("1 4", "5 4", 0),  # touching, not overlapping
        ("1 10", "2 1 4 1 6 3", 5),
        ("1 2 5 2 9 2", "2 8", 4),
        ("1 3", "", 0),
        ("", "", 0),
    ],
)
def test_intersection_area_is_the_shared_pixel_count(first: str, second: str, overlap: int) -> None:
    a, b = parse_runs(first), parse_runs(second)
    assert intersection_area(a, b) == overlap
    assert intersection_area(b, a) == overlap


def test_intersection_agrees_with_dense_masks_on_random_images() -> None:
    generator = np.random.default_rng(7)
    for _ in range(50):
        left = generator.random((13, 17)) < 0.4
        right = generator.random((13, 17)) < 0.4
        orders: tuple[Order, ...] = ("column", "row")
        for order in orders:
            a = parse_runs(encode(left, order), pixels=left.size)
            b = parse_runs(encode(right, order), pixels=right.size)
            assert a.area == int(left.sum())
            assert intersection_area(a, b) == int((left & right).sum())


def test_a_billion_pixel_mask_is_measured_without_pixels() -> None:
    pixels = 40_000 * 30_000
    starts = np.arange(1, pixels, 1_000_000)
    text = " ".join(f"{start} 500000" for start in starts)
    mask = parse_runs(text, pixels=pixels)
    assert mask.area == len(starts) * 500_000
    shifted = parse_runs(" ".join(f"{start + 250_000} 500000" for start in starts[:-1]))
    assert intersection_area(mask, shifted) == (len(starts) - 1) * 250_000
