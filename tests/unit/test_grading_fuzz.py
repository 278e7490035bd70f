"""Property tests: whatever bytes a submission holds, grading answers with a ScoreResult.

For random bytes, CSV-like text and mutations of a valid file: scoring never raises, ``valid`` is
exactly ``reason is None``, a valid result has a finite score, a reason is one line, and
validation agrees with scoring.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pytest_mlebench.graders import (
    ScoreResult,
    SubmissionSpec,
    score_submission,
    validate_submission,
)

SPECS = {
    # name: (spec, answers, a valid submission)
    "roc-auc": (
        SubmissionSpec("id", ("p",), "roc-auc"),
        "id,p\na,0\nb,1\nc,1\n",
        "id,p\nc,0.5\na,0\nb,1\n",
    ),
    "log-loss": (
        SubmissionSpec("id", ("p",), "log-loss"),
        "id,p\na,0\nb,1\nc,1\n",
        "id,p\nc,1\na,0\nb,0.5\n",
    ),
    "multi-class": (
        SubmissionSpec("id", ("p", "q"), "multi-class-log-loss"),
        "id,p,q\na,1,0\nb,0,1\nc,1,0\n",
        "id,p,q\nc,0.5,0.5\na,1,0\nb,0,1\n",
    ),
    "accuracy": (
        SubmissionSpec("id", ("p",), "accuracy"),
        "id,p\na,1\nb,2\nc,x\n",
        "id,p\nc,x\na,1\nb,0\n",
    ),
    "kappa": (
        SubmissionSpec("id", ("p",), "quadratic-weighted-kappa"),
        "id,p\na,0\nb,1\nc,2\n",
        "id,p\nc,2\na,0\nb,1\n",
    ),
    "map": (
        SubmissionSpec("id", ("p",), "map-at-k"),
        "id,p\na,x y\nb,z\nc,\n",
        "id,p\nc,y\na,y x\nb,\n",
    ),
    "rmsle": (
        SubmissionSpec("id", ("p",), "rmsle"),
        "id,p\na,0\nb,1.5\nc,3\n",
        "id,p\nc,3\na,0\nb,1\n",
    ),
    "c-index": (
        SubmissionSpec("id", ("p",), "c-index", answer_columns=("t", "e")),
        "id,t,e\na,1,1\nb,2,0\nc,3,1\n",
        "id,p\nc,0.5\na,2\nb,1\n",
    ),
}

TOKENS = [
    *("id", "p", "q", "a", "b", "c", "d", "0", "1", "0.5", "-1", "2", "1e309", "nan", "inf"),
    *("", " ", '"', '""', "x y", "\u00e9", "\u4e2d", "\ufeff", "\x00", "NA", "1.5", "3"),
]
LINE_ENDS = ["\n", "\r\n", "\r"]


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("fuzz")
    for name, (_, answers, valid) in SPECS.items():
        (directory / f"{name}.answers.csv").write_text(answers, encoding="utf-8")
        (directory / f"{name}.valid.csv").write_text(valid, encoding="utf-8")
    return directory


def check(workspace: Path, spec_name: str, content: bytes) -> None:
    spec, _, _ = SPECS[spec_name]
    answers = workspace / f"{spec_name}.answers.csv"
    submission = workspace / "submission.csv"
    submission.write_bytes(content)
    scored = score_submission(submission, answers, spec)
    validated = validate_submission(submission, answers, spec)
    for result in (scored, validated):
        assert isinstance(result, ScoreResult)
        assert result.valid == (result.reason is None)
        if result.reason is not None:
            assert result.reason and "\n" not in result.reason and result.score is None
    if scored.valid:
        assert isinstance(scored.score, float) and math.isfinite(scored.score)
        assert validated == ScoreResult(valid=True)
    assert validated.score is None
    if not validated.valid:
        assert scored == validated


FUZZ = settings(
    max_examples=200, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
spec_names = st.sampled_from(sorted(SPECS))


@FUZZ
@given(spec_name=spec_names, content=st.binary(max_size=200))
def test_random_bytes(workspace: Path, spec_name: str, content: bytes) -> None:
    check(workspace, spec_name, content)


csv_rows = st.lists(
    st.lists(st.sampled_from(TOKENS) | st.text(max_size=4), min_size=1, max_size=4),
    max_size=6,
)


@FUZZ
@given(
    spec_name=spec_names,
    header=st.sampled_from(["id,p", "id,p,q", "p,id", "id,q,p", "id;p", "id,p,p", ""]),
    rows=csv_rows,
    delimiter=st.sampled_from([",", ",", ";", "\t"]),
    line_end=st.sampled_from(LINE_ENDS),
    encoding=st.sampled_from(["utf-8", "utf-8", "utf-8-sig", "latin-1", "utf-16"]),
)
def test_csv_like_text(
    workspace: Path,
    spec_name: str,
    header: str,
    rows: list[list[str]],
    delimiter: str,
    line_end: str,
    encoding: str,
) -> None:
    lines = [header, *(delimiter.join(row) for row in rows)]
    content = line_end.join(lines).encode(encoding, errors="replace")
    check(workspace, spec_name, content)


@FUZZ
@given(
    spec_name=spec_names,
    edits=st.lists(
        st.tuples(st.integers(0, 40), st.sampled_from(["delete", *TOKENS, ",", "\n"])),
        max_size=3,
    ),
)
def test_mutations_of_a_valid_file(
    workspace: Path, spec_name: str, edits: list[tuple[int, str]]
) -> None:
    text = SPECS[spec_name][2]
    for position, edit in edits:
        at = min(position, len(text))
        text = text[:at] + text[at + 1 :] if edit == "delete" else text[:at] + edit + text[at:]
    check(workspace, spec_name, text.encode("utf-8"))


@settings(FUZZ, max_examples=100)
@given(
    spec_name=spec_names,
    order=st.permutations(range(3)),
    line_end=st.sampled_from(LINE_ENDS[:2]),
    bom=st.booleans(),
    padding=st.lists(st.sampled_from(["", " ", "  ", "\t"]), min_size=12, max_size=12),
    quote_ids=st.booleans(),
)
def test_row_order_and_formatting_do_not_change_the_score(
    workspace: Path,
    spec_name: str,
    order: list[int],
    line_end: str,
    bom: bool,
    padding: list[str],
    quote_ids: bool,
) -> None:
    spec, _, valid = SPECS[spec_name]
    header, *rows = valid.splitlines()
    pads = iter(padding)
    cells = [[next(pads, "") + cell for cell in rows[i].split(",")] for i in order]
    if quote_ids:  # padding inside the quotes: a quote after a space is a literal character
        cells = [[f'"{row[0]}"', *row[1:]] for row in cells]
    lines = [header, *(",".join(row) for row in cells)]
    content = (line_end.join(lines) + line_end).encode("utf-8-sig" if bom else "utf-8")
    answers = workspace / f"{spec_name}.answers.csv"
    expected = score_submission(workspace / f"{spec_name}.valid.csv", answers, spec)
    assert expected.valid
    submission = workspace / "submission.csv"
    submission.write_bytes(content)
    result = score_submission(submission, answers, spec)
    assert result.valid
    assert result.score == pytest.approx(expected.score, rel=1e-12)
