"""The harness's own time per run in Docker, against a bare ``docker run`` of the same image.

Not a test. One pytest session of the real plugin runs the embedded competition ``digits``
``--seeds`` times, one after another, on the Docker backend, with an agent defined in the
session's ``conftest.py`` (``stamp``): its one command inside the sandbox writes the clock,
copies the sample submission and writes the clock again. The conftest notes the clock when each
test's setup starts, when the record is handed to ``pytest_mlebench_graded`` (just before it is
written) and when the test's teardown ends (the container removed). Container and host read the
same clock (one kernel), so per run:

- **start**: from the test's start (setup: data check, sandbox start) to the agent's first
  instruction running in the container;
- **finish**: from the agent's last instruction to the record handed over (copy out, grading,
  integrity, record), and to the test's end (the container stopped and removed).

The bare baseline runs ``docker run --rm`` of the image the runs used, with the same mounts
(public data read-only at ``/home/data``; ``/home/submission``, ``/home/logs`` and
``/home/code`` writable), as the sandbox's user, with the same command: its start is from just
before ``docker run`` to the first instruction, its finish from the last instruction to
``docker run`` returning. The table gives medians over the runs and the harness's excess.

With ``--competitions all-embedded`` (or a comma list) the session runs each competition once
instead (the embedded suite is 14): the table then adds the session's totals — the session's
wall time, the bare runs' summed time, and the harness's summed excess per run. ``--data-dir``
reuses data already prepared there (otherwise it is prepared in a temporary folder first).

``--sessions N`` repeats the whole measurement N times (a fresh session and fresh bare runs
each) and ends with the minimum and median of each session's figures; the first run of a
session is shown apart (it lists the image's files for the inventory, :mod:`~pytest_mlebench.
integrity.inventory_index`, which later runs of the same image reuse).

    .venv/bin/python bench/harness_overhead.py     # --seeds 10
    .venv/bin/python bench/harness_overhead.py --competitions all-embedded \
        --data-dir ~/.cache/mlebench --sessions 3
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

BIN = Path(sys.executable).parent
STAMPS = "stamps.jsonl"

CONFTEST = """
import json
import time
from pathlib import Path

import pytest

STAMPS = Path(__file__).with_name("stamps.jsonl")
COMMAND = (
    "date +%s.%N; cp /home/data/sample_submission.csv /home/submission/submission.csv; "
    "date +%s.%N"
)


def note(**values):
    with STAMPS.open("a") as handle:
        handle.write(json.dumps(values) + "\\n")


class StampAgent:
    name = "stamp"
    privileged = False

    def run(self, sandbox, task):
        result = sandbox.exec(["sh", "-c", COMMAND], timeout=60)
        first, last = (float(line) for line in result.output_tail.split()[-2:])
        note(seed=task.seed, competition=task.competition_id, first=first, last=last)
        return result


def pytest_mlebench_make_agent(name, settings):
    return StampAgent() if name == "stamp" else None


def pytest_mlebench_graded(record):
    note(graded=time.time())


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item):
    note(setup=time.time())


def pytest_runtest_logfinish(nodeid, location):
    note(finished=time.time())
"""

BARE = (
    "date +%s.%N; cp /home/data/sample_submission.csv /home/submission/submission.csv; date +%s.%N"
)


def run_session(
    project: Path, data: Path, seeds: int, select: list[str]
) -> tuple[list[dict[str, Any]], float]:
    """Run the benchmark test ``seeds`` times per selected competition; one dict of clock
    readings per run, and the session's wall time."""
    command = [
        str(BIN / "pytest"),
        "-p", "no:cacheprovider", "-p", "no:randomly", "-q",
        "--mle-agent", "stamp", "--mle-sandbox", "docker",
        f"--mle-data-dir={data}", "--mle-seeds", str(seeds), *select,
    ]  # fmt: skip
    started = time.time()
    done = subprocess.run(command, cwd=project, capture_output=True, text=True)
    wall = time.time() - started
    if done.returncode != 0:
        raise SystemExit(f"the session failed:\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}")
    runs: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    for line in (project / STAMPS).read_text().splitlines():
        values = json.loads(line)
        if "setup" in values:
            current = {"setup": values["setup"]}
            runs.append(current)
        for key in ("competition", "first", "last", "graded", "finished"):
            if key in values:
                current[key] = values[key]
    return runs, wall


def image_of(project: Path) -> str:
    """The image of the session's runs, from its results file."""
    line = (project / "reports" / "results.jsonl").read_text().splitlines()[-1]
    return str(json.loads(line)["image"])


