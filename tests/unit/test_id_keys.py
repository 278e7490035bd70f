"""The id matching's fast path: exact keys for short ids, and hash ties paired by their strings."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from pytest_mlebench.graders import alignment
from pytest_mlebench.graders.hashing import hash_strings, short_string_keys


def _ids(texts: list[str], cut: int = 0) -> pa.ChunkedArray:
    if not cut:
        return pa.chunked_array([pa.array(texts, pa.string())])
    return pa.chunked_array([pa.array(texts[:cut]), pa.array(texts[cut:])])


@pytest.mark.parametrize("seed", range(3))
def test_short_keys_are_equal_exactly_when_the_strings_are(seed: int) -> None:
    rng = np.random.default_rng(seed)
    alphabet = list("ab 0\t\x08\u00e9")
    texts = ["", "a", "a" * 7, "a" * 8, "1890", "01890", "\x00", "\x00\x00"]
    texts += ["".join(rng.choice(alphabet, int(rng.integers(0, 5)))) for _ in range(2000)]
    texts = [text for text in texts if len(text.encode()) <= 8]
    keys = short_string_keys(_ids(texts, cut=int(rng.integers(1, len(texts)))))
    assert keys is not None
    by_key: dict[int, str] = {}
    for text, key in zip(texts, keys.tolist(), strict=True):
        assert by_key.setdefault(key, text) == text
    assert len(by_key) == len(set(texts))


@pytest.mark.parametrize("text", ["123456789", "abcdefg\x07", "\u00e9" * 5])
def test_ids_that_cannot_be_short_keys_get_none(text: str) -> None:
    assert short_string_keys(_ids(["a", text])) is None


def _weak_hashes(values: pa.ChunkedArray) -> np.ndarray | None:
    """A deliberately weak hash (8 bits): thousands of ties among a few thousand ids."""
    hashes = hash_strings(values)
    return None if hashes is None else hashes & np.uint64(0xFF00_0000_0000_0000)


@pytest.mark.parametrize("prefix", ["", "event-id-long-"])
def test_hash_ties_are_paired_by_their_strings(
    monkeypatch: pytest.MonkeyPatch, prefix: str
) -> None:
    monkeypatch.setattr(alignment, "hash_strings", _weak_hashes)
    rng = np.random.default_rng(7)
    answers = [f"{prefix}{value * 7}" for value in range(3000)]
    order = rng.permutation(len(answers))
    submitted = [answers[row] for row in order]
    rows = alignment._match_sorted_hashes(_ids(submitted, cut=1234), _ids(answers))
    assert rows is not None
    assert [submitted[row] for row in rows] == answers


def test_a_repeated_id_among_ties_leaves_the_fast_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(alignment, "hash_strings", _weak_hashes)
    answers = [str(value) for value in range(500)] + ["7"]
    submitted = list(reversed(answers))
    assert alignment._match_sorted_hashes(_ids(submitted), _ids(answers)) is None
