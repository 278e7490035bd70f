"""Engineering tasks in every report: summary section, radar, trend, summary.md table, gate."""

from __future__ import annotations

import dataclasses
import json
import math
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.report.baseline_gate import run_gate
from pytest_mlebench.report.engineering_stats import engineering_section
from pytest_mlebench.report.engineering_views import dimension_arrows, dimension_rows
from pytest_mlebench.report.html import render_html
from pytest_mlebench.report.markdown import render_markdown
from pytest_mlebench.report.merge import merge_records
from pytest_mlebench.report.radar import RadarSeries, radar_chart, trend_strip
from pytest_mlebench.report.score_history import dimension_trend, load_history
from pytest_mlebench.report.summary_json import build_summary
from tests.report.builders import record

DIMS = ("functional", "robustness", "efficiency", "explainability", "safety")


def task_run(
    task: str,
    seed: int,
    score: float,
    *,
    outcome: str = "passed",
    agent: str = "oracle",
    category: str = "serving",
    session_id: str = "s1",
    dims: dict[str, float] | None = None,
    failed: list[dict[str, Any]] | None = None,
) -> RunRecord:
    """An engineering task's record with an ``engineering`` block (``score`` in [0, 1])."""
    dimensions = dims or {name: score for name in DIMS}
    block = None
    if outcome not in ("error", "skipped"):
        block = {
            "task": task,
            "score": score,
            "passed": outcome == "passed",
            "dimensions": dimensions,
            "weights": {"functional": 0.4, "robustness": 0.25, "efficiency": 0.15,
                        "explainability": 0.1, "safety": 0.1},
            "stages": None,
            "checks": failed or [],
        }  # fmt: skip
    return record(
        task,
        seed,
        graded=False,
        outcome=outcome,
        agent=agent,
        splits=("core",),
        session_id=session_id,
        kind="engineering",
        category=category,
        engineering=block,
    )


def summary_of(*records: RunRecord) -> dict[str, Any]:
    return build_summary(merge_records(records), created_at="2026-12-01T10:00:00+00:00")


def test_the_section_averages_over_tasks_per_seed_then_over_seeds() -> None:
    runs = [
        task_run("a", 0, 1.0),
        task_run("b", 0, 0.5, outcome="failed", category="data"),
        task_run("a", 1, 0.8),
        task_run("b", 1, 0.3, outcome="failed", category="data"),
        task_run("c", 0, 0.0, outcome="error"),
    ]
    section = engineering_section(runs)
    assert section is not None
    seed_means = [75.0, 55.0]  # (100 + 50) / 2 and (80 + 30) / 2
    assert section["score"]["mean"] == pytest.approx(65.0)
    assert section["score"]["sem"] == pytest.approx(math.sqrt(200.0 / 2))  # sd 14.14 / sqrt 2
    assert section["score"]["n"] == len(seed_means)
    assert section["tasks"] == 3
    assert (section["runs"], section["verified"], section["errors"]) == (5, 4, 1)
    assert (section["passed"], section["pass_rate"]) == (2, 50.0)
    assert section["dimensions"]["safety"]["mean"] == pytest.approx(65.0)
    assert set(section["categories"]) == {"serving", "data"}
    assert section["categories"]["data"]["score"]["mean"] == pytest.approx(40.0)
    assert section["per_task"]["a"]["score"]["mean"] == pytest.approx(90.0)


def test_competition_statistics_leave_the_tasks_out_and_the_tasks_get_their_entries() -> None:
    summary = summary_of(
        record("toy", 0, 0.95, agent="oracle"),
        task_run("a", 0, 0.9, failed=[{"id": "F2", "dimension": "functional", "result": 0.0,
                                       "gate": True, "why": "w", "fix_hint": "f"}]),
    )  # fmt: skip
    agent = summary["agents"]["oracle"]
    assert agent["overall"]["runs"] == 1  # the competition only
    assert agent["engineering"]["runs"] == 1
    entry = next(e for e in summary["competitions"] if e["competition_id"] == "a")
    assert entry["kind"] == "engineering" and entry["category"] == "serving"
    run = entry["runs"][0]
    assert run["task_score"] == pytest.approx(90.0)
    assert run["dimensions"]["functional"] == pytest.approx(90.0)
    assert run["failed_checks"][0]["id"] == "F2"
    competition = next(e for e in summary["competitions"] if e["competition_id"] == "toy")
    assert competition["kind"] == "competition" and "task_score" not in competition["runs"][0]


