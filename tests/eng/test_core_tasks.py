"""Every shipped engineering task proves itself through the real plugin, in Docker. For the tasks of
``engineering/`` (the ``core`` split): the oracle passes every task with a task score of at least
0.95 and every gate; the do-nothing agent fails every task and scores 0.0; and each known hack
(``cheats/*.sh``) is caught — its run fails a gate. All of it is one pytest session in a
subprocess, as a task author runs it (``pytest -m engineering --mle-agent 'oracle,noop,cheat:*'``,
a test per task and agent): one session start and one prepare of each task instead of three, and
its two workers kept busy to the end. The eng image is built once if it is missing
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


@pytest.fixture(scope="module")
def eng_tag() -> str:
    return eng_image()


AGENTS = "oracle,noop,cheat:*"
Records = dict[str, list[dict[str, Any]]]
# One worker runs this session once: the file is an xdist group (tests/xdist_groups.py).


@pytest.fixture(scope="module")
def records(eng_tag: str, tmp_path_factory: pytest.TempPathFactory) -> Records:
    """``pytest -m engineering --mle-agent 'oracle,noop,cheat:*'`` over every shipped task in
    Docker, as a task author runs it: one session, a test per task and agent; its records by
    agent (``cheat`` for every cheat)."""
    folder = tmp_path_factory.mktemp("core-tasks")
    results = folder / "reports" / "results.jsonl"
    command = [
        sys.executable, "-m", "pytest", str(REPO / "benchmarks" / "test_engineering.py"),
        "-m", "engineering", "-k", " or ".join(shipped_tasks()),
        "-p", "no:randomly", "-p", "no:cacheprovider",
        "--mle-agent", AGENTS, "--mle-sandbox", "docker", "--mle-results", str(results),
        f"--mle-data-dir={folder / 'data'}", "-q", "-n", "2",
    ]  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=folder)
    tail = done.stdout[-3000:] + done.stderr[-3000:]
    assert results.is_file(), tail
    found = [json.loads(line) for line in results.read_text().splitlines() if line.strip()]
    expected = [
        (task, agent)
        for task in shipped_tasks()
        for agent in ["oracle", "noop", *(f"cheat:{name}" for name in task_cheat_names(task))]
    ]
    assert sorted((r["competition_id"], r["agent"]) for r in found) == sorted(expected), tail
    by_agent: Records = defaultdict(list)
    for record in found:
        by_agent[record["agent"].partition(":")[0]].append(record)
    return by_agent


def task_cheat_names(task: str) -> list[str]:
    return [script.stem for script in sorted((TASKS / task / "cheats").glob("*.sh"))]


def test_the_oracle_passes_every_task(records: Records) -> None:
    assert len(records["oracle"]) == len(shipped_tasks())
    for record in records["oracle"]:
        block = record["engineering"]
        assert record["outcome"] == "passed", (record["competition_id"], record["reason"])
        assert block["score"] >= 0.95 and not block["failed_gates"], record["competition_id"]


def test_doing_nothing_fails_every_task_and_scores_zero(records: Records) -> None:
    """No credit for no work: the do-nothing run is fast, frugal and harmless, and its untouched
    workspace may pass some checks, yet it scores 0.0 on every task (docs/engineering.md)."""
    assert len(records["noop"]) == len(shipped_tasks())
    for record in records["noop"]:
        block = record["engineering"]
        assert record["outcome"] == "failed", record["competition_id"]
        assert block["failed_gates"] and block["score"] == 0.0, (
            record["competition_id"],
            block["dimensions"],
        )


def test_every_cheat_is_caught(records: Records) -> None:
    assert len(records["cheat"]) == sum(len(task_cheat_names(t)) for t in shipped_tasks()) > 0
    for record in records["cheat"]:
        caught = (record.get("engineering") or {}).get("failed_gates")
        assert record["outcome"] == "failed" and caught, (
            record["competition_id"],
            record["agent"],
            record.get("reason"),
        )
