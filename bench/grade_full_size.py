"""Grading time and memory of the two largest string cases at Kaggle's full test size (not a test).

    .venv/bin/python bench/grade_full_size.py [--repeats 1] [--cases bms h-and-m] [--rows N]

Two generated cases, each graded by the graders library's ``score_submission`` (every validation
included) in a fresh Python process, as ``bench/grade.py`` does:

``bms``
    bms-molecular-translation at Kaggle's test size: 1,616,107 InChI-like strings of 40 to 120
    characters (ids of 12 hex digits) and a shuffled submission in which each string has 0 to 4
    random character edits, scored with ``mean-levenshtein``.
``h-and-m``
    h-and-m-personalized-fashion-recommendations at Kaggle's size: 1,371,980 customers (ids of 64
    hex digits), each with 1 to 5 purchased articles (10-digit ids) as answers and 12 ranked
    articles as the prediction, some of them right, drawn from a catalogue of Kaggle's 105,542
    articles, scored with ``map-at-k`` at ``k = 12``.

Prints the median wall and CPU time of ``--repeats`` gradings, the peak resident memory and the
part of it above the memory after the imports. ``--rows`` overrides both sizes (for a quick try).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pa_csv

sys.path.insert(0, str(Path(__file__).resolve().parent))
import grading_measure as core  # the grading benchmarks' shared measurement core

INCHI_ALPHABET = np.frombuffer(b"CHNOSPFIBrcl0123456789-(),/=+hmbtsi", dtype=np.uint8)
HEX = np.frombuffer(b"0123456789abcdef", dtype=np.uint8)


@dataclass(frozen=True)
class Case:
    """One grading case: its metric, columns and Kaggle's test size."""

    name: str
    competition: str
    metric: str
    id_column: str
    column: str
    rows: int
    params: tuple[tuple[str, int], ...] = ()


CASES = {
    "bms": Case(
        "bms", "bms-molecular-translation", "mean-levenshtein", "image_id", "InChI", 1_616_107
    ),
    "h-and-m": Case(
        "h-and-m",
        "h-and-m-personalized-fashion-recommendations",
        "map-at-k",
        "customer_id",
        "prediction",
        1_371_980,
        (("k", 12),),
    ),
}


def _hex_ids(rng: np.random.Generator, rows: int, digits: int) -> pa.Array:
    """``rows`` distinct-enough random hex ids (collisions are re-drawn by the caller's check)."""
    codes = HEX[rng.integers(0, 16, (rows, digits))]
    return pa.array(codes.view(f"S{digits}").ravel().astype(str))


def _inchis(rng: np.random.Generator, rows: int) -> list[str]:
    lengths = rng.integers(40, 121, rows)
    body = INCHI_ALPHABET[rng.integers(0, INCHI_ALPHABET.size, int(lengths.sum()))].tobytes()
    ends = np.cumsum(lengths)
    text = body.decode("ascii")
    return ["InChI=1S/" + text[end - size : end] for end, size in zip(ends, lengths, strict=True)]


def _edited(rng: np.random.Generator, texts: list[str]) -> list[str]:
    """Each text with 0 to 4 random single-character substitutions."""
    out = []
    edits = rng.integers(0, 5, len(texts))
    letters = INCHI_ALPHABET.tobytes().decode("ascii")
    for text, count in zip(texts, edits.tolist(), strict=True):
        if count:
            chars = list(text)
            for position in rng.integers(9, len(chars), count).tolist():
                chars[position] = letters[int(rng.integers(len(letters)))]
            text = "".join(chars)
        out.append(text)
    return out


ARTICLES = 105_542
"""Kaggle's ``articles.csv`` has this many articles; ids are drawn from a catalogue that size."""


def _articles(
    rng: np.random.Generator, catalogue: np.ndarray, rows: int, per_row: int
) -> np.ndarray:
    return catalogue[rng.integers(0, catalogue.size, (rows, per_row))]


def write_case(directory: Path, case: Case, rows: int, seed: int) -> None:
    """Write ``answers.csv`` and a shuffled, valid ``submission.csv`` for one case."""
    rng = np.random.default_rng(seed)
    if case.name == "bms":
        ids = _hex_ids(rng, rows, 12)
        truth = _inchis(rng, rows)
        answers, predictions = pa.array(truth), pa.array(_edited(rng, truth))
    else:
        ids = _hex_ids(rng, rows, 64)
        catalogue = np.unique(rng.integers(108_775_015, 959_461_001, 2 * ARTICLES))[:ARTICLES]
        bought = _articles(rng, catalogue, rows, 5)
        counts = rng.integers(1, 6, rows)
        ranked = _articles(rng, catalogue, rows, 12)
        hits = rng.random((rows, 12)) < 0.05
        ranked[hits] = bought[:, 0].repeat(12).reshape(rows, 12)[hits]
        answers = pa.array(
            " ".join(f"{a:010d}" for a in row[:count])
            for row, count in zip(bought.tolist(), counts.tolist(), strict=True)
        )
        predictions = pa.array(" ".join(f"{a:010d}" for a in row) for row in ranked.tolist())
    if len(set(ids.to_pylist())) != rows:
        raise SystemExit("generated ids collide: use another --seed")
    shuffle = pa.array(rng.permutation(rows))
    answer_table = pa.table({case.id_column: ids, case.column: answers})
    submission = pa.table({case.id_column: ids, case.column: predictions}).take(shuffle)
    pa_csv.write_csv(answer_table, directory / "answers.csv")
    pa_csv.write_csv(submission, directory / "submission.csv")


def measure(directory: Path, case: Case, repeats: int) -> dict[str, object]:
    """Grade one case ``repeats`` times in this process; return times and memory."""
    from pytest_mlebench.graders import SubmissionSpec

    spec = SubmissionSpec(
        id_column=case.id_column,
        target_columns=(case.column,),
        metric=case.metric,
        metric_params=dict(case.params),
    )
    return core.time_scorer(core.graders_scorer(directory, spec, case.competition), repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cases", nargs="+", choices=sorted(CASES), default=sorted(CASES))
    parser.add_argument("--rows", type=int, default=0, help="override both cases' row counts")
    core.add_child_options(parser)
    args = parser.parse_args()
    if args.write:
        directory, name = args.write
        case = CASES[name]
        write_case(Path(directory), case, args.rows or case.rows, args.seed)
        return
    if args.measure:
        directory, name = args.measure
        print(json.dumps(measure(Path(directory), CASES[name], args.repeats)))
        return
    print(core.machine_line())
    print(core.repeats_line(args.repeats))
    print(f"{'competition':<46} {'metric':<18} {'rows':>10} {core.MEASURE_HEADER}")
    with tempfile.TemporaryDirectory() as temporary:
        for name in args.cases:
            case = CASES[name]
            directory = Path(temporary) / name
            directory.mkdir()
            options = ["--seed", str(args.seed), "--rows", str(args.rows)]
            core.write_in_child(__file__, options, directory, name)
            report = core.measure_in_child(__file__, options, args.repeats, directory, name)
            rows = args.rows or case.rows
            columns = core.measure_columns(report, seconds_digits=2)
            print(f"{case.competition:<46} {case.metric:<18} {rows:>10,} {columns}")
        print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