def test_a_session_without_tasks_has_no_engineering_section() -> None:
    summary = summary_of(record("toy", 0, 0.95))
    assert "engineering" not in summary["agents"]["dummy"]
    assert "Engineering tasks" not in render_markdown(summary)
    assert 'id="engineering"' not in render_html(summary)


def _parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_the_radar_draws_one_polygon_per_series_the_baseline_dashed_with_whiskers() -> None:
    axes = list(DIMS)
    series = [
        RadarSeries("base (baseline)", dict.fromkeys(axes, 50.0), baseline=True),
        RadarSeries("new", dict.fromkeys(axes, 80.0), dict.fromkeys(axes, 5.0)),
    ]
    root = _parse(radar_chart(axes, series, "Score per dimension"))
    ns = "{http://www.w3.org/2000/svg}"
    polygons = [p for p in root.iter(f"{ns}polygon") if p.get("stroke-width") == "2"]
    assert len(polygons) == 2
    assert polygons[0].get("stroke-dasharray") and not polygons[1].get("stroke-dasharray")
    whiskers = [line for line in root.iter(f"{ns}line") if line.get("class") == "sem"]
    assert len(whiskers) == len(axes)  # only the new series has SEMs
    labels = {t.text for t in root.iter(f"{ns}text")}
    assert set(axes) <= labels and {"new", "base (baseline)"} <= labels
    with pytest.raises(ValueError, match="three axes"):
        radar_chart(["a", "b"], series, "too few")


def test_the_trend_strip_marks_each_earlier_summary() -> None:
    root = _parse(trend_strip("functional", [("d1", 40.0), ("d2", None), ("d3", 60.0)]))
    circles = list(root.iter("{http://www.w3.org/2000/svg}circle"))
    assert [c.find("{http://www.w3.org/2000/svg}title").text for c in circles] == [  # type: ignore[union-attr]
        "d1: 40.0",
        "d3: 60.0",
    ]


def _session(session_id: str, bump: float, tasks: int = 3) -> dict[str, Any]:
    runs = []
    for index in range(tasks):
        for seed in (0, 1):
            value = 0.5 + 0.05 * index + 0.01 * seed
            dims = {name: value for name in DIMS}
            dims["functional"] = min(1.0, value + bump)
            runs.append(task_run(f"t{index}", seed, value, session_id=session_id, dims=dims))
    return build_summary(merge_records(runs), created_at=f"2026-12-0{session_id[-1]}T00:00")


def test_arrows_follow_the_paired_test_over_tasks() -> None:
    base, new = _session("s1", 0.0), _session("s2", 0.2)
    arrows = dimension_arrows(base, new, "oracle", "oracle")
    assert arrows["functional"] == "↑"
    assert arrows["safety"] == "→"  # identical runs
    assert dimension_arrows(new, base, "oracle", "oracle")["functional"] == "↓"
    one_task = _session("s3", 0.2, tasks=1)
    assert "functional" not in dimension_arrows(
        _session("s4", 0.0, tasks=1), one_task, "oracle", "oracle"
    )


def test_the_dimension_table_has_weight_baseline_delta_and_the_last_five(tmp_path: Path) -> None:
    history = [_session(f"s{i}", 0.02 * i) for i in range(1, 8)]
    for index, summary in enumerate(history):
        (tmp_path / f"run{index}").mkdir()
        (tmp_path / f"run{index}" / "summary.json").write_text(json.dumps(summary))
    (tmp_path / "notes.json").write_text("{}")
    found = load_history(tmp_path)
    assert len(found.summaries) == 7 and any("notes.json" in n for n in found.passed_over)
    base, new = history[0], _session("s9", 0.2)
    rows = dimension_rows(new, "oracle", base, found.summaries)
    assert rows[0] == ["dimension", "weight", "score", "baseline", "Δ", "last 5"]
    functional = next(row for row in rows if row[0] == "functional")
    assert functional[1] == "0.40"
    assert functional[4].endswith("↑") and functional[4].startswith("+")
    assert len(functional[5].split(" · ")) == 5
    trend = dimension_trend(found.summaries, "oracle")
    assert next(label for label, _ in trend["functional"]).startswith("2026-12-01")


