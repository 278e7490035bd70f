"""64-bit hashes of Arrow text arrays, computed with vectorised numpy (no per-row Python).

Used by :mod:`graders.alignment` to pair ids by sorting hashes instead of building a hash table
of strings. A hash only ever *proposes* a pairing: equal strings always hash equal, and every
proposed pair is checked by comparing the strings themselves, so a collision can cost time but
never correctness.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import numpy.typing as npt
import pyarrow as pa
from numpy.lib.stride_tricks import as_strided

UInt64Array = npt.NDArray[np.uint64]

MAX_HASHED_BYTES = 256
"""Longer strings are not hashed (the caller falls back to Arrow's exact hash table)."""

_LENGTH_MIX = np.uint64(0x9E3779B97F4A7C15)
_WORD_MIX = np.uint64(0xBF58476D1CE4E5B9)
_FINAL_MIX = np.uint64(0x94D049BB133111EB)
# _KEEP_BYTES[k] keeps the low k bytes of a little-endian word.
_KEEP_BYTES = np.array([(1 << (8 * k)) - 1 for k in range(9)], dtype=np.uint64)


def hash_strings(values: pa.ChunkedArray) -> UInt64Array | None:
    """One hash per string, or None when the values cannot be hashed here.

    None means: a type other than ``string``, a null, or a string longer than
    :data:`MAX_HASHED_BYTES`.
    """
    return _per_chunk(values, _hash_chunk)


def _per_chunk(
    values: pa.ChunkedArray, of_chunk: Callable[[pa.StringArray], UInt64Array | None]
) -> UInt64Array | None:
    """``of_chunk`` of every chunk of a string column without nulls, written in place into one
    array (no list to concatenate); None when the type, a null or any chunk says no."""
    if values.type != pa.string() or values.null_count:
        return None
    result = np.empty(len(values), dtype=np.uint64)
    offset = 0
    for chunk in values.chunks:
        part = of_chunk(chunk)
        if part is None:
            return None
        result[offset : offset + part.size] = part
        offset += part.size
    return result


def _starts_and_lengths(chunk: pa.StringArray) -> tuple[npt.NDArray[np.int32], ...]:
    """Each string's byte offset into the chunk's data buffer, and its length in bytes."""
    offsets_buffer = chunk.buffers()[1]
    offsets = np.frombuffer(offsets_buffer, dtype=np.int32)[
        chunk.offset : chunk.offset + len(chunk) + 1
    ]
    return offsets[:-1], np.diff(offsets)


def _hash_chunk(chunk: pa.StringArray) -> UInt64Array | None:
    data_buffer = chunk.buffers()[2]
    starts, lengths = _starts_and_lengths(chunk)
    longest = int(lengths.max(initial=0))
    shortest = int(lengths.min()) if lengths.size else 0
    if longest > MAX_HASHED_BYTES:
        return None
    data = np.zeros(0, np.uint8) if data_buffer is None else np.frombuffer(data_buffer, np.uint8)
    # Eight zero bytes of padding let every string be read as whole 64-bit words.
    padded = np.zeros(data.size + 8, dtype=np.uint8)
    padded[: data.size] = data
    # words[i] is the little-endian 64-bit word starting at byte i (overlapping windows).
    words = as_strided(padded, shape=(data.size + 1, 8), strides=(1, 1)).view("<u8")[:, 0]
    hashes = lengths.astype(np.uint64) * _LENGTH_MIX
    last = data.size  # words[last] is all padding: a safe place to read past a short string
    for start in range(0, longest, 8):
        word = words[np.minimum(starts + start, last)]
        if start + 8 > shortest:  # some strings end inside this word or before it
            word &= _KEEP_BYTES[np.clip(lengths - start, 0, 8)]
        mixed = hashes ^ word
        mixed *= _WORD_MIX
        mixed ^= mixed >> np.uint64(29)
        # A string that has already ended keeps its hash: a hash never depends on other strings.
        hashes = mixed if start < shortest else np.where(lengths > start, mixed, hashes)
    hashes *= _FINAL_MIX
    hashes ^= hashes >> np.uint64(32)
    return np.asarray(hashes, dtype=np.uint64)


def short_string_keys(values: pa.ChunkedArray) -> UInt64Array | None:
    """One exact 64-bit key per string of at most 8 bytes, or None when one is longer.

    Two strings get the same key only when they are equal, so comparing keys compares the
    strings. A key is the string's bytes as a little-endian word, with the length in the top
    byte for strings of up to 7 bytes; an 8-byte string fills the word, and is told apart from
    the shorter ones by its last byte, which must then be at least 8 (a byte 0 to 7 there, a
    control character, returns None). None also for a type other than ``string`` or a null.
    """
    return _per_chunk(values, _short_keys_chunk)


def _short_keys_chunk(chunk: pa.StringArray) -> UInt64Array | None:
    data_buffer = chunk.buffers()[2]
    starts, lengths = _starts_and_lengths(chunk)
    if int(lengths.max(initial=0)) > 8:
        return None
    data = np.zeros(0, np.uint8) if data_buffer is None else np.frombuffer(data_buffer, np.uint8)
    padded = np.zeros(data.size + 8, dtype=np.uint8)
    padded[: data.size] = data
    words = as_strided(padded, shape=(data.size + 1, 8), strides=(1, 1)).view("<u8")[:, 0]
    keys = words[np.minimum(starts, data.size)] & _KEEP_BYTES[lengths]
    full = lengths == 8
    if (keys[full] >> np.uint64(56) < 8).any():
        return None
    short = ~full
    keys[short] |= lengths[short].astype(np.uint64) << np.uint64(56)
    return np.asarray(keys, dtype=np.uint64)
