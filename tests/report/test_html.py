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
                record("beta<x>", 1, outcome="error", graded=False, splits=("lite", "smoke")),
            ]
        )
    )
    page = write_html(tmp_path / "site", summary).read_text()
    assert page.startswith("<!DOCTYPE html>")
    assert page.count("<svg") == 2 and "<script" not in page
    assert not re.search(r"(src|href)=\"(https?:)?//", page)
    assert "beta&lt;x&gt;" in page and "beta<x>" not in page
    assert "split lite" in page and "split smoke" in page and "overall" in page
    assert 'class="medal medal-gold">gold' in page and 'class="medal medal-bronze">bronze' in page
    assert "pass@2 50.0 %" in page
    assert "missing seeds" not in page
