"""Hidden checks of flaky-test-determinism (check ids of config.yaml)."""

from __future__ import annotations

import json
import os
import shutil
import statistics
import tempfile
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from conftest import RNG, RUNS, Run
from mlebench_agent_run import python_code, run_agent

NOT_RUN = {"skipped", "xfailed", "xpassed"}
WORDS = ["ash", "bay", "cob", "dew", "elm", "fig", "gum", "hop", "ivy", "jam", "kit", "lea"]


def run_problems(run: Run) -> list[str]:
    """Why ``run`` does not count as a clean pass (empty when it does)."""
    if run.report is None:
        return [f"no report from the probe (exit {run.exit}): {run.output[-300:]}"]
    problems = [
        f"{test} {state}" for test, state in run.outcomes.items() if state in {"failed", "error"}
    ]
    if run.report["ran"] != run.report["order"]:
        problems.append("the tests did not run in the order the verifier asked for")
    if run.exit not in (0,) and not problems:
        problems.append(f"pytest exited with {run.exit}")
    return problems


@pytest.mark.check("F1")
def test_thirty_runs_in_random_order_never_fail(
    runs: list[Run], evidence: Callable[[str], None]
) -> None:
    bad = [(run, run_problems(run)) for run in runs]
    bad = [(run, problems) for run, problems in bad if problems]
    evidence(f"{RUNS - len(bad)}/{RUNS} runs clean (random order, random PYTHONHASHSEED)")
    if bad:
        run, problems = bad[0]
        evidence(f"first failing run, {run.label()}: {'; '.join(problems)[:300]}")
    assert not bad, f"{len(bad)} of {RUNS} runs failed; first: {bad[0][0].label()}: {bad[0][1][:3]}"


def reference_top(texts: list[str], k: int) -> list[str]:
    counts = Counter(word for text in texts for word in text.lower().split())
    return sorted(counts, key=lambda word: (-counts[word], word))[:k]


def tie_cases() -> list[tuple[list[str], int]]:
    cases = []
    for _ in range(8):
        words = RNG.sample(WORDS, RNG.randint(3, 6))
        tokens = [w for w in words for _ in range(RNG.choice([2, 2, 3]))]
        RNG.shuffle(tokens)
        cut = len(tokens) // 2
        cases.append(([" ".join(tokens[:cut]), " ".join(tokens[cut:])], RNG.randint(2, len(words))))
    return cases


SCRIPT = """
import json, sys
from datakit.vocab import top_tokens
cases = json.loads(sys.stdin.read())
print(json.dumps([top_tokens(texts, k) for texts, k in cases]))
"""


def top_tokens_in_a_fresh_process(work: Path, hash_seed: int, cases: list[Any]) -> list[Any]:
    """``top_tokens`` for ``cases`` in ``python3 -S`` (no site: nothing of the workspace is
    imported but datakit) under ``PYTHONHASHSEED=hash_seed``."""
    env = {"PYTHONHASHSEED": str(hash_seed), "PYTHONDONTWRITEBYTECODE": "1"}
    command = python_code(SCRIPT, hash_seeded=True)
    command.insert(1, "-S")
    done = run_agent(
        command, cwd=work, writable=(work,), env=env, stdin=json.dumps(cases), timeout_s=20
    )
    assert done.ok, f"datakit.vocab.top_tokens failed: {done.output[-400:]}"
    return json.loads(done.stdout)


@pytest.mark.check("F2")
def test_top_tokens_ignores_the_hash_seed(evidence: Callable[[str], None]) -> None:
    root = Path(tempfile.mkdtemp(prefix="hash-"))
    root.chmod(0o755)  # the agent's user must reach the copy
    work = root / "work"
    shutil.copytree(os.environ["WORK_DIR"], work, symlinks=True)
    cases = tie_cases()
    wanted = [reference_top(texts, k) for texts, k in cases]
    seeds = [RNG.randrange(1, 2**32 - 1) for _ in range(3)]
    results = [top_tokens_in_a_fresh_process(work, seed, cases) for seed in seeds]
    wrong = sum(got != want for result in results for got, want in zip(result, wanted, strict=True))
    evidence(
        f"{len(cases)} inputs with ties x 3 hash seeds: {wrong} answers off the documented order"
    )
    assert wrong == 0


@pytest.mark.check("R1")
def test_no_test_deleted_skipped_or_xfailed(
    runs: list[Run], baseline: dict[str, Any], evidence: Callable[[str], None]
) -> None:
    missing: set[str] = set()
    not_run: set[str] = set()
    for run in runs:
        if run.report is None:
            continue
        missing |= set(baseline["ids"]) - set(run.report["order"])
        not_run |= {t for t in baseline["ids"] if run.outcomes.get(t) in NOT_RUN}
    reported = [run for run in runs if run.report is not None]
    evidence(
        f"{len(baseline['ids'])} original tests; missing {sorted(missing)[:3]}, "
        f"skipped/xfailed {sorted(not_run)[:3]}"
    )
    assert reported, "no run of the suite reported anything"
    assert not missing and not not_run


@pytest.mark.check("R2")
def test_the_suite_still_catches_planted_bugs(
    mutant_runs: list[Run], evidence: Callable[[str], None]
) -> None:
    survived = [
        run.mutant for run in mutant_runs
        if run.report is not None and run.exit == 0
        and not any(s in {"failed", "error"} for s in run.outcomes.values())
    ]  # fmt: skip
    evidence(
        f"{len(mutant_runs) - len(survived)}/{len(mutant_runs)} planted bugs caught; "
        f"missed {survived}"
    )
    assert not survived, f"the suite passes with these bugs planted in datakit: {survived}"


@pytest.mark.check("E1")
def test_suite_time(
    runs: list[Run], baseline: dict[str, Any], evidence: Callable[[str], None]
) -> None:
    mine = statistics.median(run.duration for run in runs)
    limit = 1.2 * baseline["duration"] + 0.1
    evidence(
        f"median test time {mine:.3f} s vs {baseline['duration']:.3f} s before "
        f"(limit {limit:.3f} s)"
    )
    assert mine <= limit
