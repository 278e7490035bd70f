"""Anytime grading through the real plugin: copies kept while the agent runs, graded after.

Two sessions in pytest subprocesses, as a user runs them (local sandbox, a 0.1-0.2 s poll):
the ``improver`` test agent on a toy competition pins the curve's shape (an invalid copy, a weak
one, a link that is never copied, the right answers; first valid, first medal, the marks), and
the baseline agent on the smoke tier of the embedded competitions shows the curves and the mark
rates in every report (summary.json, summary.md, the terminal, the HTML page, the run page).
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

from pytest_mlebench.anytime.copies import COPIES, read_copies
from pytest_mlebench.report.run_page.assemble import load_run_page
from tests.factories import bench_command, write_competition

IMPROVER = Path(__file__).with_name("improver")


def run_session(root: Path, *args: str, backend: str = "local") -> tuple[str, list[dict[str, Any]]]:
    command = bench_command(
        root,
        "--mle-sandbox",
        backend,
        "--mle-data-dir",
        str(root / "data"),
        "--mle-results",
        str(root / "reports" / "results.jsonl"),
        "--mle-time-limit",
        "60",
        *args,
    )
    done = subprocess.run(command, cwd=root, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-2000:]
    lines = (root / "reports" / "results.jsonl").read_text().splitlines()
    return done.stdout, [json.loads(line) for line in lines]


def test_an_improving_agent_gets_its_curve_and_a_link_is_never_copied(tmp_path: Path) -> None:
    write_competition(tmp_path / "defs", "toy-anytime", splits={"anytime": ["toy-anytime"]})
    _, [record] = run_session(
        tmp_path,
        "--mle-competitions-dir",
        str(tmp_path / "defs"),
        f"--mle-agent={IMPROVER}",
        "-m",
        "anytime",
        "--mle-submission-poll",
        "0.1s",
        "--mle-marks",
        "1s,1m",
    )
    curve = record["anytime"]
    copies = curve["copies"]
    assert [(c["valid"], c["medal"]) for c in copies] == [
        (False, None),
        (True, None),
        (True, "gold"),
    ]
    assert copies[2]["score"] == record["grade"]["score"] == 1.0
    times = [c["time_used"] for c in copies]
    assert times == sorted(times) and times[2] - times[1] >= 1.0  # the link was waited out
    assert curve["first_valid"] == times[1] and curve["first_medal"] == times[2]
    assert curve["marks"] == [
        {"mark": 1.0, "label": "1s", "medal": None},
        {"mark": 60.0, "label": "1m", "medal": "gold"},
    ]
    run_dir = Path(record["run_dir"])
    kept = read_copies(run_dir)
    assert [e.file for e in kept] == ["0001.csv", "0002.csv", "0003.csv"]
    assert all(not (run_dir / COPIES / e.file).is_symlink() for e in kept)
    assert (run_dir / COPIES / "0001.csv").read_text() == "id,label\n"


def test_a_baseline_session_shows_curves_and_mark_rates_in_every_report(tmp_path: Path) -> None:
    stdout, records = run_session(
        tmp_path, "-m", "smoke", "--mle-agent", "baseline", "--mle-submission-poll", "0.2s"
    )
    assert sorted(r["competition_id"] for r in records) == ["digits", "titanic"]
    for record in records:
        curve = record["anytime"]
        assert curve["copies"], record["competition_id"]
        assert curve["copies"][-1]["score"] == record["grade"]["score"]  # the same grader
        assert [m["label"] for m in curve["marks"]] == ["25%", "50%", "75%", "100%"]
        assert curve["marks"][-1]["medal"] == record["grade"]["award"]["medal"]
        page = load_run_page(Path(record["run_dir"]))
        assert [c.score for c in page.submission_copies] == [c["score"] for c in curve["copies"]]
    reports = tmp_path / "reports"
    summary = json.loads((reports / "summary.json").read_text())
    rates = summary["agents"]["baseline"]["medal_rate_at_marks"]
    assert rates["runs"] == rates["with_curve"] == 2
    final = summary["agents"]["baseline"]["overall"]["metrics"]["any_medal"]["mean"]
    assert rates["marks"][-1]["label"] == "100%" and rates["marks"][-1]["medal_rate"] == final
    for entry in summary["competitions"]:
        assert entry["runs"][0]["anytime"]["points"]
    assert "overall medal rate at marks: 25% " in stdout
    assert "## Medal rate by mark" in (reports / "summary.md").read_text()
    html = (reports / "html" / "index.html").read_text()
    assert html.count('class="chart anytime"') == 2 and 'class="medal-line"' in html
    assert "Medal rate by mark, agent baseline" in html and "<script" not in html
