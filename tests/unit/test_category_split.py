"""MLE-bench's per-category split of the herbarium metadata, rule by rule."""

from __future__ import annotations

import random

import pytest
from sklearn.model_selection import train_test_split

from pytest_mlebench.errors import PrepareError
from pytest_mlebench.kaggle.category_split import (
    Labelled,
    category_folder,
    pair_records,
    split_per_category,
)


def _pairs(categories: list[int]) -> list[Labelled]:
    return [
        Labelled({"id": n, "file_name": f"{n}.jpg"}, {"image_id": n, "category_id": c})
        for n, c in enumerate(categories)
    ]


def _ids(pairs: list[Labelled]) -> list[int]:
    return [int(pair.image["id"]) for pair in pairs]


@pytest.mark.parametrize(
    ("count", "held"),
    [(1, []), (2, [1]), (3, [2]), (4, [3])],
)
def test_small_categories_give_their_last_image_to_test(count: int, held: list[int]) -> None:
    split = split_per_category(_pairs([7] * count), small_categories=True)
    assert _ids(split.test) == held
    assert _ids(split.train[7]) == [n for n in range(count) if n not in held]


def test_large_categories_follow_train_test_split_and_the_test_part_is_shuffled() -> None:
    categories = [5] * 10 + [9] * 6
    pairs = _pairs(categories)
    split = split_per_category(pairs, small_categories=True)
    five_train, five_test = train_test_split(pairs[:10], test_size=0.2, random_state=0)
    nine_train, nine_test = train_test_split(pairs[10:], test_size=0.2, random_state=0)
    expected = [*five_test, *nine_test]
    random.Random(0).shuffle(expected)
    assert split.test == expected
    assert split.train == {5: five_train, 9: nine_train}


def test_the_2022_rule_refuses_a_category_of_one() -> None:
    with pytest.raises(PrepareError, match="category 3 has 1 image"):
        split_per_category(_pairs([3, 4, 4]), small_categories=False)
    split = split_per_category(_pairs([4, 4]), small_categories=False)
    assert len(split.test) == 1 and len(split.train[4]) == 1


def test_pairs_must_name_the_same_image() -> None:
    metadata = {
        "images": [{"id": 1}, {"id": 2}],
        "annotations": [{"image_id": 1, "category_id": 0}, {"image_id": 3, "category_id": 0}],
    }
    with pytest.raises(PrepareError, match="paired with image 2"):
        pair_records(metadata, "id", "metadata.json")
    with pytest.raises(PrepareError, match="equal length"):
        pair_records({"images": [], "annotations": [{}]}, "id", "metadata.json")


@pytest.mark.parametrize(
    ("category", "folder"), [(15504, "155/04"), (3, "000/03"), (100, "001/00")]
)
def test_category_folder(category: int, folder: str) -> None:
    assert category_folder(category) == folder
