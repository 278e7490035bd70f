"""Grading speed and memory of the Medium/High metrics (flag, group, angular, …) at real size.

    .venv/bin/python bench/grade_context.py [--repeats 3] [--cases masked-mae ...]

One case per metric, each at the size of its competition's held-out test set (MLE-bench's split
of Kaggle's data): a generated ``answers.csv`` with the extra columns the metric reads (the 0/1
flag, the group name) and a valid ``submission.csv`` whose rows are shuffled against the
answers. Each case is graded by the graders library's ``score_submission`` (every validation
included) in a fresh Python process, ``--repeats`` times; the report gives the median wall time,
the process CPU time, the peak resident memory (``ru_maxrss``, interpreter and imports included)
and the part of that peak above the resident memory after the imports. As in ``bench/grade.py``,
the files are written by a child process of their own so that the measuring process does not
inherit the writer's peak.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.csv as pa_csv

sys.path.insert(0, str(Path(__file__).resolve().parent))
import grading_measure as core  # the grading benchmarks' shared measurement core

VOTES = ("seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote")
SPINE = ("patient_overall", "C1", "C2", "C3", "C4", "C5", "C6", "C7")


@dataclass(frozen=True)
class Case:
    """One metric at one competition's test size."""

    competition: str
    rows: int
    id_column: str
    targets: tuple[str, ...]
    answers: tuple[str, ...]
    key_columns: tuple[str, ...] = ()


CASES = {
    # 7,545 held-out breaths × 80 steps; about 38 % of rows inspiratory (scored).
    "masked-mae": Case(
        "ventilator-pressure-prediction", 603_600, "id", ("pressure",), ("pressure", "scored")
    ),
    # 444 held-out segments.
    "mae-rounded": Case(
        "predict-volcanic-eruptions-ingv-oe",
        444,
        "segment_id",
        ("time_to_eruption",),
        ("time_to_eruption",),
    ),
    # 10 % of 4,658,147 coupling pairs, 8 types.
    "group-log-mae": Case(
        "champs-scalar-coupling",
        465_815,
        "id",
        ("scalar_coupling_constant",),
        ("scalar_coupling_constant", "type"),
    ),
    # 66 held-out batches × 200,000 events.
    "mean-angular-error": Case(
        "icecube-neutrinos-in-deep-ice",
        13_200_000,
        "event_id",
        ("azimuth", "zenith"),
        ("azimuth", "zenith"),
    ),
    # 18 held-out patients × 146 weeks.
    "laplace-log-likelihood": Case(
        "osic-pulmonary-fibrosis-progression",
        2_628,
        "Patient_Week",
        ("FVC", "Confidence"),
        ("FVC", "scored"),
    ),
    # 240 held-out sequences × 107 bases, the first 68 scored.
    "masked-mcrmse": Case(
        "stanford-covid-vaccine",
        25_680,
        "id_seqpos",
        ("reactivity", "deg_Mg_pH10", "deg_Mg_50C"),
        ("reactivity", "deg_Mg_pH10", "deg_Mg_50C", "keep"),
    ),
    # 10 % of 4,721,618 labelled pairs.
    "mcc": Case("nfl-player-contact-detection", 472_162, "contact_id", ("contact",), ("contact",)),
    # 5,000 held-out images.
    "weighted-auc": Case("alaska2-image-steganalysis", 5_000, "Id", ("Label",), ("Label",)),
    # About a tenth of 17,089 EEGs, six vote shares each.
    "kl-divergence": Case(
        "hms-harmful-brain-activity-classification", 1_709, "eeg_id", VOTES, VOTES
    ),
    # About 1,191 held-out patients × 2 breasts.
    "probabilistic-f1": Case(
        "rsna-breast-cancer-detection", 2_382, "prediction_id", ("cancer",), ("cancer",)
    ),
    # 202 held-out studies × 8 targets.
    "study-weighted-log-loss": Case(
        "rsna-2022-cervical-spine-fracture-detection",
        1_616,
        "row_id",
        ("fractured",),
        ("fractured", "study_target"),
    ),
    # About 12 % of 265,213 images.
    "top-1-error": Case("inaturalist-2019-fgvc6", 31_826, "id", ("predicted",), ("predicted",)),
    # The drives of 10 % of the dates: an estimate, 20 trips × 2,500 one-second epochs (no
    # published row count), keyed by (tripId, UnixTimeMillis).
    "phone-percentile-distance": Case(
        "smartphone-decimeter-2022",
        50_000,
        "tripId",
        ("LatitudeDegrees", "LongitudeDegrees"),
        ("LatitudeDegrees", "LongitudeDegrees", "phone"),
        key_columns=("UnixTimeMillis",),
    ),
}
TRIPS = 20
TYPES = ("1JHC", "1JHN", "2JHC", "2JHH", "2JHN", "3JHC", "3JHH", "3JHN")


