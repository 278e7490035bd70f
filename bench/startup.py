"""What the plugin costs a session that uses nothing of it, and what ``grade-sample`` costs.

Not a test. Each command runs as a whole process, ``--runs`` times, the two commands of a pair in
turn (A B A B …) so that a drift in the machine's speed hits both alike; each run's wall time is
a monotonic clock around the child, its CPU time and peak resident memory are the kernel's
accounting of that one child (``os.wait4``). The table gives medians and the A − B differences.

- **idle**: ``pytest --co -q`` in an empty temporary folder, with the plugin installed in the
  environment, against the same command with ``-p no:mlebench`` (the plugin not loaded at all).
- **grade-sample**: ``mlebench grade-sample`` of the embedded competition ``digits``'s sample
  submission (540 rows; the data is prepared into a temporary folder first, offline), against
  ``python -c 'import pandas'``, the start-up the original MLE-bench's grader pays before it
  reads a file.
- **grade-sample, before and after** (with ``--before TREE``): the same ``grade-sample`` run as
  ``python -m pytest_mlebench.cli`` from another checkout of the project (``git archive REV |
  tar -x -C TREE``; it comes first on ``PYTHONPATH``, the environment is this one), against this
  checkout's, so a change's effect is measured in one run on one machine state.

Every child may write and read compiled bytecode (``PYTHONDONTWRITEBYTECODE`` is removed from its
environment; the warm-up writes it), as an installed package has it: without, every run of this
project's modules would compile them from source, which the installed pandas never does.

    .venv/bin/python bench/startup.py            # --runs 10
    .venv/bin/python bench/startup.py --only grade-sample --before /tmp/before   # git archive
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

BIN = Path(sys.executable).parent
IDLE_SIDES = ("`pytest --co -q` (plugin installed)", "the same with `-p no:mlebench`")
GRADE_SIDES = ("`mlebench grade-sample` (digits, 540 rows)", "`python -c 'import pandas'`")
BEFORE_SIDES = ("the same, this checkout", "the same, the `--before` checkout")


def child_env(pythonpath: Path | None = None) -> dict[str, str]:
    """This environment, bytecode allowed, with ``pythonpath`` first on the import path."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    if pythonpath is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(pythonpath), env.get("PYTHONPATH", "")])
    return env


Command = tuple[list[str], dict[str, str]]


def run_once(command: Command, cwd: Path) -> tuple[float, float, float]:
    """Wall s, CPU s (user + system) and peak RSS MB of one run of ``command``."""
    argv, env = command
    start = time.perf_counter()
    child = subprocess.Popen(
        argv, cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode not in (0, 5):  # 5: pytest collected no tests
        raise SystemExit(f"{argv} exited {child.returncode}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def compare(
    name: str, sides: tuple[str, str], a: Command, b: Command, cwd: Path, runs: int
) -> list[str]:
    """Run ``a`` and ``b`` in turn (one warm-up each) and return the table's rows."""
    run_once(a, cwd), run_once(b, cwd)
    figures: dict[str, list[tuple[float, float, float]]] = {"A": [], "B": []}
    for _ in range(runs):
        figures["A"].append(run_once(a, cwd))
        figures["B"].append(run_once(b, cwd))
    medians = {
        side: [statistics.median(run[i] for run in rows) for i in range(3)]
        for side, rows in figures.items()
    }
    (wa, ca, ma), (wb, cb, mb) = medians["A"], medians["B"]
    return [
        f"| {name} | {sides[0]} | {wa:.3f} | {ca:.3f} | {ma:.1f} |",
        f"| {name} | {sides[1]} | {wb:.3f} | {cb:.3f} | {mb:.1f} |",
        f"| {name} | difference | {wa - wb:+.3f} | {ca - cb:+.3f} | {ma - mb:+.1f} |",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=10)
    parser.add_argument("--only", choices=["idle", "grade-sample"], default=None)
    parser.add_argument(
        "--before", type=Path, help="another checkout's tree: its grade-sample against this one's"
    )
    args = parser.parse_args()
    env = child_env()
    rows = [
        "| case | command | median wall s | median CPU s | median peak RSS MB |",
        "|---|---|---|---|---|",
    ]
    with tempfile.TemporaryDirectory(prefix="mlebench-startup-") as folder:
        root = Path(folder)
        empty = root / "empty"
        empty.mkdir()
        if args.only in (None, "idle"):
            pytest = [str(BIN / "pytest"), "--co", "-q", "-p", "no:cacheprovider"]
            plain = ([*pytest, "-p", "no:mlebench"], env)
            rows += compare("idle", IDLE_SIDES, (pytest, env), plain, empty, args.runs)
        if args.only in (None, "grade-sample"):
            data = root / "data"
            mlebench = str(BIN / "mlebench")
            subprocess.run(
                [mlebench, "prepare", "-c", "digits", "--data-dir", str(data)],
                check=True,
                capture_output=True,
            )
            sample = data / "digits" / "prepared" / "public" / "sample_submission.csv"
            words = ["grade-sample", str(sample), "digits", "--data-dir", str(data)]
            pandas = ([sys.executable, "-c", "import pandas"], env)
            grade = ([mlebench, *words], env)
            rows += compare("grade-sample", GRADE_SIDES, grade, pandas, empty, args.runs)
            if args.before is not None:
                module = [sys.executable, "-m", "pytest_mlebench.cli", *words]
                here = (module, child_env(Path(__file__).resolve().parents[1]))
                before = (module, child_env(args.before.resolve()))
                rows += compare("grade-sample", BEFORE_SIDES, here, before, empty, args.runs)
    print(f"load average {os.getloadavg()[0]:.2f}, {args.runs} runs each")
    print("\n".join(rows))


if __name__ == "__main__":
    main()
