"""Too good to be true: the ``too-good`` check, strict mode's withheld medal, and its clearance.

The table tests pin the rule on plain numbers; the plugin test runs a named adversary
(``agents/leaked``: it writes the hidden answers with a script) through the real plugin on a toy
competition whose leaderboard's best is 0.9, then clears the medal with ``mlebench integrity
clear`` and rebuilds the reports with ``mlebench report`` from the results file.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pytest_mlebench.cli import main
from pytest_mlebench.integrity.reporting import allure_tags
from pytest_mlebench.integrity.too_good import ScoreClaim, too_good_flag
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.report.run_page import load_run_page, render_run_page
from pytest_mlebench.values.integrity_policy import load_policy
from tests.factories import write_competition
from tests.integrity.conftest import AGENTS, ExampleProject, flags_of, records_of
from tests.plugin.conftest import PERFECT_PREPARE

POLICY = load_policy()


@pytest.mark.parametrize(
    ("score", "best", "perfect", "lower", "rule"),
    [
        (0.95, 0.9, 1.0, False, "beats-leaderboard"),
        (0.9, 0.9, 1.0, False, None),  # equal to the best: not flagged
        (0.9000001, 0.9, 1.0, False, None),  # equal once rounded as for medals
        (0.89, 0.9, 1.0, False, None),
        (1.0, 0.9, 1.0, False, "perfect-score"),
        (1.0, 1.0, 1.0, False, None),  # the board reached it too
        (0.1, 0.2, 0.0, True, "beats-leaderboard"),  # an error metric: lower is better
        (0.3, 0.2, 0.0, True, None),
        (0.0, 0.2, 0.0, True, "perfect-score"),
        (1.5, 1.2, None, False, "beats-leaderboard"),  # no perfect value declared
    ],
)
def test_the_rule_on_plain_numbers(
    score: float, best: float, perfect: float | None, lower: bool, rule: str | None
) -> None:
    flag = too_good_flag(ScoreClaim(score, best, perfect, lower), POLICY)
    assert (flag.rule if flag else None) == rule
    if flag is not None:
        assert (flag.kind, flag.severity) == ("score", "high")
        assert flag.evidence["board_best"] == best
        assert f"{best:g}" in flag.reason


@pytest.fixture
def leaked(project: ExampleProject) -> ExampleProject:
    board = "score\n0.9\n0.8\n0.7\n0.6\n0.5\n0.45\n0.4\n0.35\n0.3\n0.2\n"
    write_competition(
        project.root / "defs", "toy-leaked", prepare=PERFECT_PREPARE, leaderboard=board
    )
    return project


def test_a_leaked_score_is_withheld_under_strict_then_cleared_and_counted(
    leaked: ExampleProject, capsys: pytest.CaptureFixture[str]
) -> None:
    agent = f"--mle-agent={AGENTS / 'leaked'}"
    result = leaked.run("-k", "toy-leaked", agent, "--mle-integrity", "strict")
    result.assert_outcomes(passed=1)
    (record,) = records_of(leaked.root)
    assert record["grade"]["score"] == 1.0
    (flag,) = [f for f in flags_of(record) if f["severity"] == "high"]
    assert (flag["kind"], flag["rule"]) == ("score", "perfect-score")
    assert flag["evidence"]["board_best"] == 0.9
    assert record["integrity"]["checks"]["too-good"] == "ran"
    assert record["integrity"]["medal_withheld"] is True
    result.stdout.fnmatch_lines(
        ["*toy-leaked*medal none*WITHHELD (earned gold)*TOO GOOD (board best 0.9)*"]
    )
    reports = leaked.root / "reports"
    summary = json.loads((reports / "summary.json").read_text())
    assert summary["integrity"]["too_good"] == 1
    assert "| 1 | 0.9 | withheld (earned gold) | - |" in (reports / "summary.md").read_text()

    results = str(reports / "results.jsonl")
    run_id = record["run_id"]
    assert main(["integrity", "clear", run_id, "--results", results]) == 1
    assert "needs a reason" in capsys.readouterr().err
    assert main(["integrity", "clear", "no-such-run", "--reason", "x", "--results", results]) == 1
    assert "no run 'no-such-run'" in capsys.readouterr().err
    why = "the answers leaked on purpose in this test"
    assert main(["integrity", "clear", run_id[:8], "--reason", why, "--by", "ann",
                 "--results", results]) == 0  # fmt: skip
    assert "medal gold cleared by ann" in capsys.readouterr().out
    assert main(["integrity", "clear", run_id, "--reason", why, "--results", results]) == 1
    assert "cleared already by ann" in capsys.readouterr().err

    (cleared,) = records_of(leaked.root)
    assert cleared["integrity"]["clearance"]["reason"] == why
    assert cleared["integrity"]["medal_withheld"] is False
    assert cleared["integrity"]["flags"] == record["integrity"]["flags"]
    run_dir = Path(cleared["run_dir"])
    assert (
        json.loads((run_dir / "record.json").read_text())["integrity"]["clearance"]["by"] == "ann"
    )
    assert json.loads((run_dir / "integrity" / "clearance.json").read_text())["medal"] == "gold"

    page = render_run_page(load_run_page(run_dir))
    assert "too good to be true" in page and "cleared by ann" in page
    tags = allure_tags(RunRecord.from_dict(cleared))
    assert {"integrity:score", "integrity:cleared"} <= set(tags)
    assert "integrity:withheld" not in tags

    defs = str(leaked.root / "defs")
    assert (
        main(["integrity", str(run_dir), "--integrity", "strict", "--competitions-dir", defs]) == 0
    )
    assert "medal gold cleared by ann" in capsys.readouterr().out  # a recheck keeps it

    out = leaked.root / "rebuilt"
    assert main(["report", results, "--out", str(out), "--html", str(out / "html")]) == 0
    at = cleared["integrity"]["clearance"]["at"]
    rebuilt = json.loads((out / "summary.json").read_text())
    assert rebuilt["integrity"]["medals_cleared"] == 1
    assert rebuilt["integrity"]["medals_withheld"] == 0
    (entry,) = [e for e in rebuilt["competitions"] if e["competition_id"] == "toy-leaked"]
    assert entry["runs"][0]["medal"] == "gold"
    assert entry["runs"][0]["integrity"]["clearance"]["by"] == "ann"
    assert f"| gold | ann at {at}: {why} |" in (out / "summary.md").read_text()
    page = next((out / "html").rglob("*.html")).read_text()
    assert f"TOO GOOD (board best 0.9) CLEARED by ann at {at}: {why}" in page


def test_nothing_to_clear_is_said_plainly(
    project: ExampleProject, capsys: pytest.CaptureFixture[str]
) -> None:
    project.run("-k", "toy-a").assert_outcomes(passed=1)
    (record,) = records_of(project.root)
    results = str(project.root / "reports" / "results.jsonl")
    assert (
        main(["integrity", "clear", record["run_id"], "--reason", "x", "--results", results]) == 1
    )
    assert "no medal is withheld" in capsys.readouterr().err
