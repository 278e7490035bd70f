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

from pytest_mlebench.graders.arrow_numpy import joined_numbers, numbers_of


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


GRADE = """
import json, sys
from pytest_mlebench import graders
spec = graders.SubmissionSpec(id_column="id", target_columns=("label",), metric="accuracy")
result = graders.score_submission(sys.argv[1], sys.argv[2], spec)
print(json.dumps({"score": result.score, "pandas": "pandas" in sys.modules}))
"""


def test_grading_labels_written_as_text_imports_no_pandas(tmp_path: Path) -> None:
    answers = tmp_path / "answers.csv"
    submission = tmp_path / "submission.csv"
    answers.write_text("id,label\na,1\nb,0\nc,2\nd,1\n")
    submission.write_text("id,label\nd, 1\nc,2\nb,1\na,1\n")
    done = subprocess.run(
        [sys.executable, "-c", GRADE, str(submission), str(answers)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(done.stdout) == {"score": 0.75, "pandas": False}
