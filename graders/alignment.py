"""Aligning submission rows with answer rows by id: an exact set match, never row order.

Ids are compared as text with surrounding whitespace removed. The fast path (a valid
submission) sorts 64-bit hashes of both id lists and checks the proposed pairs exactly: as
64-bit keys for ids of at most 8 bytes, string by string otherwise (:mod:`graders.hashing`).
Anything else — an unknown, repeated or missing id — goes through one Arrow dictionary
encoding of both lists, which numbers ids by first appearance: the answers come first, so
answer row ``i`` gets code ``i`` exactly when the answer ids are unique, a submission id's code
is the answer row it belongs to, and a code past the answers marks an unknown id.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from pytest_mlebench.graders.arrow_numpy import integer_array, joined_numbers
from pytest_mlebench.graders.errors import GraderError, SubmissionRejected
from pytest_mlebench.graders.hashing import hash_strings, short_string_keys
from pytest_mlebench.graders.memory import MEMORY_POOL, release_free_memory
from pytest_mlebench.graders.messages import count, show_value
from pytest_mlebench.graders.metrics.text_column import TextColumn
from pytest_mlebench.graders.values import stripped_text

IntArray = npt.NDArray[np.int64]

BLOCK_ROWS = 1 << 16
"""Rows per block where matching works block by block (bounded temporaries)."""

VERIFY_ROWS = 1 << 14
"""Rows per block where the paired ids are gathered and compared as strings (a block of
64-character ids and its gathered copies is about 5 MB)."""

MAX_TIED_ROWS = 1 << 16
"""Beyond this many rows in hash ties the fast path gives up (never for random hashes)."""

_FLOAT_WRITTEN_INTEGER = re.compile(r"[+-]?\d+\.0+")
"""An integer written as a float, ``1890.0``: what pandas writes for an integer id column that
held a NaN somewhere, or that went through a float array."""


def normalize_ids(ids: pa.ChunkedArray) -> pa.ChunkedArray:
    """Ids as text without surrounding whitespace (the form every comparison uses)."""
    return stripped_text(ids)


def match_ids(submission_ids: pa.ChunkedArray, answer_ids: pa.ChunkedArray) -> IntArray:
    """Return, for each answer row, the submission row that holds its id.

    Args:
        submission_ids: Normalized ids in submission order.
        answer_ids: Normalized ids in answer order.

    Raises:
        SubmissionRejected: An id is unknown, repeated or missing.
        GraderError: The answers repeat an id.
    """
    rows = _match_sorted_hashes(submission_ids, answer_ids)
    return rows if rows is not None else _match_exactly(submission_ids, answer_ids)


def _match_sorted_hashes(
    submission_ids: pa.ChunkedArray, answer_ids: pa.ChunkedArray
) -> IntArray | None:
    """The fast path for a valid submission: pair rows by sorted hashes, then verify the pairs.

    Each hash keeps its high bits and carries its row number in the low bits, so one plain
    sort per side (no argsort) lines the rows up. Equal sorted hashes on both sides propose a
    pairing, and comparing the paired strings proves it (and, with it, that the answer ids are
    distinct). Answer ids whose hashes agree in the kept high bits (a tie) sort by row number on
    both sides, so their proposed pairs may cross: such ties are expected by the birthday bound
    (about once in thirty gradings of a million ids, 44 bits kept; dozens of times in one of
    13 million, 40 bits kept), and :func:`_pair_ties` pairs their few rows by their strings
    before the check. Anything unusual returns None and the exact path decides (and explains).
    The work after the sorts goes block by block (:data:`BLOCK_ROWS`), so its temporaries stay
    small.
    """
    size = len(answer_ids)
    if size == 0 or len(submission_ids) != size:
        return None
    answer_hashes = hash_strings(answer_ids)
    submission_hashes = None if answer_hashes is None else hash_strings(submission_ids)
    if answer_hashes is None or submission_hashes is None:
        return None
    shift = np.uint64(max(1, (size - 1).bit_length()))
    row_bits = np.uint64((1 << int(shift)) - 1)
    for hashes in (answer_hashes, submission_hashes):  # in place: these run to millions of rows
        hashes &= ~row_bits
        for block in _blocks(size):
            hashes[block] |= np.arange(block.start, block.stop, dtype=np.uint64)
        hashes.sort()
    rows = np.empty(size, dtype=np.int64)
    ties = [np.zeros(0, dtype=np.int64)]
    for block in _blocks(size):
        answers, submissions = answer_hashes[block], submission_hashes[block]
        # Sorted, so a tied key sits next to its twin (the block's last row meets the next).
        following = answer_hashes[block.start + 1 : block.stop + 1]
        tied = np.flatnonzero((answers[: following.size] ^ following) >> shift == 0)
        ties.append(tied + block.start)
        if ((answers ^ submissions) >> shift).any():
            return None
        rows[(answers & row_bits).view(np.int64)] = (submissions & row_bits).view(np.int64)
    tied_positions = np.union1d(np.concatenate(ties), np.concatenate(ties) + 1)
    if tied_positions.size > MAX_TIED_ROWS:
        return None
    answer_rows = (answer_hashes[tied_positions] & row_bits).view(np.int64)
    submission_rows = (submission_hashes[tied_positions] & row_bits).view(np.int64)
    keys = answer_hashes[tied_positions] >> shift
    del answer_hashes, submission_hashes
    release_free_memory()  # the two hash arrays, before the pairs are gathered and compared
    if not _pair_ties(keys, answer_rows, submission_rows, submission_ids, answer_ids, rows):
        return None
    agree = _short_ids_agree(submission_ids, answer_ids, rows)
    if agree is not None:
        return rows if agree else None
    # Taken chunk by chunk, a block at a time: neither Arrow's take over the chunked ids nor
    # one contiguous copy of them (88 MB for h-and-m's 1.37 million 64-character ids).
    paired_blocks = TextColumn(submission_ids, rows).arrow_blocks(VERIFY_ROWS)
    for block, paired in zip(_blocks(size, VERIFY_ROWS), paired_blocks, strict=True):
        wanted = answer_ids.slice(block.start, block.stop - block.start)
        if not pc.all(pc.equal(paired, wanted, memory_pool=MEMORY_POOL)).as_py():
            return None
    return rows


def _short_ids_agree(
    submission_ids: pa.ChunkedArray, answer_ids: pa.ChunkedArray, rows: IntArray
) -> bool | None:
    """Whether every proposed pair holds equal ids, compared as exact keys (ids of <= 8 bytes).

    None when the ids are too long for keys; the caller then compares the strings. A numpy
    gather of one word per row is several times cheaper than gathering the strings.
    """
    submission_keys = short_string_keys(submission_ids)
    if submission_keys is None:
        return None
    for block in _blocks(len(rows)):  # the answers' keys block by block: one array less
        answer_keys = short_string_keys(answer_ids.slice(block.start, block.stop - block.start))
        if answer_keys is None:
            return None
        if (submission_keys[rows[block]] != answer_keys).any():
            return False
    return True


def _pair_ties(
    keys: npt.NDArray[np.uint64],
    answer_rows: IntArray,
    submission_rows: IntArray,
    submission_ids: pa.ChunkedArray,
    answer_ids: pa.ChunkedArray,
    rows: IntArray,
) -> bool:
    """Re-pair the rows of tied hashes by their strings, in place in ``rows``.

    Each tie group (the rows sharing one kept hash ``key``) holds the same number of answer and
    submission rows; within a group, each answer row gets the submission row with its string.
    False when a group's strings do not pair one to one, a repeated id included (the exact
    path then explains why).
    """
    if keys.size == 0:
        return True
    answer_texts = pc.take(answer_ids, integer_array(answer_rows), memory_pool=MEMORY_POOL)
    submitted_texts = pc.take(
        submission_ids, integer_array(submission_rows), memory_pool=MEMORY_POOL
    )
    groups: dict[int, tuple[dict[str, int], dict[str, int]]] = {}
    for key, answer_row, answer_text, submission_row, submitted_text in zip(
        keys.tolist(),
        answer_rows.tolist(),
        answer_texts.to_pylist(),
        submission_rows.tolist(),
        submitted_texts.to_pylist(),
        strict=True,
    ):
        answers, submissions = groups.setdefault(key, ({}, {}))
        answers[answer_text] = answer_row
        submissions[submitted_text] = submission_row
    # A repeated id on either side collapses in its group's mapping; the totals then fall short.
    paired = sum(len(answers) for answers, _ in groups.values())
    if paired != keys.size or sum(len(found) for _, found in groups.values()) != keys.size:
        return False
    for answers, submissions in groups.values():
        if answers.keys() != submissions.keys():
            return False
        for text, answer_row in answers.items():
            rows[answer_row] = submissions[text]
    return True


def _blocks(size: int, rows: int = BLOCK_ROWS) -> Iterator[slice]:
    """Consecutive row ranges of at most ``rows`` rows covering ``range(size)``."""
    return (slice(start, min(start + rows, size)) for start in range(0, size, rows))


def _match_exactly(submission_ids: pa.ChunkedArray, answer_ids: pa.ChunkedArray) -> IntArray:
    """Exact matching through one Arrow hash table; finds and explains every problem."""
    answers = len(answer_ids)
    both = pa.chunked_array(answer_ids.chunks + submission_ids.chunks, type=pa.string())
    encoded = pc.dictionary_encode(both, memory_pool=MEMORY_POOL).chunks
    codes = joined_numbers((c.indices for c in encoded), np.int32)
    answer_codes, rows_of = codes[:answers], codes[answers:]
    expected = np.arange(answers, dtype=codes.dtype)
    if not np.array_equal(answer_codes, expected):
        repeated = int(np.flatnonzero(answer_codes != expected)[0])
        raise GraderError(f"the answers repeat id {show_value(answer_ids[repeated].as_py())}")
    unknown = rows_of >= answers
    if unknown.any():
        found = np.bincount(rows_of[~unknown], minlength=answers)
        raise SubmissionRejected(_unknown(submission_ids, answer_ids, rows_of, unknown, found))
    found = np.bincount(rows_of, minlength=answers)
    if (found > 1).any():
        raise SubmissionRejected(_repeated(answer_ids, found))
    if (found == 0).any():
        missing = found == 0
        first = int(np.argmax(missing))
        number = int(missing.sum())
        raise SubmissionRejected(
            f"{count(number, 'id')} of the test set {_are(number)} missing, "
            f"e.g. {show_value(answer_ids[first].as_py())}"
        )
    submission_row = np.empty(answers, dtype=np.int64)
    submission_row[rows_of] = np.arange(rows_of.size, dtype=np.int64)
    return submission_row


def not_in_test_set(unknown_codes: npt.NDArray[np.integer], noun: str) -> str:
    """``N ids are not in the test set``, counting distinct values (one code each), and the
    rows when they repeat: ten ids repeated over ten million rows are ten ids."""
    rows = int(unknown_codes.size)
    distinct = int(np.unique(unknown_codes).size)
    reason = f"{count(distinct, noun)} {_are(distinct)} not in the test set"
    return reason if rows == distinct else f"{reason} ({count(rows, 'row')})"


def _unknown(
    submission_ids: pa.ChunkedArray,
    answer_ids: pa.ChunkedArray,
    rows_of: IntArray,
    unknown: npt.NDArray[np.bool_],
    found: IntArray,
) -> str:
    example = submission_ids[int(np.argmax(unknown))].as_py()
    reason = not_in_test_set(rows_of[unknown], "id") + f", e.g. {show_value(example)}"
    missing = int((found == 0).sum())
    if missing:
        reason += f" ({count(missing, 'test id')} {_are(missing)} missing)"
    return reason + _float_id_hint(str(example), answer_ids)


def _float_id_hint(example: str, answer_ids: pa.ChunkedArray) -> str:
    """How to fix ids written as floats (``1890.0`` for the test id ``1890``), else nothing."""
    if not _FLOAT_WRITTEN_INTEGER.fullmatch(example):
        return ""
    whole = example.split(".", 1)[0]
    if not pc.any(pc.equal(answer_ids, pa.scalar(whole)), memory_pool=MEMORY_POOL).as_py():
        return ""
    return (
        f": the ids are written as floats ({show_value(example)} for the test id "
        f"{show_value(whole)}); write them as whole numbers, as test.csv has them (in pandas: "
        "read the ids with dtype=str, or convert the column with .astype(int) before to_csv)"
    )


def _repeated(answer_ids: pa.ChunkedArray, found: IntArray) -> str:
    repeated = found > 1
    first = int(np.argmax(repeated))
    example = f"{show_value(answer_ids[first].as_py())} ({found[first]} times)"
    number = int(repeated.sum())
    if number == 1:
        return f"duplicate id {example}"
    return f"{number} ids appear more than once, e.g. {example}"


def _are(number: int) -> str:
    return "is" if number == 1 else "are"
