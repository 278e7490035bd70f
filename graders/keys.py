"""Row keys of more than one column: the id column joined with a spec's key columns.

Some files name a row by two columns, neither unique alone: UW-Madison's ``id`` (one MRI slice)
and ``class`` (one organ of it). A spec's ``key_columns`` name the columns that, after the id
column, identify a row; their values, stripped of surrounding whitespace, are joined with
:data:`KEY_SEPARATOR` into one key per row, which alignment then matches as an exact set like any
single id (unknown, repeated and missing keys are invalid with the key shown), so rows are never
paired by position.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyarrow as pa
import pyarrow.compute as pc

from pytest_mlebench.graders.memory import MEMORY_POOL
from pytest_mlebench.graders.values import stripped_text

KEY_SEPARATOR = " / "
"""What joins the parts of a row key (``case1_day2_slice_0003 / stomach``)."""


def row_keys(ids: pa.ChunkedArray, parts: Sequence[pa.ChunkedArray]) -> pa.ChunkedArray:
    """The normalized ids joined with the stripped key column values, row by row (the ids
    themselves when there are no key columns)."""
    if not parts:
        return ids
    texts = [ids.combine_chunks(), *(stripped_text(part).combine_chunks() for part in parts)]
    joined = pc.binary_join_element_wise(*texts, KEY_SEPARATOR, memory_pool=MEMORY_POOL)
    return pa.chunked_array([joined], type=pa.string())
