"""MLE-bench's per-category split of COCO-style metadata, shared by the three herbarium sets.

The herbarium competitions (2020, 2021, 2022) describe each labelled image by an ``images``
record and an ``annotations`` record at the same position. The original MLE-bench holds out
20 % of every category: the records of a category, in file order, go through scikit-learn's
``train_test_split(test_size=0.2, random_state=0)``; the test records of all categories, in the
categories' order of first appearance, are then shuffled with ``random.Random(0)``. Reproducing
exactly that order is what makes the same images held out under the same new test ids.

Two rules for small categories, one per edition of the original's code:

* ``small_categories=True`` (2020, 2021): a category of one image stays in train; one of two to
  four images gives its last ``max(1, int(0.2 n))`` images to test (in file order).
* ``small_categories=False`` (2022): every category is split by ``train_test_split``, and a
  category that cannot give both sides an image is an error (Kaggle's 2022 data has none).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sklearn.model_selection import train_test_split

from pytest_mlebench.errors import PrepareError

TEST_SIZE = 0.2
SEED = 0
SHUFFLE_SEED = 0
SMALL = 5

Record = dict[str, Any]


@dataclass(frozen=True)
class Labelled:
    """One labelled image: its ``images`` record and its ``annotations`` record."""

    image: Record
    annotation: Record

    @property
    def category(self) -> int:
        return int(self.annotation["category_id"])


@dataclass(frozen=True)
class CategorySplit:
    """Train images by category (in first-appearance order) and the shuffled test images."""

    train: dict[int, list[Labelled]]
    test: list[Labelled]


def pair_records(metadata: Record, image_key: str, source: str) -> list[Labelled]:
    """Pair ``images`` and ``annotations`` by position, checking that their ids agree.

    Raises:
        PrepareError: the lists differ in length or a pair names two different images.
    """
    images, notes = metadata.get("images"), metadata.get("annotations")
    if not isinstance(images, list) or not isinstance(notes, list) or len(images) != len(notes):
        raise PrepareError(f"{source}: 'images' and 'annotations' must be lists of equal length")
    pairs = [Labelled(image, note) for image, note in zip(images, notes, strict=True)]
    for pair in pairs:
        if pair.image.get(image_key) != pair.annotation.get("image_id"):
            raise PrepareError(
                f"{source}: annotation for image {pair.annotation.get('image_id')!r} is paired "
                f"with image {pair.image.get(image_key)!r}; is the file complete?"
            )
    return pairs


def split_per_category(pairs: Sequence[Labelled], *, small_categories: bool) -> CategorySplit:
    """Hold out 20 % of each category as the original does (see the module docstring)."""
    by_category: dict[int, list[Labelled]] = {}
    for pair in pairs:
        by_category.setdefault(pair.category, []).append(pair)
    train: dict[int, list[Labelled]] = {}
    test: list[Labelled] = []
    for category, members in by_category.items():
        kept, held = _split(category, members, small_categories)
        train[category] = kept
        test.extend(held)
    random.Random(SHUFFLE_SEED).shuffle(test)
    return CategorySplit(train, test)


def _split(
    category: int, members: list[Labelled], small_categories: bool
) -> tuple[list[Labelled], list[Labelled]]:
    count = len(members)
    if small_categories and count == 1:
        return members, []
    if small_categories and count < SMALL:
        held = max(1, int(count * TEST_SIZE))
        return members[:-held], members[-held:]
    if count < 2:
        raise PrepareError(f"category {category} has {count} image: it cannot be in both parts")
    kept, held = train_test_split(members, test_size=TEST_SIZE, random_state=SEED)
    return list(kept), list(held)


def category_folder(category: int) -> str:
    """The original's nested folder of a category: 15504 → ``155/04``, 3 → ``000/03``."""
    return f"{category // 100:03d}/{category % 100:02d}"
