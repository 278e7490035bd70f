"""Every shipped engineering task proves itself through the real plugin, in Docker. For the tasks of
``engineering/`` (the ``core`` split): the oracle passes every task with a task score of at least
0.95 and every gate; the do-nothing agent fails every task, its score recorded; and each known hack
(``cheats/*.sh``) is caught — its run fails a gate. Each is one pytest session in a subprocess, as
a user runs it (``pytest -m engineering --mle-agent …``); the cheats run in one session with
``--mle-agent 'cheat:*'`` (a test per task and cheat). The eng image is built once if it is missing
(the verifier's image: ``mlebench sandbox build --profile eng``); without a Docker engine the
module is skipped with the reason.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest

from tests.eng.conftest import eng_image

REPO = Path(__file__).resolve().parents[2]
TASKS = REPO / "engineering"


def shipped_tasks() -> list[str]:
    return sorted(p.name for p in TASKS.iterdir() if (p / "config.yaml").is_file())


def cheats_by_name() -> dict[str, list[str]]:
    found: dict[str, list[str]] = defaultdict(list)
    for task in shipped_tasks():
        for script in sorted((TASKS / task / "cheats").glob("*.sh")):
            found[script.stem].append(task)
    return dict(sorted(found.items()))


@pytest.fixture(scope="module")
def eng_tag() -> str:
    return eng_image()


@pytest.fixture(scope="module")
def data_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One data folder for the three sessions, also across xdist workers (the parent of each
    worker's base folder is the run's): each task × seed is prepared once (file-locked), not once
    per session — memory-bounded-aggregation writes 1.5 GB."""
    folder = tmp_path_factory.getbasetemp().parent / "eng-data"
    folder.mkdir(exist_ok=True)
    return folder


def run_session(
    tmp_path: Path,
    data_dir: Path,
    agent: str,
    tasks: list[str],
    expected: list[tuple[str, str]] | None = None,
) -> list[dict[str, Any]]:
    """``pytest -m engineering --mle-agent AGENT`` over ``tasks`` in Docker; its records."""
    results = tmp_path / "reports" / "results.jsonl"
    command = [
        sys.executable, "-m", "pytest", str(REPO / "benchmarks" / "test_engineering.py"),
        "-m", "engineering", "-k", " or ".join(tasks),
        "-p", "no:randomly", "-p", "no:cacheprovider",
        "--mle-agent", agent, "--mle-sandbox", "docker", "--mle-results", str(results),
        f"--mle-data-dir={data_dir}", "-q", "-n", "2",
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=tmp_path)
    assert results.is_file(), done.stdout[-3000:] + done.stderr[-3000:]
    records = [json.loads(line) for line in results.read_text().splitlines() if line.strip()]
    runs = sorted((r["competition_id"], r["agent"]) for r in records)
    assert runs == sorted(expected or [(task, agent) for task in tasks]), done.stdout[-3000:]
    return records


def test_the_oracle_passes_every_task(eng_tag: str, tmp_path: Path, data_dir: Path) -> None:
    records = run_session(tmp_path, data_dir, "oracle", shipped_tasks())
    for record in records:
        block = record["engineering"]
        assert record["outcome"] == "passed", (record["competition_id"], record["reason"])
        assert block["score"] >= 0.95 and not block["failed_gates"], record["competition_id"]


def test_doing_nothing_fails_every_task_with_its_score_recorded(
    eng_tag: str, tmp_path: Path, data_dir: Path
) -> None:
    records = run_session(tmp_path, data_dir, "noop", shipped_tasks())
    for record in records:
        block = record["engineering"]
        assert record["outcome"] == "failed", record["competition_id"]
        assert block["failed_gates"] and 0.0 <= block["score"] < 0.95, record["competition_id"]


def test_every_cheat_is_caught(eng_tag: str, tmp_path: Path, data_dir: Path) -> None:
    expected = [
        (task, f"cheat:{name}") for name, tasks in cheats_by_name().items() for task in tasks
    ]
    records = run_session(tmp_path, data_dir, "cheat:*", shipped_tasks(), expected)
    for record in records:
        caught = record["engineering"]["failed_gates"]
        assert record["outcome"] == "failed" and caught, (record["competition_id"], record["agent"])
