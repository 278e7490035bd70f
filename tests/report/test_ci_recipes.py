"""The CI recipes of docs/ci.md, run as written on the toy project.

Every command line below must appear verbatim in docs/ci.md (both recipes, where both use it);
the test runs them with bash in the example project, in the order a CI job does: the main branch
without a baseline, then pull requests gated against main's ``summary.json``. The environment
stands in for the CI's: the agent and sandbox come from the ``MLEBENCH_*`` variables the recipes
set, the competition and data folders point at the toy project, ``PYTEST_ADDOPTS`` narrows
``-m embedded`` to the toy competitions, and ``GITHUB_STEP_SUMMARY`` is a file of the test.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

from tests.plugin.conftest import ExampleProject

DOC = Path(__file__).resolve().parents[2] / "docs" / "ci.md"
SELECT_BASELINE = (
    "if [ -f baseline/summary.json ]; then export MLEBENCH_BASELINE=baseline/summary.json; fi"
)
BENCHMARK = "pytest -m embedded -n 2 --mle-seeds 3 --alluredir reports/allure-results"
HTML_PAGE = "mlebench report reports/summary.json --html reports/html"
ALLURE_PAGE = "mlebench report --allure reports/allure-report --alluredir reports/allure-results"
GATE_AFTERWARDS = "mlebench report --compare baseline/summary.json reports/summary.json"
IN_BOTH_RECIPES = (SELECT_BASELINE, BENCHMARK, HTML_PAGE)


def recipes() -> dict[str, str]:
    """The YAML blocks of docs/ci.md by the heading they stand under."""
    text = DOC.read_text()
    found = {}
    for name in ("GitHub Actions", "GitLab CI"):
        section = text[text.index(f"## {name}") :]
        start = section.index("```yaml") + len("```yaml")
        found[name] = section[start : section.index("```", start)]
    return found


def test_the_commands_tested_here_are_the_recipes_commands() -> None:
    for name, recipe in recipes().items():
        for command in IN_BOTH_RECIPES:
            assert command in recipe, f"{name} recipe lacks: {command}"
    assert ALLURE_PAGE in recipes()["GitHub Actions"]
    assert ALLURE_PAGE.replace("reports/allure-report ", "reports/allure-report\n") in (
        DOC.read_text()
    )  # the GitLab variant, wrapped in the text
    assert GATE_AFTERWARDS in DOC.read_text()
    assert "python -m tests.report.gate_simulation" in DOC.read_text()


class Job:
    """A CI job's shell in the example project: ``run`` executes recipe lines with bash."""

    def __init__(self, project: ExampleProject, step_summary: Path) -> None:
        self.root = project.root
        bin_dir = str(Path(sys.executable).parent)
        self.env = {
            **os.environ,
            "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""),
            "MLEBENCH_AGENT": "dummy",
            "MLEBENCH_SANDBOX": "local",
            "MLEBENCH_COMPETITIONS_DIRS": str(project.root / "defs"),
            "MLEBENCH_DATA_DIR": str(project.root / "data"),
            "PYTEST_ADDOPTS": "-k toy -p no:randomly",
            "GITHUB_STEP_SUMMARY": str(step_summary),
        }
        for name in ("MLEBENCH_BASELINE", "MLEBENCH_GATE", "MLEBENCH_MAX_DROP"):
            self.env.pop(name, None)

    def run(self, *lines: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            ["bash", "-c", "\n".join(lines)],
            cwd=self.root,
            env=self.env,
            capture_output=True,
            text=True,
            timeout=600,
        )

    def summary_md(self) -> str:
        return (self.root / "reports" / "summary.md").read_text()

    def fresh_checkout(self) -> None:
        shutil.rmtree(self.root / "reports", ignore_errors=True)


def regress(summary: dict[str, Any], competition_id: str, percentile: float) -> dict[str, Any]:
    """The baseline as if the agent had been better on one competition (every seed)."""
    for entry in summary["competitions"]:
        if entry["competition_id"] == competition_id:
            entry["mean_percentile"] = percentile
            for run in entry["runs"]:
                run["percentile"] = percentile
    return summary


def test_main_then_pull_requests_as_the_recipes_run_them(
    project: ExampleProject, tmp_path: Path
) -> None:
    step_summary = tmp_path / "step-summary.md"
    job = Job(project, step_summary)

    # main branch: no baseline yet; the session writes the artifact of the next runs
    main = job.run(SELECT_BASELINE, BENCHMARK)
    assert main.returncode == 0, main.stdout[-3000:]
    assert "gate against" not in main.stdout
    markdown = job.summary_md()
    assert "## Gate" not in markdown and "## Overall" in markdown
    assert step_summary.read_text() == markdown  # appended to the job summary by the product
    assert (job.root / "reports" / "allure-results").is_dir()
    (job.root / "baseline").mkdir()
    shutil.copy(job.root / "reports" / "summary.json", job.root / "baseline" / "summary.json")

    # a pull request that changes nothing: paired gate, no significant change
    job.fresh_checkout()
    same = job.run(SELECT_BASELINE, BENCHMARK)
    assert same.returncode == 0, same.stdout[-3000:]
    assert "gate passed: no significant change" in same.stdout
    markdown = job.summary_md()
    assert "## Gate: passed — no significant change" in markdown
    assert "paired gate against `baseline/summary.json`" in markdown
    assert "| dummy | 9 on 3 competitions | +0.0 points (95 % CI +0.0 to +0.0) |" in markdown
    assert step_summary.read_text().count("# MLE-bench summary") == 2
    page = job.run(HTML_PAGE)
    assert page.returncode == 0, page.stdout + page.stderr
    html = (job.root / "reports" / "html" / "index.html").read_text()
    assert "Category profile" in html and "mean percentile" in html
    assert job.summary_md() == markdown  # rendering a summary.json leaves summary.md alone

    # a pull request that broke one competition on every seed: regression, the job fails
    base = json.loads((job.root / "baseline" / "summary.json").read_text())
    (job.root / "baseline" / "summary.json").write_text(json.dumps(regress(base, "toy-a", 95.0)))
    job.fresh_checkout()
    broken = job.run(SELECT_BASELINE, BENCHMARK)
    assert broken.returncode == 1, broken.stdout[-3000:]
    assert "GATE FAILED: regression: competition(s) dropped beyond the seed noise: toy-a" in (
        broken.stdout
    )
    markdown = job.summary_md()
    assert "## Gate: FAILED — regression" in markdown
    assert "toy-a -60.0 points over 3 seed(s)" in markdown

    # the same decision after the fact, from the files
    after = job.run(GATE_AFTERWARDS)
    assert after.returncode == 1
    assert "GATE FAILED: regression" in after.stdout