def _ids(metric: str, rows: int, rng: np.random.Generator) -> pa.Array:
    if metric in ("masked-mae", "mean-angular-error", "group-log-mae"):
        return pa.array(np.arange(1, rows + 1) * 7)
    if metric == "mcc":
        return pa.array(np.char.add("58168_003392_", np.arange(rows).astype(str)))
    if metric == "study-weighted-log-loss":
        studies = np.repeat(np.arange(rows // len(SPINE)) + 10_000, len(SPINE)).astype(str)
        keys = np.char.add(np.char.add("1.2.826.0.1.3680043.", studies), "_")
        return pa.array(np.char.add(keys, np.tile(np.asarray(SPINE), rows // len(SPINE))))
    return pa.array(np.char.add("seg-", rng.permutation(rows * 3)[:rows].astype(str)))


def _column(name: str, metric: str, rows: int, rng: np.random.Generator) -> np.ndarray:
    if name in ("scored", "keep"):
        return (rng.random(rows) < 0.4).astype(np.int64)
    if name == "type":
        return np.asarray(TYPES, dtype=object)[rng.integers(0, len(TYPES), rows)]
    if metric == "mcc":
        return rng.integers(0, 2, rows)
    if metric in ("weighted-auc", "study-weighted-log-loss") and name in ("Label", "fractured"):
        return rng.integers(0, 2, rows) if name == "Label" else rng.random(rows)
    if metric == "probabilistic-f1":
        return rng.random(rows)
    if metric == "top-1-error":
        return rng.integers(0, 1010, rows)
    if name == "azimuth":
        return rng.uniform(0, 2 * np.pi, rows)
    if name == "zenith":
        return rng.uniform(0, np.pi, rows)
    return rng.normal(100, 30, rows)


def write_case(directory: Path, metric: str, seed: int) -> None:
    """Write ``answers.csv`` and a shuffled, valid ``submission.csv`` for one case."""
    case, rng = CASES[metric], np.random.default_rng(seed)
    ids = _ids(metric, case.rows, rng)
    answers = {name: _column(name, metric, case.rows, rng) for name in case.answers}
    predictions = {name: _column(name, metric, case.rows, rng) for name in case.targets}
    if metric == "kl-divergence":  # rows of shares that sum to 1 on both sides
        for side in (answers, predictions):
            shares = rng.dirichlet(np.ones(len(VOTES)), case.rows)
            side.update({name: shares[:, j] for j, name in enumerate(VOTES)})
    if metric == "probabilistic-f1":
        answers["cancer"] = (rng.random(case.rows) < 0.02).astype(np.int64)
    if metric == "study-weighted-log-loss":
        answers = {"fractured": rng.integers(0, 2, case.rows), "study_target": ids}
    keys: dict[str, object] = {case.id_column: ids}
    if metric == "phone-percentile-distance":
        keys, answers, predictions = _trips(case.rows, rng)
    shuffle = pa.array(rng.permutation(case.rows))
    options = pa_csv.WriteOptions(quoting_style="none")
    answer_table = pa.table({**keys, **answers})
    submission_table = pa.table({**keys, **predictions}).take(shuffle)
    pa_csv.write_csv(answer_table, directory / "answers.csv", write_options=options)
    pa_csv.write_csv(submission_table, directory / "submission.csv", write_options=options)


def _trips(rows: int, rng: np.random.Generator) -> tuple[dict, dict, dict]:
    """Trip keys (a trip id, one epoch a second), true positions and predictions a few metres
    off (about 1e-5 degree)."""
    per_trip = rows // TRIPS
    trips = np.repeat(np.char.add("2021-04-29-US-SJC-", np.arange(TRIPS).astype(str)), per_trip)
    trips = np.char.add(trips, "-GooglePixel5")
    starts = 1_619_700_000_000 + rng.integers(0, 86_400_000, TRIPS)
    times = np.repeat(starts, per_trip) + np.tile(np.arange(per_trip) * 1000, TRIPS)
    lat = 37.3 + np.cumsum(rng.normal(0, 1e-4, rows))
    lon = -121.9 + np.cumsum(rng.normal(0, 1e-4, rows))
    keys = {"tripId": pa.array(trips), "UnixTimeMillis": pa.array(times)}
    answers = {"LatitudeDegrees": lat, "LongitudeDegrees": lon, "phone": pa.array(trips)}
    noise = rng.normal(0, 2e-5, (2, rows))
    predictions = {"LatitudeDegrees": lat + noise[0], "LongitudeDegrees": lon + noise[1]}
    return keys, answers, predictions


def measure(directory: Path, metric: str, repeats: int) -> dict[str, object]:
    """Grade one case ``repeats`` times in this process; return times and memory."""
    from pytest_mlebench.graders import SubmissionSpec

    case = CASES[metric]
    spec = SubmissionSpec(
        case.id_column,
        case.targets,
        metric,
        answer_columns=case.answers,
        key_columns=case.key_columns,
    )
    return core.time_scorer(core.graders_scorer(directory, spec, metric), repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--cases", nargs="+", choices=list(CASES), default=list(CASES))
    core.add_child_options(parser)
    args = parser.parse_args()
    if args.write:
        write_case(Path(args.write[0]), args.write[1], args.seed)
        return
    if args.measure:
        print(json.dumps(measure(Path(args.measure[0]), args.measure[1], args.repeats)))
        return
    print(core.machine_line(with_cpu_name=False))
    print(core.repeats_line(args.repeats))
    print(f"{'metric':<24} {'competition':<36} {'rows':>11} {core.MEASURE_HEADER}")
    with tempfile.TemporaryDirectory() as temporary:
        for metric in args.cases:
            directory = Path(temporary) / metric
            directory.mkdir()
            core.write_in_child(__file__, ["--seed", str(args.seed)], directory, metric)
            report = core.measure_in_child(__file__, [], args.repeats, directory, metric)
            case = CASES[metric]
            columns = core.measure_columns(report)
            print(f"{metric:<24} {case.competition:<36} {case.rows:>11,} {columns}")
            for path in directory.iterdir():
                path.unlink()


if __name__ == "__main__":
    main()
