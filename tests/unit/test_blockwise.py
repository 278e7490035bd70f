"""The block-by-block path: it accepts exactly the valid submissions it serves, with the same
aligned columns as the whole-file path, and leaves everything else to that path."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

from pytest_mlebench.graders import (
    SubmissionSpec,
    blockwise,
    get_metric,
    keyindex,
    score_submission,
)
from pytest_mlebench.graders.hashing import short_string_keys
from pytest_mlebench.graders.keyindex import SortedKeys, may_need_strip, pair_rows
from pytest_mlebench.graders.validation import max_submission_bytes

SPEC = SubmissionSpec("event_id", ("azimuth", "zenith"), "mean-angular-error")


def _keys(texts: list[str]) -> np.ndarray:
    keys = short_string_keys(pa.chunked_array([pa.array(texts, pa.string())]))
    assert keys is not None
    return keys


def _pair(answers: list[str], submitted: list[str]) -> np.ndarray | None:
    answer_keys, submission_keys = SortedKeys.of(_keys(answers)), SortedKeys.of(_keys(submitted))
    assert answer_keys is not None and submission_keys is not None
    return pair_rows(answer_keys, submission_keys)


def _no_mixing(keys: np.ndarray) -> np.ndarray:
    """The identity (a bijection, so still exact): short numeric ids then tie by the thousand."""
    return keys


@pytest.mark.parametrize("mixed", [True, False])
def test_shuffled_ids_are_paired_row_for_row(monkeypatch: pytest.MonkeyPatch, mixed: bool) -> None:
    if not mixed:
        monkeypatch.setattr(keyindex, "mix_keys", _no_mixing)
    answers = [str(value * 7) for value in range(3000)]
    order = np.random.default_rng(3).permutation(len(answers))
    submitted = [answers[row] for row in order]
    rows = _pair(answers, submitted)
    assert rows is not None
    assert [submitted[row] for row in rows] == answers


@pytest.mark.parametrize("mixed", [True, False])
@pytest.mark.parametrize("problem", ["repeated", "unknown", "repeated answer", "fewer"])
def test_ids_that_do_not_match_one_to_one_are_not_paired(
    monkeypatch: pytest.MonkeyPatch, mixed: bool, problem: str
) -> None:
    if not mixed:
        monkeypatch.setattr(keyindex, "mix_keys", _no_mixing)
    answers = [str(value * 7) for value in range(3000)]
    submitted = answers[::-1]
    if problem == "repeated":
        submitted[10] = submitted[11]
    elif problem == "unknown":
        submitted[10] = "5"
    elif problem == "repeated answer":
        answers[20] = answers[21]
    else:
        submitted = submitted[:-1]
    if problem == "fewer":
        answer_keys, submission_keys = (
            SortedKeys.of(_keys(answers)),
            SortedKeys.of(_keys(submitted)),
        )
        assert answer_keys is not None and submission_keys is not None
        assert pair_rows(answer_keys, submission_keys) is None
        return
    assert _pair(answers, submitted) is None


def test_a_tie_is_paired_by_the_full_key() -> None:
    # Two rows whose keys agree in every high bit: the pairing must follow the checks.
    high = np.uint64(0xABCD) << np.uint64(40)
    answers = SortedKeys(
        np.array([high | np.uint64(0), high | np.uint64(1)]), np.array([5, 9], np.uint32)
    )
    submission = SortedKeys(
        np.array([high | np.uint64(0), high | np.uint64(1)]), np.array([9, 5], np.uint32)
    )
    rows = pair_rows(answers, submission)
    assert rows is not None
    assert rows.tolist() == [1, 0]


@pytest.mark.parametrize(
    ("ids", "expected"),
    [
        (["1", "22", "abcdefgh", ""], False),
        ([" 1"], True),
        (["1 "], True),
        (["abcdefg\t"], True),
        (["\u00e9"], True),
        (["x\ny"], False),
    ],
)
def test_ids_with_whitespace_at_an_edge_are_seen_from_their_keys(
    ids: list[str], expected: bool
) -> None:
    assert may_need_strip(_keys(ids)) is expected


def _write_case(directory: Path, rows: int, seed: int = 0) -> tuple[Path, Path, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    answers = pd.DataFrame(
        {
            "event_id": np.arange(1, rows + 1) * 7,
            "azimuth": rng.uniform(0, 2 * np.pi, rows),
            "zenith": rng.uniform(0, np.pi, rows),
        }
    )
    submission = answers.sample(frac=1.0, random_state=seed).copy()
    submission["azimuth"] = rng.uniform(0, 2 * np.pi, rows)
    answers_path, submission_path = directory / "answers.csv", directory / "submission.csv"
    answers.to_csv(answers_path, index=False)
    submission.to_csv(submission_path, index=False)
    return answers_path, submission_path, answers


def _in_blocks(submission: Path, answers: Path) -> tuple[object, object] | None:
    metric = get_metric(SPEC.metric)
    return blockwise.align_in_blocks(submission, answers, SPEC, metric, max_submission_bytes)


def test_a_valid_submission_takes_the_block_path_and_scores_as_the_whole_file_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Small batches: many of them, and an estimate of the row count that has to grow.
    monkeypatch.setattr(blockwise, "BATCH_BYTES", 256)
    answers, submission, frame = _write_case(tmp_path, 5000)
    aligned = _in_blocks(submission, answers)
    assert aligned is not None
    y_true, y_pred = aligned
    expected = (
        pd.read_csv(submission, float_precision="round_trip")
        .set_index("event_id")
        .loc[frame["event_id"]]
    )
    np.testing.assert_array_equal(y_true.floats(), frame[["azimuth", "zenith"]].to_numpy())
    np.testing.assert_array_equal(y_pred.floats(), expected[["azimuth", "zenith"]].to_numpy())
    in_blocks = score_submission(submission, answers, SPEC)
    whole_file = score_submission(submission, frame, SPEC)  # a frame: the whole-file path
    assert in_blocks.valid and in_blocks == whole_file


def test_rows_that_grow_longer_than_the_first_batch_still_fit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(blockwise, "BATCH_BYTES", 64)
    ids = [str(value) for value in range(1, 10)] + [str(10_000_000 + value) for value in range(400)]
    lines = ["event_id,azimuth,zenith"] + [
        f"{i},{n % 7 * 0.5},{n % 3 * 0.25}" for n, i in enumerate(ids)
    ]
    (tmp_path / "answers.csv").write_text("\n".join(lines) + "\n\n")
    (tmp_path / "submission.csv").write_text("\n".join([lines[0], *reversed(lines[1:])]) + "\n")
    aligned = _in_blocks(tmp_path / "submission.csv", tmp_path / "answers.csv")
    assert aligned is not None
    y_true, y_pred = aligned
    np.testing.assert_array_equal(y_true.floats(), y_pred.floats())
    assert score_submission(
        tmp_path / "submission.csv", tmp_path / "answers.csv", SPEC
    ).score == pytest.approx(0, abs=1e-6)


@pytest.mark.parametrize(
    "problem",
    [
        "duplicate",
        "missing",
        "extra",
        "unknown",
        "nan",
        "text",
        "float ids",
        "padded ids",
        "long ids",
    ],
)
def test_an_unusual_submission_leaves_the_block_path_and_keeps_its_reason(
    tmp_path: Path, problem: str
) -> None:
    answers, submission, frame = _write_case(tmp_path, 300)
    table = pd.read_csv(submission, dtype={"event_id": str})
    if problem == "duplicate":
        table.loc[5, "event_id"] = table.loc[6, "event_id"]
    elif problem == "missing":
        table = table.iloc[1:]
    elif problem == "extra":
        table = pd.concat([table, table.iloc[:1].assign(event_id="999999")])
    elif problem == "unknown":
        table.loc[5, "event_id"] = "999999"
    elif problem == "nan":
        table.loc[5, "zenith"] = np.nan
    elif problem == "text":
        table["zenith"] = table["zenith"].astype(str)
        table.loc[5, "zenith"] = "north"
    elif problem == "float ids":
        table["event_id"] = table["event_id"] + ".0"
    elif problem == "padded ids":
        table["event_id"] = " " + table["event_id"]
    else:
        table["event_id"] = table["event_id"].str.zfill(9)
    table.to_csv(submission, index=False)
    assert _in_blocks(submission, answers) is None
    result = score_submission(submission, answers, SPEC)
    assert result == score_submission(submission, frame, SPEC)
    assert result.valid is (problem == "padded ids")  # stripped ids are the same ids