def bare_run(image: str, public: Path, scratch: Path) -> dict[str, float]:
    """One ``docker run --rm`` of the same command with the same mounts."""
    mounts = ["-v", f"{public}:/home/data:ro"]
    for name in ("submission", "logs", "code"):
        folder = scratch / name
        folder.mkdir(parents=True, exist_ok=True)
        os.chmod(folder, 0o777)
        mounts += ["-v", f"{folder}:/home/{name}"]
    start = time.time()
    done = subprocess.run(
        ["docker", "run", "--rm", "--network", "none", *mounts, image, "sh", "-c", BARE],
        capture_output=True,
        text=True,
        check=True,
    )
    end = time.time()
    first, last = (float(value) for value in done.stdout.split()[-2:])
    return {"setup": start, "first": first, "last": last, "graded": end, "finished": end}


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seeds", type=int, default=None, help="runs per competition")
    parser.add_argument(
        "--competitions",
        default="digits",
        help="a comma list, or all-embedded (the embedded suite, one run each)",
    )
    parser.add_argument("--data-dir", type=Path, default=None, help="data prepared already")
    parser.add_argument(
        "--sessions", type=int, default=1, help="repeat the whole measurement (min and median)"
    )
    args = parser.parse_args()
    suite = args.competitions == "all-embedded"
    names = [] if suite else args.competitions.split(",")
    seeds = args.seeds or (10 if names == ["digits"] else 1)
    select = ["-m", "embedded"] if suite else ["-k", " or ".join(names)]
    with tempfile.TemporaryDirectory(prefix="mlebench-overhead-") as folder:
        root = Path(folder)
        data = args.data_dir or root / "data"
        if args.data_dir is None:
            which = ["--split", "embedded"] if suite else [x for n in names for x in ("-c", n)]
            subprocess.run(
                [str(BIN / "mlebench"), "prepare", *which, "--data-dir", str(data)],
                check=True,
                capture_output=True,
            )
        summaries = [
            measure(root / f"session-{n}", data, seeds, select) for n in range(args.sessions)
        ]
    if len(summaries) > 1:
        print(f"over {len(summaries)} sessions (min / median):")
        for key in summaries[0]:
            values = [summary[key] for summary in summaries]
            print(f"- {key}: {min(values):+.2f} / {statistics.median(values):+.2f}")


def measure(root: Path, data: Path, seeds: int, select: list[str]) -> dict[str, float]:
    """One session and its bare runs; prints the table, returns the harness's excess figures."""
    project = root / "project"
    project.mkdir(parents=True)
    load = [os.getloadavg()[0]]
    (project / "conftest.py").write_text(CONFTEST)
    (project / "test_bench.py").write_text(
        "from pytest_mlebench.benchmark import test_competition\n__all__ = ['test_competition']\n"
    )
    harness, wall = run_session(project, data, seeds, select)
    image = image_of(project)
    bare = [
        bare_run(image, data / run["competition"] / "prepared" / "public", root / f"bare-{i}")
        for i, run in enumerate(harness)
    ]
    load.append(os.getloadavg()[0])
    print(
        f"image {image}; {len(harness)} runs each way; load average {load[0]:.1f} → {load[1]:.1f}"
    )
    print("| way | start s | finish to record s | finish to test end s | whole s |")
    print("|---|---|---|---|---|")
    rows = {}
    for way, runs in (("pytest-mlebench (docker)", harness), ("bare docker run", bare)):
        figures = [
            statistics.median(run[b] - run[a] for run in runs)
            for a, b in (("setup", "first"), ("last", "graded"), ("last", "finished"),
                         ("setup", "finished"))
        ]  # fmt: skip
        rows[way] = figures
        print(f"| {way} | " + " | ".join(f"{value:.2f}" for value in figures) + " |")
    excess = [a - b for a, b in zip(*rows.values(), strict=True)]
    print("| harness's excess | " + " | ".join(f"{value:+.2f}" for value in excess) + " |")
    pairs = zip(harness, bare, strict=True)
    whole = [h["finished"] - h["setup"] - (b["finished"] - b["setup"]) for h, b in pairs]
    worst = max(range(len(whole)), key=whole.__getitem__)
    print(
        f"whole excess per run: first {whole[0]:+.2f}, largest {whole[worst]:+.2f} "
        f"({harness[worst]['competition']}, run {worst + 1})"
    )
    summary = {
        "start excess (median run)": excess[0],
        "finish-to-record excess (median run)": excess[1],
        "whole excess (median run)": excess[3],
        "whole excess (first run)": whole[0],
    }
    if len({run["competition"] for run in harness}) > 1:
        bare_total = sum(run["finished"] - run["setup"] for run in bare)
        runs_total = sum(run["finished"] - run["setup"] for run in harness)
        print(
            f"session: {wall:.1f} s wall for {len(harness)} runs (the runs themselves "
            f"{runs_total:.1f} s); the same {len(bare)} bare docker runs {bare_total:.1f} s; "
            f"the harness's excess {runs_total - bare_total:+.1f} s in the runs, "
            f"{wall - bare_total:+.1f} s in all (collection, session start and finish included)"
        )
        summary["session excess in the runs"] = runs_total - bare_total
        summary["session excess in all"] = wall - bare_total
    return summary


if __name__ == "__main__":
    main()
