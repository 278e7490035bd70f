"""``mlebench grade-sample`` (one file) and ``mlebench grade`` (a submission.jsonl list)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from pytest_mlebench.cli.common import common, competition, data_dir, registry
from pytest_mlebench.data import prepare_competition
from pytest_mlebench.grading import grade_submission
from pytest_mlebench.records.mlebench_grade import grade_json


def add_grade_sample(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "grade-sample", help="grade one submission file and print the report as JSON"
    )
    common(parser)
    parser.add_argument("submission", type=Path, help="the submission CSV")
    parser.add_argument("competition_id", help="the competition it was made for")
    parser.set_defaults(handler=cmd_grade_sample)


def cmd_grade_sample(args: argparse.Namespace) -> int:
    comp = competition(args, args.competition_id)
    paths = prepare_competition(comp, data_dir(args))
    report = grade_submission(args.submission, comp, paths.answers)
    print(grade_json(report))
    return 0 if report.valid_submission else 1


def add_grade(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    parser = commands.add_parser(
        "grade", help="grade every submission listed in a submission.jsonl file"
    )
    common(parser)
    parser.add_argument(
        "--submission",
        type=Path,
        required=True,
        help="JSON lines: competition_id, submission_path per line",
    )
    parser.add_argument(
        "--output-dir", type=Path, required=True, help="folder for the aggregated grading report"
    )
    parser.set_defaults(handler=cmd_grade)


def cmd_grade(args: argparse.Namespace) -> int:
    from pytest_mlebench.bulk import check_competitions, grade_many, read_submission_list
    from pytest_mlebench.report.mlebench_compat import bulk_grading_report

    known = registry(args)
    listing = check_competitions(read_submission_list(args.submission), known)
    for skipped in listing.skipped:
        print(f"mlebench: error: {skipped}", file=sys.stderr, flush=True)
    report = bulk_grading_report(grade_many(listing.entries, known, data_dir(args)))
    args.output_dir.mkdir(parents=True, exist_ok=True)
    out = args.output_dir / "grading_report.json"
    out.write_text(json.dumps(report, indent=2), "utf-8")
    print(
        f"graded {report['total_runs']} submissions: {report['total_valid_submissions']} valid, "
        f"{report['total_medals']} medals; report written to {out}"
    )
    if listing.skipped:
        print(f"{len(listing.skipped)} line(s) of {args.submission} skipped (see above)")
        return 1
    return 0
