"""The measurement core the grading benchmarks share (``bench/grade*.py``; not a test).

Each benchmark script writes its cases and measures them in child processes of itself, through
two hidden options that :func:`add_child_options` adds: ``--write DIRECTORY CASE`` writes one
case's ``answers.csv`` and ``submission.csv``, ``--measure DIRECTORY CASE …`` grades it
``--repeats`` times and prints one JSON report. A fresh process per measurement matters on Linux:
a process's ``ru_maxrss`` survives ``fork`` and ``exec``, so a measuring process started by a parent
that had just built the cases in memory would report the parent's peak as its own.

:func:`time_scorer` takes the report — median wall and process CPU seconds (all threads, which
shows the work when other jobs share the machine), peak resident memory (``ru_maxrss``, the
interpreter and its imports included) and the part of that peak above the resident memory measured
after the imports, before the first call. :data:`MEASURE_HEADER` and :func:`measure_columns` print
those four figures as the right-hand columns of every script's table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
"""The repository root, put on the children's ``PYTHONPATH`` so that they import this checkout."""

MEASURE_HEADER = f"{'median s':>9} {'CPU s':>6} {'peak RSS MB':>12} {'above imports':>14}"


def add_child_options(parser: argparse.ArgumentParser, measure_arguments: int = 2) -> None:
    """Add the hidden ``--measure`` (``measure_arguments`` values) and ``--write`` options."""
    parser.add_argument("--measure", nargs=measure_arguments, help=argparse.SUPPRESS)
    parser.add_argument("--write", nargs=2, help=argparse.SUPPRESS)


def graders_scorer(directory: Path, spec: Any, name: str) -> Callable[[], float]:
    """Grade ``directory``'s submission with the graders library (every validation included).

    ``spec`` is the case's ``SubmissionSpec``; an invalid verdict stops the run, naming ``name``.
    """
    from pytest_mlebench.graders import score_submission

    def score() -> float:
        result = score_submission(directory / "submission.csv", directory / "answers.csv", spec)
        if not result.valid or result.score is None:
            raise SystemExit(f"{name}: the generated submission was graded invalid: {result}")
        return result.score

    return score


def time_scorer(scorer: Callable[[], float], repeats: int) -> dict[str, object]:
    """Call ``scorer`` ``repeats`` times in this process; return times and memory."""
    baseline_kib = current_rss_kib()
    seconds: list[float] = []
    cpu_seconds: list[float] = []
    score = 0.0
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        score = scorer()
        seconds.append(time.perf_counter() - start)
        cpu_seconds.append(time.process_time() - start_cpu)
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return {
        "score": score,
        "median_s": statistics.median(seconds),
        "seconds": seconds,
        "median_cpu_s": statistics.median(cpu_seconds),
        "peak_rss_mb": peak_kib / 1024,
        "peak_above_imports_mb": (peak_kib - baseline_kib) / 1024,
    }


def current_rss_kib() -> int:
    """This process's resident memory now, in KiB (from ``/proc/self/statm``)."""
    with open("/proc/self/statm") as statm:
        pages = int(statm.read().split()[1])
    return pages * resource.getpagesize() // 1024


def cpu_name() -> str:
    """The CPU's model name from ``/proc/cpuinfo``, else what ``platform`` knows."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def machine_line(with_cpu_name: bool = True) -> str:
    """The first line of every table: Python version, CPU count (and the CPU's name)."""
    line = f"Python {platform.python_version()}, {os.cpu_count()} CPUs"
    return f"{line} ({cpu_name()})" if with_cpu_name else line


def repeats_line(repeats: int) -> str:
    """The second line of most tables: the repeat count and the load average before the runs."""
    return f"median of {repeats} runs per process; load average {os.getloadavg()[0]:.1f}"


def child_environment() -> dict[str, str]:
    """The environment of a child process: this one's, with the repository on ``PYTHONPATH``."""
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def write_in_child(script: str, options: list[str], directory: Path, case: str) -> None:
    """Run ``script --write directory case`` (after ``options``) in a child process."""
    command = [sys.executable, script, *options, "--write", str(directory), case]
    subprocess.run(command, check=True, env=child_environment())


def measure_in_child(
    script: str, options: list[str], repeats: int, directory: Path, *case: str
) -> dict[str, Any]:
    """Run ``script --repeats N --measure directory case…`` in a child; return its JSON report."""
    command = [sys.executable, script, *options, "--repeats", str(repeats)]
    command += ["--measure", str(directory), *case]
    output = subprocess.run(
        command, check=True, capture_output=True, text=True, env=child_environment()
    )
    report: dict[str, Any] = json.loads(output.stdout)
    return report


def measure_columns(report: dict[str, Any], seconds_digits: int = 3) -> str:
    """The four measured figures of one report, aligned under :data:`MEASURE_HEADER`."""
    return (
        f"{report['median_s']:>9.{seconds_digits}f} {report['median_cpu_s']:>6.2f} "
        f"{report['peak_rss_mb']:>12.0f} {report['peak_above_imports_mb']:>14.0f}"
    )