def test_summary_md_and_the_page_show_dimensions_radar_and_teaching_cards() -> None:
    card = {
        "id": "R1",
        "dimension": "robustness",
        "result": 0.0,
        "gate": False,
        "why": "a service must survive a worker crash",
        "fix_hint": "run gunicorn --workers 2",
    }
    summary = summary_of(
        task_run("a", 0, 0.7, failed=[card]),
        task_run("b", 0, 0.9, category="data"),
        task_run("c", 0, 0.4, category="code", outcome="failed"),
    )
    text = render_markdown(summary)
    assert "## Engineering tasks" in text and "### Dimensions — oracle" in text
    assert "| functional | 0.40 |" in text
    assert "- **robustness**" in text and "run gunicorn --workers 2" in text
    page = render_html(summary, baseline=summary)
    assert page.count('class="chart radar"') == 2  # dimensions and three categories
    assert "survive a worker crash" in page


def test_the_paired_gate_takes_the_task_score_fails_a_regression_and_passes_itself() -> None:
    base = _session("s1", 0.0)
    worse_runs = []
    for index in range(6):
        for seed in (0, 1, 2):
            worse_runs.append(task_run(f"t{index}", seed, 0.2, session_id="s2", outcome="failed"))
    better_runs = [task_run(f"t{i}", s, 0.9, session_id="s3") for i in range(6) for s in (0, 1, 2)]
    base_runs = [task_run(f"t{i}", s, 0.9, session_id="s1") for i in range(6) for s in (0, 1, 2)]
    base = build_summary(merge_records(base_runs))
    worse = build_summary(merge_records(worse_runs))
    same = build_summary(merge_records(better_runs))
    failed = run_gate(base, worse, baseline="base")
    assert failed.mode == "paired" and not failed.ok and failed.verdict == "regression"
    passed = run_gate(base, same, baseline="base")
    assert passed.mode == "paired" and passed.ok


def test_allure_gets_a_step_per_check_the_dimensions_and_a_radar() -> None:
    from pytest_mlebench.report.allure import DEFAULT_CATEGORIES, title_for
    from pytest_mlebench.report.allure_engineering import (
        check_steps,
        dimension_parameters,
        run_radar,
    )

    checks = [
        {"id": "F1", "dimension": "functional", "gate": True, "result": 1.0, "evidence": ["ok"]},
        {"id": "R1", "dimension": "robustness", "gate": False, "result": 0.5,
         "why": "workers die", "fix_hint": "restart them"},
    ]  # fmt: skip
    run = task_run("a", 0, 0.8, outcome="failed", failed=checks)
    steps = check_steps(run)
    assert [s.title for s in steps] == ["F1 [functional, gate] 100 %", "R1 [robustness] 50 %"]
    assert steps[0].passed and steps[0].evidence == "ok"
    assert not steps[1].passed and steps[1].message == "why: workers die; fix: restart them"
    assert dimension_parameters(run)[0] == ("task_score", "80.0")
    assert len(dimension_parameters(run)) == 6
    assert run_radar(run) is not None and _parse(run_radar(run) or "").tag.endswith("svg")
    assert title_for(run, "a-s0") == "a-s0: failed, score 80.0"
    names = [c["name"] for c in DEFAULT_CATEGORIES]
    assert "Engineering: functional" in names
    category = next(c for c in DEFAULT_CATEGORIES if c["name"] == "Engineering: functional")
    import re

    assert re.match(
        category["messageRegex"],
        "gate check(s) failed: F2 [functional], R1 [robustness] (score 0.1)",
    )
    assert not re.match(
        category["messageRegex"], "gate check(s) failed: R1 [robustness] (score 0.1)"
    )
    assert run_radar(task_run("b", 0, 0.0, outcome="error")) is None


