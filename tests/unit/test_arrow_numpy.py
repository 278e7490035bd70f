"""Arrow numbers reach numpy without pyarrow's pandas bridge, and grading a submission whose
metric needs no pandas never imports it (pyarrow's own ``to_numpy`` would)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pytest

from pytest_mlebench.graders.arrow_numpy import joined_numbers, numbers_of, texts_of


@pytest.mark.parametrize(
    "array",
    [
        pa.array([1.5, -2.0, 3.25]),
        pa.array([1, 2, 3], pa.int32()),
        pa.array([1, 2, 3, 4], pa.int64()).slice(1, 2),
        pa.array([1.0, None]),
        pa.array([True, False]),
        pa.array([], pa.float64()),
    ],
)
def test_numbers_are_those_pyarrow_gives(array: pa.Array) -> None:
    np.testing.assert_array_equal(numbers_of(array), array.to_numpy(zero_copy_only=False))


def test_chunks_are_joined_in_the_dtype_asked_for() -> None:
    chunks = pa.chunked_array([[1, 2], [], [3]], pa.int32()).chunks
    joined = joined_numbers(chunks, np.int64)
    assert joined.dtype == np.int64
    assert joined.tolist() == [1, 2, 3]


def test_texts_are_python_strings_with_none_for_nulls() -> None:
    column = pa.chunked_array([["a", None], [], ["ü"]], pa.string())
    texts = texts_of(column)
    assert texts.dtype == object
    assert texts.tolist() == ["a", None, "ü"]


GRADE = """
import json, sys
from pytest_mlebench import graders
spec = graders.SubmissionSpec(
    id_column="id", target_columns=(sys.argv[4],), metric=sys.argv[3]
)
result = graders.score_submission(sys.argv[1], sys.argv[2], spec)
print(json.dumps({"score": result.score, "pandas": "pandas" in sys.modules}))
"""


@pytest.mark.parametrize(
    ("metric", "answers_text", "submission_text", "score"),
    [
        ("accuracy", "id,label\na,1\nb,0\nc,2\nd,1\n", "id,label\nd, 1\nc,2\nb,1\na,1\n", 0.75),
        ("mean-levenshtein", "id,text\na,abc\nb,xy\n", "id,text\nb,xz\na,abc\n", 0.5),
        ("map-at-k", "id,items\na,x y\nb,z\n", "id,items\nb,z q\na,q x\n", 0.625),
    ],
)
def test_grading_imports_no_pandas(
    tmp_path: Path, metric: str, answers_text: str, submission_text: str, score: float
) -> None:
    answers = tmp_path / "answers.csv"
    submission = tmp_path / "submission.csv"
    answers.write_text(answers_text)
    submission.write_text(submission_text)
    column = answers_text.split("\n")[0].split(",")[1]
    done = subprocess.run(
        [sys.executable, "-c", GRADE, str(submission), str(answers), metric, column],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout) == {"score": score, "pandas": False}
