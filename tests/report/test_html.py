"""The self-contained HTML page: tables, inline SVG, escaping, no external resources."""

from __future__ import annotations

import re
from pathlib import Path

from pytest_mlebench.report.html import write_html
from pytest_mlebench.report.merge import merge_records
from pytest_mlebench.report.summary_json import build_summary
from tests.report.builders import record


def test_page_has_tables_charts_and_no_external_resources(tmp_path: Path) -> None:
    summary = build_summary(
        merge_records(
            [
                record("alpha", 0, 0.95),
                record("alpha", 1, 0.75),
                record("beta<x>", 0, 0.4, splits=("lite", "smoke")),
                record(
                    "beta<x>",
                    1,
                    outcome="error",
                    graded=False,
                    splits=("lite", "smoke"),
                    failure_class="agent_crash",  # counts in the rates, unlike infra
                ),
            ]
        )
    )
    page = write_html(tmp_path / "site", summary).read_text()
    assert page.startswith("<!DOCTYPE html>")
    # medal rate per split, score per competition, category profile (medal rate, percentile)
    assert page.count("<svg") == 4 and "<script" not in page
    assert not re.search(r"(src|href)=\"(https?:)?//", page)
    assert "beta&lt;x&gt;" in page and "beta<x>" not in page
    assert "split lite" in page and "split smoke" in page and "overall" in page
    assert 'class="medal medal-gold">gold' in page and 'class="medal medal-bronze">bronze' in page
    assert "pass@2 50.0 %" in page
    assert '<span class="class">agent_crash</span>' in page
    assert "failure classes: medal 2, valid_no_medal 1, agent_crash 1" in page
    assert "missing seeds" not in page


def test_percentiles_and_the_category_profile_are_on_the_page(tmp_path: Path) -> None:
    runs = [
        record("alpha", 0, 0.95, percentile=92.5, modality="image"),
        record("beta", 0, 0.6, percentile=40.0, modality="text", complexity="high"),
    ]
    baseline = build_summary(merge_records([record("alpha", 0, 0.75, percentile=70.0)]))
    page = write_html(tmp_path / "site", build_summary(merge_records(runs)), baseline).read_text()
    assert "<th>mean percentile</th>" in page
    assert "0.95 (percentile 92.5)" in page  # the run's cell
    assert "<td>92.5</td>" in page  # the competition's mean
    assert 'class="percentile"' in page and "mean percentile 66.2" in page  # the diamond
    assert "<h3>Per modality</h3>" in page
    profile = page[page.index('<h2 id="profile">') :]
    assert "comparing the session against the baseline" in profile
    assert "<th>dummy (baseline) medal %</th>" in profile
    assert "<td><b>modality image</b></td><td>–</td>" not in profile
    assert "<title>dummy (baseline), modality image: no runs</title>" in profile
    assert "<title>dummy, modality image: 92.5</title>" in profile
    # 2 charts x 2 series x 6 categories (image, tabular from the baseline, text, high, low, lite)
    assert profile.count('class="series"') == 2 * 2 * 6


def test_each_run_links_to_its_folder_log_submission_and_grade(tmp_path: Path) -> None:
    run_dir = tmp_path / "reports" / "runs" / "alpha-s0"
    summary = build_summary(merge_records([record("alpha", 0, 0.95, run_dir=str(run_dir))]))
    page = write_html(tmp_path / "reports" / "html", summary).read_text()
    for target in ("", "agent.log", "submission.csv", "grade.json"):
        assert f'href="../runs/alpha-s0/{target}"' in page


def test_the_score_chart_has_a_scale_a_key_and_a_colour_per_tick() -> None:
    from pytest_mlebench.report.charts import MEDAL_COLOURS, MEDIAN_COLOUR, score_chart

    entry = build_summary(merge_records([record("alpha", 0, 0.85)]))["competitions"][0]
    svg = score_chart([entry], "scores")
    # thresholds 0.5 (median) to 0.9 (gold), padded by 5 %: the lane's ends and middle
    assert ">0.48</text>" in svg and ">0.7</text>" in svg and ">0.92</text>" in svg
    colours = {MEDAL_COLOURS["silver"], MEDIAN_COLOUR, MEDAL_COLOURS[None]}
    assert len(colours) == 3 and all(
        f'stroke="{c}"' in svg for c in colours - {MEDAL_COLOURS[None]}
    )
    assert f'fill="{MEDAL_COLOURS["silver"]}"' in svg  # the silver run's dot
    assert "median</text>" in svg and "run, no medal" in svg


def test_report_compare_with_html_draws_the_comparison(tmp_path: Path) -> None:
    from pytest_mlebench.cli import main
    from pytest_mlebench.records.run_record import append_record

    base, new = tmp_path / "base.jsonl", tmp_path / "new.jsonl"
    append_record(base, record("alpha", 0, 0.95))
    append_record(new, record("alpha", 0, None))
    args = ["report", "--compare", str(base), str(new), "--html", str(tmp_path / "page")]
    assert main([*args, "--out", str(tmp_path / "out")]) == 1
    page = (tmp_path / "page" / "index.html").read_text()
    assert '<h2 id="comparison">Comparison with the baseline</h2>' in page
    assert 'class="gate-failed"><b>GATE FAILED' in page
