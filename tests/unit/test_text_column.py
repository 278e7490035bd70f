"""Text columns reach metrics as Arrow strings (``TextColumn``): the same values, in the same row
order, whichever way a metric reads them, and the metrics that read them in blocks score exactly
what they score over the whole column as Python strings (the input they had before)."""

from __future__ import annotations

import itertools
from pathlib import Path

import numpy as np
import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

from pytest_mlebench.graders import Columns, get_metric
from pytest_mlebench.graders.metrics.text_column import TextColumn
from pytest_mlebench.graders.reading import open_text, read_columns

PROPERTY = settings(max_examples=60, deadline=None)

texts = st.lists(st.one_of(st.none(), st.text(max_size=6)), max_size=40)


@st.composite
def stored(
    draw: st.DrawFn, values: st.SearchStrategy[list[str | None]] = texts
) -> tuple[list[str | None], pa.ChunkedArray, np.ndarray | None]:
    """Values, the same split into arbitrary Arrow chunks, and an optional row order (rows may
    repeat or be left out, as any index array)."""
    items = draw(values)
    cuts = sorted(draw(st.lists(st.integers(0, len(items)), max_size=5)))
    bounds = [0, *cuts, len(items)]
    chunks = [pa.array(items[a:b], pa.string()) for a, b in itertools.pairwise(bounds)]
    column = pa.chunked_array(chunks, type=pa.string())
    if not items or draw(st.booleans()):
        return items, column, None
    order = draw(st.lists(st.integers(0, len(items) - 1), max_size=50))
    return items, column, np.array(order, dtype=np.int64)


@PROPERTY
@given(stored(), st.integers(1, 7))
def test_every_reading_gives_the_values_in_row_order(case: tuple, size: int) -> None:
    items, column, order = case
    expected = items if order is None else [items[i] for i in order]
    text = TextColumn(column, order)
    assert len(text) == len(expected)
    assert text.texts().tolist() == expected
    assert [value for block in text.blocks(size) for value in block] == expected
    blocks = list(text.arrow_blocks(size))
    assert all(0 < len(block) <= size for block in blocks)
    assert [value for block in blocks for value in block.to_pylist()] == expected


def test_columns_of_strings_is_text_and_other_objects_stay_numpy() -> None:
    columns = Columns.of({"t": ["a", None], "n": [1.0, 2.0], "m": np.array(["x", np.nan], object)})
    assert isinstance(columns.arrays[0], TextColumn)
    assert columns.values(0).tolist() == ["a", None]
    assert columns.text(1) is None and columns.values(1).dtype == np.float64
    assert columns.text(2) is None and columns.values(2)[0] == "x"
    assert Columns.of({"w": ["3", "4.5"]}).float_column().tolist() == [3.0, 4.5]


def _as_text(values: list[str], order: np.ndarray | None, chunks: int) -> Columns:
    """The values as a text column as validation hands them over: the answers in their own
    order (``order`` None), a submission stored in another order with ``order`` beside it."""
    stored_values: list[str | None] = list(values)
    for row, position in enumerate([] if order is None else order):
        stored_values[position] = values[row]
    pieces = np.array_split(np.array(stored_values, dtype=object), chunks)
    column = pa.chunked_array([pa.array(list(p), pa.string()) for p in pieces], pa.string())
    return Columns(("t",), (TextColumn(column, order),))


def _as_python(values: list[str]) -> Columns:
    """The values as one numpy array of Python strings: the metrics' input before."""
    array = np.empty(len(values), dtype=object)
    array[:] = values
    return Columns(("t",), (array,))


words = st.text(alphabet="abcxyz ", min_size=1, max_size=12)


@PROPERTY
@given(st.lists(st.tuples(words, words), min_size=1, max_size=30), st.randoms(), st.integers(1, 4))
def test_mean_levenshtein_scores_text_columns_as_python_strings(pairs, random, chunks) -> None:
    truth, pred = [t for t, _ in pairs], [p for _, p in pairs]
    order = np.array(random.sample(range(len(pairs)), len(pairs)), dtype=np.int64)
    metric = get_metric("mean-levenshtein")
    before = metric.compute(_as_python(truth), _as_python(pred))
    assert metric.compute(_as_text(truth, None, chunks), _as_text(pred, order, chunks)) == before


items = st.lists(st.sampled_from(["a1", "b2", "c3", "d4", "e5", "f6"]), max_size=8)


@PROPERTY
@given(
    st.lists(st.tuples(items, items), min_size=1, max_size=30),
    st.randoms(),
    st.integers(1, 4),
    st.integers(1, 5),
)
def test_map_at_k_scores_text_columns_as_python_strings(pairs, random, chunks, k) -> None:
    truth = [" ".join(t) for t, _ in pairs]
    pred = [" ".join(p) for _, p in pairs]
    order = np.array(random.sample(range(len(pairs)), len(pairs)), dtype=np.int64)
    metric = get_metric("map-at-k")
    before = metric.compute(_as_python(truth), _as_python(pred), k=k)
    after = metric.compute(_as_text(truth, None, chunks), _as_text(pred, order, chunks), k=k)
    assert after == before


def test_the_streamed_reader_gives_the_whole_file_readers_columns(tmp_path: Path) -> None:
    path = tmp_path / "rows.csv"
    rows = [f"id-{i},{'x' * (i % 50)} {i},{i / 7}" for i in range(40_000)]  # about 2 MB: chunks
    path.write_text("id,text,value\n" + "\n".join(rows) + "\n")
    types = {0: pa.string(), 1: pa.string(), 2: pa.float64()}
    whole = read_columns(open_text(path, None), types)
    streamed = read_columns(open_text(path, None), types, streamed=True)
    assert streamed[0].num_chunks > 1
    for position in types:
        assert streamed[position].equals(whole[position])
