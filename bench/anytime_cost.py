"""What anytime grading costs: one poll of the submission, one copy, and grading N copies.

Polling: a sandbox is started on each backend with a submission of ``--rows`` rows; the
:class:`~pytest_mlebench.anytime.copies.SubmissionWatcher` looks at it ``--looks`` times while it
does not change (one ``stat`` through the sandbox per look: the cost paid every poll interval for
the whole run), then ``--changes`` times right after the submission was rewritten (the ``stat``
and the copy out). Medians are printed.

Grading: ``--copies`` copies of a ``--rows``-row accuracy submission are graded on the host with
:func:`~pytest_mlebench.anytime.grade_copies.grade_copies`, the function a run calls after its
sandbox stopped (the graders library's validation and metric for each copy).

    PYTHONPATH=$PWD .venv/bin/python bench/anytime_cost.py [--backends local,docker]
        [--rows 100000] [--looks 20] [--changes 5] [--copies 48]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pytest_mlebench.anytime.copies import COPIES, COPIES_JSON, CopyPlan, SubmissionWatcher
from tests.factories import toy_config, write_competition


def submission_text(rows: int, flip_every: int = 7) -> tuple[str, str]:
    """``(answers, submission)`` CSV texts of ``rows`` rows; every ``flip_every``-th label wrong."""
    answers = ["id,label"] + [f"r{i:07d},{i % 2}" for i in range(rows)]
    submission = ["id,label"] + [f"r{i:07d},{(i + (i % flip_every == 0)) % 2}" for i in range(rows)]
    return "\n".join(answers) + "\n", "\n".join(submission) + "\n"


def measure_polls(backend: str, rows: int, looks: int, changes: int) -> tuple[float, float]:
    from pytest_mlebench.sandbox import create_sandbox
    from pytest_mlebench.sandbox.conformance.support import make_spec

    _, submission = submission_text(rows)
    with tempfile.TemporaryDirectory(prefix="mlebench-bench-anytime-") as folder:
        root = Path(folder)
        public = root / "public"
        public.mkdir()
        (public / "sample_submission.csv").write_text(submission)
        image = None
        if backend == "docker":
            from pytest_mlebench.sandbox.docker import ensure_image

            image = ensure_image()
        spec = make_spec(public, validator=None, time_limit=3600)
        with create_sandbox(backend, spec, image=image) as sandbox:
            target = sandbox.paths.submission_file
            copy = ["bash", "-c", f"cp {sandbox.paths.data}/sample_submission.csv {target}"]
            sandbox.exec(copy, timeout=60)
            watcher = SubmissionWatcher(
                sandbox, root / "run", CopyPlan(keep=1000), max_submission=1 << 30
            )
            watcher.folder.mkdir(parents=True)
            watcher.look()  # the first copy
            quiet = []
            for _ in range(looks):
                started = time.perf_counter()
                assert watcher.look() is None
                quiet.append(time.perf_counter() - started)
            changed = []
            for _ in range(changes):
                sandbox.exec(["bash", "-c", f"touch {target}"], timeout=60)
                started = time.perf_counter()
                assert watcher.look() is not None
                changed.append(time.perf_counter() - started)
    return statistics.median(quiet), statistics.median(changed)


def measure_grading(rows: int, copies: int) -> float:
    from pytest_mlebench.anytime.grade_copies import grade_copies
    from pytest_mlebench.registry import load_one

    answers_text, submission = submission_text(rows)
    with tempfile.TemporaryDirectory(prefix="mlebench-bench-anytime-") as folder:
        root = Path(folder)
        write_competition(root / "defs", "bench-anytime", config=toy_config("bench-anytime"))
        competition = load_one("bench-anytime", [root / "defs"])
        answers = root / "answers.csv"
        answers.write_text(answers_text)
        run_dir = root / "run"
        (run_dir / COPIES).mkdir(parents=True)
        entries = []
        for number in range(1, copies + 1):
            name = f"{number:04d}.csv"
            (run_dir / COPIES / name).write_text(submission)
            entries.append(
                {"number": number, "file": name, "time_used": float(number), "size": 0, "mtime": ""}
            )
        (run_dir / COPIES / COPIES_JSON).write_text(json.dumps(entries))
        started = time.perf_counter()
        points = grade_copies(run_dir, competition, answers)
        seconds = time.perf_counter() - started
        assert len(points) == copies and all(point.valid for point in points)
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backends", default="local,docker")
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--looks", type=int, default=20)
    parser.add_argument("--changes", type=int, default=5)
    parser.add_argument("--copies", type=int, default=48)
    options = parser.parse_args()
    print(f"submission of {options.rows} rows")
    for backend in options.backends.split(","):
        quiet, changed = measure_polls(backend, options.rows, options.looks, options.changes)
        print(f"{backend:8} poll, unchanged: {quiet * 1000:8.1f} ms   poll + copy: "
              f"{changed * 1000:8.1f} ms")  # fmt: skip
    seconds = measure_grading(options.rows, options.copies)
    each = seconds / options.copies * 1000
    print(f"grading {options.copies} copies: {seconds:.2f} s ({each:.0f} ms each)")


if __name__ == "__main__":
    main()
