"""A run's page in headless Chromium: the screenshot shows the steps (their coloured borders and
text are drawn, not just present in the HTML), and markup the agent wrote does not run.

Needs Chromium (Debian/Ubuntu: ``apt-get install -y chromium``); the screenshots go where
``tests/report/test_browser.py`` puts its own (``reports/artifacts/``).
"""

from __future__ import annotations

import shutil
from collections import Counter
from html import unescape
from pathlib import Path

import pytest

from pytest_mlebench.report.run_page import write_run_page
from tests.report.test_browser import ARTIFACTS, CHROMIUM, browse, visible_text
from tests.report.test_run_page import HOSTILE, RUNS, hostile_run

pytestmark = pytest.mark.skipif(
    CHROMIUM is None, reason="needs headless Chromium (Debian/Ubuntu: apt-get install -y chromium)"
)
LLM_BORDER = (0x82, 0x50, 0xDF)  # .k-llm in html_page.STYLE
COMMAND_BORDER = (0x1A, 0x7F, 0x37)  # .k-command


def screenshot_colours(path: Path) -> Counter[tuple[int, int, int]]:
    """How many pixels of each colour the screenshot has (Pillow, of the ``embedded`` extra)."""
    image = pytest.importorskip("PIL.Image")
    with image.open(path) as shot:
        return Counter({colour: n for n, colour in shot.convert("RGB").getcolors(1 << 24)})


def test_the_run_page_shows_its_steps_in_a_browser(tmp_path: Path) -> None:
    run = tmp_path / "mini-swe"
    shutil.copytree(RUNS / "mini-swe", run)
    page = write_run_page(run)
    dom = browse(page, "run-page", tmp_path / "profile")
    text = unescape(visible_text(dom))
    assert "Run titanic-s0-edbe7ebe" in text and "7 steps: 3 llm, 3 command, 1 validation" in text
    assert "cat > solve.py <<'PY'" in text and "validator: valid" in text
    assert "medal silver" in text and "no findings" in text
    colours = screenshot_colours(ARTIFACTS / "run-page.png")
    borders = {colour: colours[colour] for colour in (LLM_BORDER, COMMAND_BORDER)}
    assert all(count > 200 for count in borders.values()), borders  # the steps' borders drawn
    inked = sum(colours.values()) - colours[(255, 255, 255)]
    assert inked > 0.02 * sum(colours.values())  # text and tables drawn, not a blank page


def test_markup_the_agent_wrote_does_not_run(tmp_path: Path) -> None:
    page = write_run_page(hostile_run(tmp_path))
    dom = browse(page, "run-page-hostile", tmp_path / "profile")
    assert "<title>Run titanic-s0-edbe7ebe</title>" in dom  # the script did not set it
    assert "pwned" not in dom.split("<body", 1)[0]
    assert "<img" not in dom  # the img tag is text, never an element
    assert unescape(visible_text(dom)).count(HOSTILE) >= 2  # shown as text
