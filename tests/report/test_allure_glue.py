"""What goes into Allure, computed without Allure: labels, attachments, environment, categories."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import cast

from pytest_mlebench.integrity.reporting import FLAG_KINDS
from pytest_mlebench.registry import Competition
from pytest_mlebench.report.allure import (
    DEFAULT_CATEGORIES,
    attachments_for,
    clean_results_dir,
    environment_lines,
    labels_for,
    load_categories,
    medal_tag,
    percentile_parameter,
)
from pytest_mlebench.report.allure_site import strip_analytics
from pytest_mlebench.report.engineering_stats import DIMENSIONS
from tests.report.builders import record

REPO = Path(__file__).resolve().parents[2]


def test_labels_from_split_complexity_competition_and_modality() -> None:
    competition = cast(
        Competition,
        SimpleNamespace(
            id="toy", complexity="high", modality="text", splits=frozenset({"zeta", "alpha"})
        ),
    )
    assert labels_for(competition, ["mlebench"]) == [
        ("parentSuite", "alpha"),
        ("feature", "high complexity"),
        ("story", "toy"),
        ("severity", "critical"),
        ("tag", "text"),
    ]
    assert ("tag", "text") not in labels_for(competition, ["text"])  # the marker tags it already


def test_medal_tag() -> None:
    assert medal_tag(record("a", 0, 0.85)) == "medal:silver"
    assert medal_tag(record("a", 0, 0.1)) == "medal:none"
    assert medal_tag(record("a", 0, outcome="error", graded=False)) == "medal:none"


def test_attachments_head_of_submission_tail_of_log(tmp_path: Path) -> None:
    (tmp_path / "submission.csv").write_text("id,label\n" + "".join(f"r{i},1\n" for i in range(50)))
    (tmp_path / "agent.log").write_text("".join(f"line {i}\n" for i in range(500)))
    found = {a.name: a for a in attachments_for(record("a", 0, 0.85, run_dir=str(tmp_path)))}
    assert list(found) == [
        "grade report",
        "submission.csv (first 20 lines)",
        "agent.log (last 200 lines)",
        "resources",
    ]
    assert json.loads(found["grade report"].body)["silver_medal"] is True
    assert found["submission.csv (first 20 lines)"].body.splitlines()[-1] == "r18,1"
    log = found["agent.log (last 200 lines)"].body.splitlines()
    assert (len(log), log[0], log[-1]) == (200, "line 300", "line 499")
    assert json.loads(found["resources"].body)["sandbox"] == "local"


def test_attachments_of_a_broken_run_still_carry_resources() -> None:
    found = attachments_for(record("a", 0, outcome="error", graded=False))
    assert [a.name for a in found] == ["resources"]


def test_environment_properties_escape_keys_and_values() -> None:
    lines = environment_lines({"b key": "x\ny", "a=b": "c:d", "plain": 3})
    assert lines == ["a\\=b = c:d", "b\\ key = x\\ny", "plain = 3"]


def test_categories_template_in_the_repository_is_the_built_in_one(tmp_path: Path) -> None:
    template = REPO / "reports" / "categories.json"
    assert json.loads(template.read_text()) == DEFAULT_CATEGORIES
    assert [c["name"] for c in DEFAULT_CATEGORIES] == [
        "Timeout", "Infrastructure error", "Invalid submission", "No medal (below the gate)",
        *(f"Engineering: {dimension}" for dimension in DIMENSIONS),
        *(f"Integrity: {kind}" for kind in FLAG_KINDS),
    ]  # fmt: skip
    broken = tmp_path / "categories.json"
    broken.write_text("{not json")
    assert load_categories(broken) == DEFAULT_CATEGORIES
    custom = tmp_path / "custom.json"
    custom.write_text('[{"name": "Mine", "matchedStatuses": ["failed"]}]')
    assert load_categories(custom) == [{"name": "Mine", "matchedStatuses": ["failed"]}]


def test_clean_results_dir_keeps_the_folder(tmp_path: Path) -> None:
    (tmp_path / "a-result.json").write_text("{}")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "x").write_text("")
    assert clean_results_dir(tmp_path) == 2
    assert tmp_path.is_dir() and not list(tmp_path.iterdir())
    assert clean_results_dir(tmp_path / "absent") == 0


def test_strip_analytics_removes_the_loader_and_gtag_only() -> None:
    page = (
        "<head><script>window.a = 1;</script></head><body>"
        '<script src="app.js"></script>'
        '<script async src="https://www.googletagmanager.com/gtag/js?id=G-X"></script>\n'
        "<script>\n window.dataLayer = [];\n function gtag(){dataLayer.push(arguments);}\n"
        " gtag('js', new Date());\n</script>\n<script async>window.ready = true;</script></body>"
    )
    stripped = strip_analytics(page)
    assert "googletagmanager" not in stripped and "gtag" not in stripped
    assert "window.a = 1;" in stripped and 'src="app.js"' in stripped
    assert "window.ready = true;" in stripped


def test_percentile_parameter_only_for_a_run_with_a_percentile() -> None:
    assert percentile_parameter(record("toy", 0, 0.95, percentile=87.25)) == "87.2"
    assert percentile_parameter(record("toy", 0, 0.95)) is None
    assert percentile_parameter(record("toy", 0, None, outcome="failed")) is None
