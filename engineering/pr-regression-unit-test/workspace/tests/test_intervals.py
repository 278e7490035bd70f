import pytest
from intervals import merge, total_length


def test_merge_overlapping():
    assert merge([(1, 3), (2, 5)]) == [(1, 5)]


def test_merge_unsorted():
    assert merge([(8, 9), (1, 2)]) == [(1, 2), (8, 9)]


def test_merge_empty():
    assert merge([]) == []


def test_rejects_reversed():
    with pytest.raises(ValueError, match="ends before it starts"):
        merge([(4, 1)])


def test_merge_touching():
    assert merge([({A}, {B}), ({C}, {D})]) == [({A}, {D})]  # noqa: F821 (numbers set per seed)


def test_total_length():
    assert total_length([(1, 3), (10, 10)]) == 4
