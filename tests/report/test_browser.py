"""Both report pages in headless Chromium: what a person sees, with a screenshot kept as artifact.

Needs Chromium (Debian/Ubuntu: ``apt-get install -y chromium``); the Allure page also needs
``npx`` and the ``allure`` npm package (fetched by npx, or installed beforehand for offline CI).
Screenshots go to ``reports/artifacts/`` (or ``$MLEBENCH_ARTIFACTS_DIR``); their paths are printed.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from pytest_mlebench.report.allure_site import AllureUnavailable, generate_allure_site
from pytest_mlebench.report.html import write_html
from pytest_mlebench.report.merge import merge_records
from pytest_mlebench.report.summary_json import build_summary
from tests.plugin.conftest import ExampleProject
from tests.report.builders import record

CHROMIUM = next(
    (
        found
        for name in ("chromium", "chromium-browser", "google-chrome")
        if (found := shutil.which(name))
    ),
    None,
)
pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="needs headless Chromium (Debian/Ubuntu: apt-get install -y chromium)"
)
ARTIFACTS = Path(
    os.environ.get(
        "MLEBENCH_ARTIFACTS_DIR", Path(__file__).resolve().parents[2] / "reports" / "artifacts"
    )
)


def browse(page: Path, name: str, profile: Path) -> str:
    """Screenshot ``page`` into the artifacts folder and return its rendered DOM."""
    assert CHROMIUM is not None
    flags = [
        CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run",
        f"--user-data-dir={profile}", "--virtual-time-budget=15000", "--window-size=1280,2000",
    ]  # fmt: skip
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / f"{name}.png"
    shot.unlink(missing_ok=True)
    subprocess.run(
        [*flags, f"--screenshot={shot}", page.as_uri()], capture_output=True, timeout=180
    )
    assert shot.is_file() and shot.stat().st_size > 5000, "no screenshot was taken"
    print(f"screenshot: {shot}")
    done = subprocess.run(
        [*flags, "--dump-dom", page.as_uri()], capture_output=True, text=True, timeout=180
    )
    return done.stdout


def visible_text(dom: str) -> str:
    """Text of the rendered page (scripts and styles dropped, tags removed)."""
    dom = re.sub(r"<(script|style)\b.*?</\1>", " ", dom, flags=re.DOTALL | re.IGNORECASE)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", dom))


def test_html_summary_page(tmp_path: Path) -> None:
    summary = build_summary(
        merge_records(
            [
                record("aerial-cactus", 0, 0.95, percentile=96.0, modality="image"),
                record("aerial-cactus", 1, 0.85, percentile=88.0, modality="image"),
                record("spooky-author", 0, 0.75, percentile=71.0, modality="text"),
                record("spooky-author", 1, 0.2, percentile=5.0, modality="text"),
                record("leaf-classify", 0, None, outcome="failed"),
                record("leaf-classify", 1, 0.6, percentile=48.0),
                record("digits", 0, 0.95, splits=("embedded",), percentile=97.0),
            ]
        )
    )  # fmt: skip
    page = write_html(tmp_path / "site", summary)
    dom = browse(page, "summary-page", tmp_path / "profile")
    text = visible_text(dom)
    for name in ("aerial-cactus", "spooky-author", "leaf-classify", "digits"):
        assert name in text
    for medal in ("gold", "silver", "bronze", "no medal"):
        assert medal in text
    # split totals: lite has 3 competitions, 6 runs; any medal 2/3 and 1/3 -> 50.0 ± 16.7 %
    assert re.search(r"split lite 3 6 0 .*? 50\.0 ± 16\.7 %", text)
    assert re.search(r"split embedded 1 1 0 ", text)
    assert "pass@1 50.0 %" in text and "pass@2 66.7 %" in text
    # the percentile beside the medal, and the category profile with its charts
    assert "0.95 (percentile 96.0)" in text
    assert re.search(r"Category profile .*? modality image 100\.0 92\.0 ", text)
    assert "Any-medal rate (%) per category" in dom and "Mean leaderboard percentile" in dom


def test_html_page_with_engineering_radar_and_trend(tmp_path: Path) -> None:
    from tests.report.test_engineering_reports import DIMS, task_run

    def session(session_id: str, lift: float) -> dict[str, object]:
        runs = []
        for index, category in enumerate(("serving", "data", "code", "packaging")):
            for seed in (0, 1):
                value = min(1.0, 0.45 + 0.1 * index + 0.05 * seed + lift)
                dims = {name: max(0.0, value - 0.1 * k) for k, name in enumerate(DIMS)}
                runs.append(
                    task_run(f"task-{index}", seed, value, category=category, dims=dims,
                             session_id=session_id)
                )  # fmt: skip
        return build_summary(merge_records(runs), created_at=f"2026-11-2{session_id[-1]}T00:00")

    history = [session(f"s{i}", 0.03 * i) for i in range(1, 5)]
    page = write_html(tmp_path / "site", session("s9", 0.2), history[0], history)
    dom = browse(page, "engineering-page", tmp_path / "profile")
    text = visible_text(dom)
    assert "Engineering tasks" in text and "Dimensions — oracle" in text
    assert dom.count('class="chart radar"') == 2 and dom.count('class="chart trend"') == 6
    assert "oracle (baseline)" in text and "Score per dimension (0-100)" in dom
    assert re.search(r"functional 0\.40 \d+\.\d ± \d+\.\d \d+\.\d \+\d+\.\d ↑", text)


def test_allure_page(project: ExampleProject, tmp_path: Path) -> None:
    alluredir = project.root / "allure-results"
    result = project.run(
        "-m", "toys", "-k", "toy-a or toy-b", "--mle-require", "bronze",
        "--alluredir", str(alluredir), "--mle-clean-alluredir",
    )  # fmt: skip
    result.assert_outcomes(passed=1, failed=1)
    try:
        page = generate_allure_site(alluredir, tmp_path / "allure-report")
    except AllureUnavailable as exc:
        pytest.skip(f"Allure's generator is not available here: {str(exc)[:300]}")
    html = page.read_text()
    assert "googletagmanager" not in html
    text = visible_text(browse(page, "allure-page", tmp_path / "profile"))
    assert "MLE-bench" in text
    assert "toys" in text  # parent suite = split
    assert "toy-a: no medal, score 0.5" in text and "toy-b: gold, score 1" in text
    assert re.search(r"Total\s*2", text)
