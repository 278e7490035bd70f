"""Kaggle-shaped raw files of the Lite competitions, one module per competition.

Each module makes what ``kaggle competitions download <id>`` leaves on disk — the same archive
name and layout (nested zips where Kaggle has them), file names, columns, id formats and
image/audio file types — with tiny synthetic content, and tells the harness where the public
train labels are. A module defines:

``COMPETITION``
    The competition id.
``make_download(folder, rng)``
    Write the downloaded archive(s) into ``folder``.
``public_train_labels(public)``
    The prepared public train rows in submission form (id column + answer columns), used to
    check that train and test ids are disjoint and to fit the leak probe.
``LEAK_COLUMNS`` (optional)
    Columns of the raw data that reveal the answer and must be absent from every public file.
``ID_IS_CONTENT`` (optional, default False)
    True when the submission's id column is the row's data itself (detecting-insults'
    ``Comment``): the leak probe then ignores the id and judges order and files only.
``EMPTY_CELL_IS_TEXT`` (optional, default False)
    True when an empty cell is a legitimate text answer (the empty string), so a NaN written
    to CSV is a wrong answer, not an invalid submission.
``train_files(public)`` / ``test_files(public)`` (optional)
    Per train / test id, the public file that holds its data (image, audio clip), for the leak
    probe's file-name and file-size features.
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
