"""Arrow arrays of numbers and text as numpy arrays, without pyarrow's pandas bridge.

pyarrow's ``to_numpy`` runs its pandas conversion code, which imports pandas (about 40 MB and a
few tenths of a second) the first time it runs in a process where pandas is installed — even
for a zero-copy view of float64 values. DLPack hands numpy the same buffer without it, so a
grading whose metric needs no pandas never loads it (``tests/unit/test_arrow_numpy.py``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from pytest_mlebench.graders.memory import MEMORY_POOL


def numbers_of(array: pa.Array) -> npt.NDArray[Any]:
    """A read-only view of a null-free integer or float array; anything else converts the
    usual way (a copy, through pyarrow's pandas code)."""
    numeric = pa.types.is_integer(array.type) or pa.types.is_floating(array.type)
    if numeric and array.null_count == 0:
        view: npt.NDArray[Any] = np.from_dlpack(array)
        return view
    converted: npt.NDArray[Any] = array.to_numpy(zero_copy_only=False)
    return converted


def integer_array(values: npt.NDArray[np.integer[Any]]) -> pa.Array:
    """A numpy integer array as an Arrow array over the same bytes (``pa.array`` of a numpy
    array consults pyarrow's pandas shim, which imports pandas)."""
    contiguous = np.ascontiguousarray(values)
    kind = pa.from_numpy_dtype(contiguous.dtype)
    return pa.Array.from_buffers(kind, len(contiguous), [None, pa.py_buffer(contiguous)])


def booleans_of(array: pa.Array) -> npt.NDArray[np.bool_]:
    """A null-free boolean array as numpy booleans (Arrow packs them in bits; one cast to a
    byte each, then a view)."""
    as_bytes = numbers_of(pc.cast(array, pa.uint8(), memory_pool=MEMORY_POOL))
    return as_bytes.view(np.bool_)


def boolean_array(mask: npt.NDArray[np.bool_]) -> pa.Array:
    """A numpy boolean array as an Arrow boolean array (packed into bits; no pandas)."""
    packed = np.packbits(mask, bitorder="little")
    return pa.Array.from_buffers(pa.bool_(), len(mask), [None, pa.py_buffer(packed)])


def texts_of(column: pa.ChunkedArray) -> npt.NDArray[np.object_]:
    """A text column as a numpy array of Python strings (``None`` for a null), chunk by chunk
    through ``to_pylist``: slower than pyarrow's ``to_numpy`` by about 40 ns a value, and the
    only way that does not import pandas."""
    texts = np.empty(len(column), dtype=object)
    start = 0
    for chunk in column.chunks:
        texts[start : start + len(chunk)] = chunk.to_pylist()
        start += len(chunk)
    return texts


def joined_numbers(chunks: Iterable[pa.Array], dtype: npt.DTypeLike) -> npt.NDArray[Any]:
    """The chunks' numbers in one new numpy array of ``dtype`` (empty when there are none)."""
    return np.concatenate([np.zeros(0, dtype=dtype)] + [numbers_of(chunk) for chunk in chunks])
