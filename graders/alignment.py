"""Aligning submission rows with answer rows by id: an exact set match, hash-based.

Ids are compared as text with surrounding whitespace removed. Both id lists go through one Arrow
dictionary encoding (one hash pass), which numbers ids by first appearance: the answers come
first, so answer row ``i`` gets code ``i`` exactly when the answer ids are unique, a submission
id's code is the answer row it belongs to, and a code past the answers marks an unknown id.
Row order is never assumed.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt
import pyarrow as pa
import pyarrow.compute as pc

from graders.errors import GraderError, SubmissionRejected
from graders.messages import count, show_value

IntArray = npt.NDArray[np.int64]


def normalize_ids(ids: pa.ChunkedArray) -> pa.ChunkedArray:
    """Ids as text without surrounding whitespace (the form every comparison uses)."""
    return pc.utf8_trim_whitespace(ids.cast(pa.string()))


def match_ids(submission_ids: pa.ChunkedArray, answer_ids: pa.ChunkedArray) -> IntArray:
    """Return, for each answer row, the submission row that holds its id.

    Args:
        submission_ids: Normalized ids in submission order.
        answer_ids: Normalized ids in answer order.

    Raises:
        SubmissionRejected: An id is unknown, repeated or missing.
        GraderError: The answers repeat an id.
    """
    answers = len(answer_ids)
    both = pa.chunked_array(answer_ids.chunks + submission_ids.chunks, type=pa.string())
    encoded = pc.dictionary_encode(both).chunks
    codes = np.concatenate(
        [np.zeros(0, dtype=np.int64)] + [chunk.indices.to_numpy() for chunk in encoded]
    ).astype(np.int64, copy=False)
    answer_codes, rows_of = codes[:answers], codes[answers:]
    if not np.array_equal(answer_codes, np.arange(answers)):
        repeated = int(np.flatnonzero(answer_codes != np.arange(answers))[0])
        raise GraderError(f"the answers repeat id {show_value(answer_ids[repeated].as_py())}")
    unknown = rows_of >= answers
    if unknown.any():
        found = np.bincount(rows_of[~unknown], minlength=answers)
        raise SubmissionRejected(_unknown(submission_ids, unknown, found))
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


def _unknown(
    submission_ids: pa.ChunkedArray, unknown: npt.NDArray[np.bool_], found: IntArray
) -> str:
    number = int(unknown.sum())
    example = submission_ids[int(np.argmax(unknown))].as_py()
    reason = f"{count(number, 'id')} {_are(number)} not in the test set, e.g. {show_value(example)}"
    missing = int((found == 0).sum())
    if missing:
        reason += f" ({count(missing, 'test id')} {_are(missing)} missing)"
    return reason


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
