"""A text column of :class:`~graders.metrics.base.Columns`: Arrow strings, read in blocks.

Text reaches a metric as the Arrow strings the CSV reader made (about the bytes of the text),
not as one Python object per value (about 50 bytes more per value, and a second copy beside
the Arrow one while it is made): 1.6 million InChI strings are 150 MB as Arrow text and about
450 MB as Python strings. A submission's column keeps its submission order; the row order of
the answers is an index beside it (8 bytes a row), applied one block at a time, so the text is
never copied whole into answer order.

A metric reads the column in one of three ways, cheapest first: :meth:`TextColumn.arrow_blocks`
(Arrow arrays of at most ``size`` rows, for Arrow's own string functions),
:meth:`TextColumn.blocks` (Python strings, one block at a time), or :meth:`TextColumn.texts`
(the whole column as a numpy array of Python strings: for metrics whose test sets are small).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import final

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from pytest_mlebench.graders.arrow_numpy import integer_array
from pytest_mlebench.graders.memory import MEMORY_POOL, release_free_memory

IntArray = npt.NDArray[np.int64]
ObjectArray = npt.NDArray[np.object_]

BLOCK_ROWS = 65_536
"""Rows per block when a caller names no size (a few megabytes of Python strings)."""


@final
class TextColumn:
    """Text values (``None`` for a missing one) in a given row order, held as Arrow strings.

    Args:
        values: The strings, as Arrow chunks (``string`` type).
        order: Row ``i`` of the column is ``values[order[i]]``; None: row ``i`` is ``values[i]``.
    """

    __slots__ = ("_chunks", "_order", "_starts")

    def __init__(self, values: pa.ChunkedArray, order: IntArray | None = None) -> None:
        if not pa.types.is_string(values.type):
            raise TypeError(f"a text column holds strings, not {values.type}")
        self._chunks: tuple[pa.Array, ...] = tuple(c for c in values.chunks if len(c))
        lengths = [len(chunk) for chunk in self._chunks]
        self._starts: IntArray = np.cumsum([0, *lengths], dtype=np.int64)
        if order is not None and (order.ndim != 1 or order.dtype != np.int64):
            raise TypeError("a text column's order is a 1-D int64 array")
        self._order = order

    @classmethod
    def of(cls, texts: Sequence[str | None] | npt.NDArray[np.generic]) -> TextColumn:
        """A column of the given Python strings, in that order.

        Raises:
            ValueError: A value is neither a string nor None.
        """
        values = texts.tolist() if isinstance(texts, np.ndarray) else list(texts)
        try:
            array = pa.array(values, type=pa.string())
        except (pa.ArrowInvalid, pa.ArrowTypeError) as error:
            raise ValueError(f"a text column holds strings or None: {error}") from error
        return cls(pa.chunked_array([array], type=pa.string()))

    @property
    def ndim(self) -> int:
        """1, as for the numpy columns beside it."""
        return 1

    def __len__(self) -> int:
        return len(self._order) if self._order is not None else int(self._starts[-1])

    def __repr__(self) -> str:
        return f"TextColumn({len(self)} rows)"

    def arrow_blocks(self, size: int = BLOCK_ROWS) -> Iterator[pa.Array]:
        """The column in row order as Arrow string arrays of at most ``size`` rows each.

        Before each block after the first, the allocator's free pages are handed back: the
        previous block's temporaries (freed on Arrow's threads, in their own malloc arenas) are
        otherwise kept, about 8 MB a block for h-and-m's predictions, 160 MB over the column.
        """
        for start in range(0, len(self), size):
            if start:
                release_free_memory()
            yield self._block(start, min(start + size, len(self)))

    def blocks(self, size: int = BLOCK_ROWS) -> Iterator[list[str | None]]:
        """The column in row order as lists of Python strings, at most ``size`` rows each."""
        for block in self.arrow_blocks(size):
            yield block.to_pylist()

    def texts(self) -> ObjectArray:
        """The whole column as a numpy array of Python strings (``None`` for a missing value)."""
        texts = np.empty(len(self), dtype=object)
        start = 0
        for block in self.blocks():
            texts[start : start + len(block)] = block
            start += len(block)
        return texts

    def _block(self, start: int, stop: int) -> pa.Array:
        if self._order is None:
            return self._slice(start, stop)
        return self._gather(self._order[start:stop])

    def _slice(self, start: int, stop: int) -> pa.Array:
        """Rows ``start:stop`` of the stored order, as one array (a view when in one chunk)."""
        first = int(np.searchsorted(self._starts, start, side="right")) - 1
        pieces = []
        while start < stop:
            offset = start - int(self._starts[first])
            piece = self._chunks[first].slice(offset, stop - start)
            pieces.append(piece)
            start += len(piece)
            first += 1
        if len(pieces) == 1:
            return pieces[0]
        if not pieces:
            return pa.array([], type=pa.string())
        return pa.concat_arrays(pieces, memory_pool=MEMORY_POOL)

    def _gather(self, positions: IntArray) -> pa.Array:
        """The values at ``positions``, in that order, taken chunk by chunk.

        Arrow's ``take`` over a chunked array joins the chunks into one array first (a copy of
        the whole column per call), so each chunk is taken from on its own and the pieces are
        put back in order with one small take.
        """
        if positions.size == 0:
            return pa.array([], type=pa.string())
        chunk_of = np.searchsorted(self._starts, positions, side="right") - 1
        by_chunk = np.argsort(chunk_of, kind="stable")
        sorted_chunks = chunk_of[by_chunk]
        bounds = np.flatnonzero(np.diff(sorted_chunks)) + 1
        pieces = []
        for part in np.split(by_chunk, bounds):
            chunk = int(chunk_of[part[0]])
            local = positions[part] - self._starts[chunk]
            taken = pc.take(self._chunks[chunk], integer_array(local), memory_pool=MEMORY_POOL)
            pieces.append(taken)
        joined = pa.concat_arrays(pieces, memory_pool=MEMORY_POOL)
        restore = np.empty_like(by_chunk)
        restore[by_chunk] = np.arange(by_chunk.size, dtype=by_chunk.dtype)
        return pc.take(joined, integer_array(restore), memory_pool=MEMORY_POOL)
