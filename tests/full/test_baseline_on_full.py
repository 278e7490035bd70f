"""The real plugin runs the baseline agent on every Medium/High competition's shaped fixture.

As for Lite (``tests/lite/test_baseline_on_lite.py``): each shaped download is extracted into a
data folder as ``mlebench prepare`` would leave it; one pytest session (the local sandbox)
prepares, runs the baseline agent and grades. Every run must end with a valid submission, and
the agent's log says which layout it solved or plainly that the layout is not supported (it
then hands in the sample submission).
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from pytest_mlebench.kaggle import extract_archives
from tests.full.shapes import load_shapes

SOLVED_OR_SAID = ("layout:", "not supported:")


@pytest.fixture(scope="module")
def full_data(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[str]]:
    data = tmp_path_factory.mktemp("full-data")
    shapes = load_shapes()
    for competition_id, shape in shapes.items():
        download = data / competition_id / "download"
        download.mkdir(parents=True)
        shape.make_download(download, np.random.default_rng(0))
        extract_archives(download, data / competition_id / "raw")
    return data, sorted(shapes)


def test_the_baseline_hands_in_a_valid_submission_everywhere(
    pytester: pytest.Pytester, full_data: tuple[Path, list[str]]
) -> None:
    data, ids = full_data
    pytester.makepyfile(test_bench="from pytest_mlebench.benchmark import test_competition\n")
    results = pytester.path / "results.jsonl"
    outcome = pytester.runpytest_subprocess(
        "-k", " or ".join(ids), "-p", "no:randomly",
        "--mle-agent", "baseline", "--mle-sandbox", "local", "--mle-time-limit", "300",
        f"--mle-data-dir={data}", f"--mle-results={results}",
    )  # fmt: skip
    records = [json.loads(line) for line in results.read_text().splitlines()]
    assert sorted(r["competition_id"] for r in records) == ids, outcome.stdout.str()
    for record in records:
        assert record["outcome"] == "passed", (record["competition_id"], record["reason"])
        assert record["grade"]["valid_submission"], record["competition_id"]
        log = (Path(record["run_dir"]) / "agent.log").read_text("utf-8", errors="replace")
        assert any(word in log for word in SOLVED_OR_SAID), (record["competition_id"], log[-2000:])
