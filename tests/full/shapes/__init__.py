"""Kaggle-shaped raw files of the Medium and High competitions, one module per competition.

Each module follows the contract of ``tests/lite/shapes`` (``COMPETITION``, ``make_download``,
``public_train_labels`` and the optional names described there), and may add:

``GROUP_COLUMN`` (optional)
    A column of the public ``train.csv`` and ``test.csv`` that the split keeps apart (breaths,
    molecules, patients): no value may be in both.
``FEATURE_COLUMNS`` (optional)
    Answer columns the metric reads that are public features too (champs' coupling ``type``),
    so a public file may hold them for test rows.
``group_values(public)`` (optional)
    Instead of ``GROUP_COLUMN``, the train and test group values read from the public files
    (for data that is not two CSVs with a group column).
``perfect_submission(prepared)`` (optional)
    The answers in submission form, where the answers list several acceptable values per row
    (tensorflow2-question-answering's spans).
``leak_probe(prepared)`` (optional)
    A metadata-only submission, where the answers are not values a nearest-neighbour model can
    learn (AI4Code's cell orders).
"""

from __future__ import annotations

import importlib
import pkgutil
from types import ModuleType


def load_shapes() -> dict[str, ModuleType]:
    """Every shape module of this package, by competition id."""
    shapes = {}
    for info in pkgutil.iter_modules(__path__):
        module = importlib.import_module(f"{__name__}.{info.name}")
        shapes[module.COMPETITION] = module
    return shapes
