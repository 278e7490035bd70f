"""Pairing answer rows with submission rows through compact, sorted 64-bit id keys.

:func:`graders.hashing.short_string_keys` turns each id of at most 8 bytes into an exact key
(equal keys mean equal ids). :class:`SortedKeys` holds one side's keys in 12 bytes a row, with
no strings: each key is scrambled by a bijective mixer (so that its high bits are uniform and
distinct keys stay distinct), keeps its high bits and carries its row number in the low bits,
so one plain sort (no argsort) orders the rows by key; the low bits the row number replaced are
kept beside it, in row order, as a 32-bit check. When the submission holds exactly the answer
ids, the two sorted arrays agree in their high bits position by position: :func:`pair_rows`
checks that block by block, proves every pair exact with the checks (a pair is never trusted
on partial bits), and re-pairs by the full key the rows of ties — distinct keys that agree in
their high bits, expected a few dozen times among 13 million ids.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import numpy.typing as npt

UInt64Array = npt.NDArray[np.uint64]
IntArray = npt.NDArray[np.int64]

BLOCK_ROWS = 1 << 20
"""Rows per step where the keys are mixed, compared or paired (bounded temporaries)."""

MAX_ROWS = 1 << 32
"""The row number must fit the 32-bit check (far beyond any test set)."""

MAX_TIED_ROWS = 1 << 16
"""Beyond this many rows in ties the pairing gives up (never for keys of distinct ids)."""

_MIX_1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX_2 = np.uint64(0x94D049BB133111EB)


def mix_keys(keys: UInt64Array) -> UInt64Array:
    """Scramble keys, in place, by a bijection of 64-bit words (SplitMix64's finaliser).

    Distinct keys stay distinct (every step can be undone), and keys that differ in a few low
    bits, as the keys of consecutive numeric ids do, end up far apart in every bit.
    """
    keys ^= keys >> np.uint64(30)
    keys *= _MIX_1
    keys ^= keys >> np.uint64(27)
    keys *= _MIX_2
    keys ^= keys >> np.uint64(31)
    return keys


class SortedKeys:
    """One side's id keys, sorted, each carrying its row; 12 bytes a row.

    Attributes:
        size: The number of rows.
    """

    def __init__(self, entries: UInt64Array, checks: npt.NDArray[np.uint32]) -> None:
        self.size = int(entries.size)
        self.entries = entries
        self.checks = checks
        self.shift = np.uint64(shift_for(self.size))
        self.row_bits = np.uint64((1 << int(self.shift)) - 1)

    @classmethod
    def of(cls, keys: UInt64Array) -> SortedKeys | None:
        """Sort ``keys`` (in row order; consumed: the array is reused in place).

        None when there are no keys, or more than the check can number.
        """
        rows = int(keys.size)
        if rows == 0 or rows > MAX_ROWS:
            return None
        row_bits = np.uint64((1 << shift_for(rows)) - 1)
        checks = np.empty(rows, dtype=np.uint32)
        for block in _blocks(rows):
            part = mix_keys(keys[block])  # a view: mixed in place
            checks[block] = part & row_bits
            part &= ~row_bits
            part |= np.arange(block.start, block.stop, dtype=np.uint64)
        keys.sort()
        return cls(keys, checks)

    def rows(self, block: slice) -> IntArray:
        """The row numbers of the sorted entries in ``block``."""
        return (self.entries[block] & self.row_bits).view(np.int64)

    def full_keys(self, positions: IntArray) -> UInt64Array:
        """The mixed keys, all 64 bits, of the sorted entries at ``positions``."""
        entries = self.entries[positions]
        rows = (entries & self.row_bits).view(np.int64)
        return (entries & ~self.row_bits) | self.checks[rows].astype(np.uint64)


def may_need_strip(keys: UInt64Array) -> bool:
    """Whether an id, given by its exact key, starts or ends with a byte stripping might remove.

    ASCII whitespace (tab to carriage return, space) counts, and so does any non-ASCII byte
    (Unicode whitespace is never plain ASCII); the same rule as the whole-file path's, read from
    the key's bytes instead of the text.
    """
    top = keys >> np.uint64(56)
    lengths = np.where(top < 8, top, np.uint64(8))  # a full 8-byte key has no length byte
    filled = lengths > 0
    first = keys & np.uint64(0xFF)
    last_byte_shifts = (np.maximum(lengths, np.uint64(1)) - np.uint64(1)) * np.uint64(8)
    last = (keys >> last_byte_shifts) & np.uint64(0xFF)
    edges = np.concatenate([first[filled], last[filled]])
    return bool((((edges >= 9) & (edges <= 13)) | (edges == 32) | (edges >= 0x80)).any())


def shift_for(size: int) -> int:
    """How many low bits number the rows of ``size`` rows."""
    return max(1, (size - 1).bit_length())


def pair_rows(answers: SortedKeys, submission: SortedKeys) -> npt.NDArray[np.uint32] | None:
    """For each answer row, the submission row with its id; None unless the ids match one to one.

    None means: the counts differ, an id of one side is not on the other, or an id repeats on
    either side (the whole-file path then finds and explains which). Once every pair is proven,
    the answers' checks are no longer needed and their buffer becomes the result (no new
    array), so ``answers`` must not be used afterwards.
    """
    size = answers.size
    if submission.size != size:
        return None
    shift = answers.shift
    tied = [np.zeros(0, dtype=np.int64)]
    for block in _blocks(size):
        here = answers.entries[block]
        if ((here ^ submission.entries[block]) >> shift).any():
            return None
        # Sorted, so a tie sits next to its twin (the block's last row meets the next block).
        following = answers.entries[block.start + 1 : block.stop + 1]
        ties = np.flatnonzero((here[: following.size] ^ following) >> shift == 0)
        tied.append(ties + block.start)
    ties = np.concatenate(tied)
    tie_positions = np.union1d(ties, ties + 1)
    if tie_positions.size > MAX_TIED_ROWS:
        return None
    # Outside ties, the pair at each position must be exact: equal checks, so equal keys.
    is_tie = np.zeros(BLOCK_ROWS, dtype=np.bool_)
    for block in _blocks(size):
        paired_exactly = (
            answers.checks[answers.rows(block)] == submission.checks[submission.rows(block)]
        )
        is_tie[:] = False
        inside = tie_positions[(tie_positions >= block.start) & (tie_positions < block.stop)]
        is_tie[inside - block.start] = True
        if not (paired_exactly | is_tie[: block.stop - block.start]).all():
            return None
    tie_rows = _pair_ties(answers, submission, tie_positions)
    if tie_rows is None:
        return None
    rows, answers.checks = answers.checks, np.zeros(0, dtype=np.uint32)
    for block in _blocks(size):
        rows[answers.rows(block)] = submission.rows(block)
    answer_rows, submission_rows = tie_rows
    rows[answer_rows] = submission_rows
    return rows


def _pair_ties(
    answers: SortedKeys, submission: SortedKeys, positions: IntArray
) -> tuple[IntArray, IntArray] | None:
    """Pair the rows at tied ``positions`` by their full keys; None unless one to one."""
    if positions.size == 0:
        empty = np.zeros(0, dtype=np.int64)
        return empty, empty
    answer_keys = answers.full_keys(positions).tolist()
    submission_keys = submission.full_keys(positions).tolist()
    answer_rows = (answers.entries[positions] & answers.row_bits).view(np.int64).tolist()
    submission_rows = (submission.entries[positions] & submission.row_bits).view(np.int64)
    by_key = dict(zip(submission_keys, submission_rows.tolist(), strict=True))
    if len(by_key) != positions.size or len(set(answer_keys)) != positions.size:
        return None  # a key repeats on one side
    if by_key.keys() != set(answer_keys):
        return None
    paired = np.array([by_key[key] for key in answer_keys], dtype=np.int64)
    return np.array(answer_rows, dtype=np.int64), paired


def _blocks(size: int) -> Iterator[slice]:
    """Consecutive row ranges of at most :data:`BLOCK_ROWS` rows covering ``range(size)``."""
    return (slice(start, min(start + BLOCK_ROWS, size)) for start in range(0, size, BLOCK_ROWS))
