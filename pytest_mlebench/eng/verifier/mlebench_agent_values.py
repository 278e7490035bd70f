"""The data-only encoding of values the agent's child process sends to the verifier.

The child answers every request with a JSON header plus raw blobs: JSON for scalars, times, lists,
tuples and dicts; ``.npy`` written with ``allow_pickle=False`` for arrays; columns for pandas frames
and series. Decoding them cannot run code in the verifier (no ``pickle`` on this side). Any other
object (a fitted model, a torch module) stays in the child and travels as a *ref*: an id the
verifier turns into a proxy with the ``make_ref`` callable it passes to :func:`decode`.

Standard library only at module level (numpy and pandas are imported where a value needs them).
"""

from __future__ import annotations

import datetime
import io
import sys
from collections.abc import Callable
from typing import Any


def encode(value: Any, blobs: list[bytes], keep: dict[int, Any]) -> Any:
    """``value`` as JSON-able data, arrays appended to ``blobs``; other objects kept as refs."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return {"t": "v", "v": value}
    if isinstance(value, (list, tuple)):
        kind = "tuple" if isinstance(value, tuple) else "list"
        return {"t": kind, "v": [encode(item, blobs, keep) for item in value]}
    if isinstance(value, dict):
        return {
            "t": "dict",
            "v": [[encode(k, blobs, keep), encode(v, blobs, keep)] for k, v in value.items()],
        }
    if isinstance(value, (datetime.date, datetime.time)):  # pandas' Timestamp and NaT too
        text = str(value)
        if text == "NaT":
            return {"t": "v", "v": None}
        kind = next(
            k for k in ("datetime", "date", "time") if isinstance(value, getattr(datetime, k))
        )
        return {"t": "time", "kind": kind, "v": value.isoformat()}
    numpy = sys.modules.get("numpy")
    if numpy is not None and isinstance(value, (numpy.ndarray, numpy.generic)):
        return _encode_array(numpy, value, blobs, keep)
    pandas = sys.modules.get("pandas")
    if pandas is not None and isinstance(value, pandas.DataFrame):
        columns = [encode(name, blobs, keep) for name in value.columns]
        data = [encode(value.iloc[:, i].to_numpy(), blobs, keep) for i in range(value.shape[1])]
        return {
            "t": "frame",
            "columns": columns,
            "data": data,
            "index": encode(value.index.to_numpy(), blobs, keep),
        }
    if pandas is not None and isinstance(value, pandas.Series):
        return {
            "t": "series",
            "name": encode(value.name, blobs, keep),
            "v": encode(value.to_numpy(), blobs, keep),
            "index": encode(value.index.to_numpy(), blobs, keep),
        }
    if pandas is not None and isinstance(value, pandas.Index):
        return encode(value.to_numpy(), blobs, keep)
    ref = len(keep)
    keep[ref] = value
    return {"t": "ref", "id": ref, "type": type(value).__name__}


def _encode_array(numpy: Any, value: Any, blobs: list[bytes], keep: dict[int, Any]) -> Any:
    array = numpy.asarray(value)
    scalar = isinstance(value, numpy.generic)
    if array.dtype.hasobject:
        items = [encode(item, blobs, keep) for item in array.ravel().tolist()]
        return {"t": "objects", "shape": list(array.shape), "v": items, "scalar": scalar}
    buffer = io.BytesIO()
    numpy.save(buffer, array, allow_pickle=False)
    blobs.append(buffer.getvalue())
    return {"t": "array", "blob": len(blobs) - 1, "scalar": scalar}


def decode(data: Any, blobs: list[bytes], make_ref: Callable[[int, str], Any]) -> Any:
    """The value :func:`encode` described; each ref becomes ``make_ref(id, type_name)``."""
    kind = data["t"]
    if kind == "v":
        if data["v"] is not None and not isinstance(data["v"], (bool, int, float, str)):
            raise TypeError("a scalar that is not one")
        return data["v"]
    if kind in ("list", "tuple"):
        items = [decode(item, blobs, make_ref) for item in data["v"]]
        return tuple(items) if kind == "tuple" else items
    if kind == "dict":
        return {decode(k, blobs, make_ref): decode(v, blobs, make_ref) for k, v in data["v"]}
    if kind == "ref":
        return make_ref(int(data["id"]), str(data["type"])[:200])
    if kind == "time":
        parse: dict[str, Callable[[str], Any]] = {
            "datetime": datetime.datetime.fromisoformat,
            "date": datetime.date.fromisoformat,
            "time": datetime.time.fromisoformat,
        }
        return parse[str(data["kind"])](str(data["v"]))
    import numpy

    if kind == "array":
        array = numpy.load(io.BytesIO(blobs[int(data["blob"])]), allow_pickle=False)
        return array[()] if data.get("scalar") else array
    if kind == "objects":
        items = [decode(item, blobs, make_ref) for item in data["v"]]
        array = numpy.empty(len(items), dtype=object)
        array[:] = items
        array = array.reshape([int(n) for n in data["shape"]])
        return array[()] if data.get("scalar") else array
    import pandas

    if kind == "series":
        index = decode(data["index"], blobs, make_ref)
        return pandas.Series(
            decode(data["v"], blobs, make_ref),
            index=index,
            name=decode(data["name"], blobs, make_ref),
        )
    if kind == "frame":
        columns = [decode(name, blobs, make_ref) for name in data["columns"]]
        values = [decode(column, blobs, make_ref) for column in data["data"]]
        frame = pandas.DataFrame(
            dict(enumerate(values)), index=decode(data["index"], blobs, make_ref)
        )
        frame.columns = columns
        return frame
    raise TypeError(f"unknown value kind {kind!r}")