def test_the_terminal_shows_the_task_table_and_the_cards_grouped_by_dimension() -> None:
    from pytest_mlebench.report.engineering_terminal import task_run_line, task_table

    card = {"id": "S1", "dimension": "safety", "result": 0.0, "gate": False,
            "why": "a secret in the code leaks", "fix_hint": "read JWT_SECRET"}  # fmt: skip
    gate = {"id": "F1", "dimension": "functional", "result": 0.0, "gate": True,
            "why": "the service must answer", "fix_hint": "bind $PORT"}  # fmt: skip
    runs = [
        task_run("jwt", 0, 0.62, outcome="failed", failed=[card, gate]),
        task_run("jwt", 1, 1.0),
    ]
    lines = task_table(runs, lambda r: f"{r.competition_id}-s{r.seed}")
    assert lines[0] == "engineering tasks:"
    assert "s0 failed   62.0" in lines[1] and "passed 1/2" in lines[1]
    assert "2 tasks" not in lines[2] and "task score 81.0" in lines[2]
    at = lines.index("failed checks (why, and how to fix):")
    assert lines[at + 1] == "  functional:" and "bind $PORT" in lines[at + 2]
    assert lines[at + 3] == "  safety:" and "read JWT_SECRET" in lines[at + 4]
    line = task_run_line(runs[0], "jwt-s0")
    assert line.startswith("jwt-s0") and "task score 62.0" in line


def test_doing_nothing_draws_no_spike_on_the_radar(tmp_path: Path) -> None:
    """The do-nothing run scored as the harness scores it (every harness check at full marks:
    it was fast, frugal and harmless) sits at the centre on every axis; a rejected verifier's run
    (no check passed) counts in the pass rate and the mean as a failed run of the agent's."""
    from pytest_mlebench.eng.scoring import CheckResult, engineering_block, score_run
    from pytest_mlebench.eng.task import load_task
    from tests.eng.task_folders import write_task

    task = load_task(write_task(tmp_path))
    harness = [
        CheckResult("H-wall", "efficiency", 1, False, 1.0),
        CheckResult("H-audit", "safety", 1, False, 1.0),
    ]
    runs = []
    for seed, document in enumerate([{"checks": {"F1": {"result": 0.0}}}, {"checks": {}}]):
        score = score_run(task, document, harness)
        block = engineering_block(task, score, False, {})
        run = task_run(task.id, seed, score.score, outcome="failed", agent="noop")
        runs.append(dataclasses.replace(run, engineering=block))
    section = engineering_section(runs)
    assert section is not None and section["score"]["mean"] == 0.0
    assert {name: stats["mean"] for name, stats in section["dimensions"].items()} == dict.fromkeys(
        DIMS, 0.0
    ) | {"explainability": None}  # the tiny task has no explainability check
    assert (section["verified"], section["pass_rate"]) == (2, 0.0)


def test_cards_carry_the_evidence_and_never_round_a_failure_up_to_100() -> None:
    from pytest_mlebench.report.engineering_terminal import task_table

    almost = {"id": "F2", "dimension": "functional", "result": 0.998, "gate": False,
              "why": "answers must match", "fix_hint": "load the model once",
              "evidence": ["POST /predict 3 rows -> 500", "999 of 1000 rows right"]}  # fmt: skip
    summary = summary_of(task_run("svc", 0, 0.9, outcome="failed", failed=[almost]))
    text = render_markdown(summary)
    expected = (
        "`F2` svc s0 (99.8 %): answers must match — fix: load the model once — evidence: "
        "POST /predict 3 rows -> 500; 999 of 1000 rows right"
    )
    assert f"  - {expected}" in text
    assert "(100 %)" not in text
    page = render_html(summary)
    assert "<code>F2</code> svc s0 (99.8 %)" in page
    assert "POST /predict 3 rows -&gt; 500" in page
    cards = page[page.index('<ul class="cards">') :]
    assert "`" not in cards[: cards.index("</ul></li></ul>")]
    lines = task_table([task_run("svc", 0, 0.9, outcome="failed", failed=[almost])], lambda r: "x")
    assert any("(99.8 %)" in line and "evidence: POST /predict" in line for line in lines)
