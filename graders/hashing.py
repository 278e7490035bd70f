"""64-bit hashes of Arrow text arrays, computed with vectorised numpy (no per-row Python).

Used by :mod:`graders.alignment` to pair ids by sorting hashes instead of building a hash table
of strings. A hash only ever *proposes* a pairing: equal strings always hash equal, and every
proposed pair is checked by comparing the strings themselves, so a collision can cost time but
never correctness.
"""

from __future__ import annotations

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
    if values.type != pa.string() or values.null_count:
        return None
    hashes = np.empty(len(values), dtype=np.uint64)
    offset = 0
    for chunk in values.chunks:  # one chunk at a time, written in place (no list to concatenate)
        chunk_hashes = _hash_chunk(chunk)
        if chunk_hashes is None:
            return None
        hashes[offset : offset + chunk_hashes.size] = chunk_hashes
        offset += chunk_hashes.size
    return hashes


def _hash_chunk(chunk: pa.StringArray) -> UInt64Array | None:
    _, offsets_buffer, data_buffer = chunk.buffers()
    offsets = np.frombuffer(offsets_buffer, dtype=np.int32)[
        chunk.offset : chunk.offset + len(chunk) + 1
    ]
    starts, lengths = offsets[:-1], np.diff(offsets)
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
