"""Help texts say what the command does (not what a pytest option of the same idea does)."""

from __future__ import annotations

import re

import pytest

from pytest_mlebench.cli import main


def test_report_compare_help_describes_two_files_and_the_exit_code(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as info:
        main(["report", "--help"])
    assert info.value.code == 0
    text = " ".join(capsys.readouterr().out.split())
    compare = text[text.index("--compare BASE NEW ") :]
    assert re.match(r"--compare BASE NEW compare NEW with the baseline BASE .* exit 1", compare)
    # --max-drop is the same setting as the pytest option (one table): same help, same env var
    assert "--max-drop POINTS percentage points the any-medal or valid-submission rate" in text
    assert "[env MLEBENCH_MAX_DROP]" in text
    # (--session and --list-sessions pick sessions; the gate's own help speaks of files)
    assert "session" not in compare.split(" --")[0]
    assert "--mle-" not in text
