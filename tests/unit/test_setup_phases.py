"""``scripts/phases.sh``: one line as a set-up phase starts and ends, its output in the log."""

from __future__ import annotations

import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
set -euo pipefail
source {phases}
quiet() {{ echo "pip: 300 lines of install output"; say "a note for the user"; }}
broken() {{ echo "apt-get: E: Unable to locate package"; false; echo "not reached"; }}
export -f quiet broken
phase "packages" "about 2 min" quiet
phase "broken" "about 1 min" broken || echo "exit $?"
"""


def run_phases(tmp_path: Path) -> tuple[list[str], str]:
    log = tmp_path / "logs" / "setup.log"
    done = subprocess.run(
        ["bash", "-c", SCRIPT.format(phases=ROOT / "scripts" / "phases.sh")],
        env={"PATH": "/usr/bin:/bin", "MLEBENCH_SETUP_LOG": str(log)},
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return done.stdout.splitlines(), log.read_text()


def test_a_phase_shows_two_lines_and_logs_its_output(tmp_path: Path) -> None:
    lines, log = run_phases(tmp_path)
    assert lines[0].startswith("[setup] packages: starting (first time on a fresh machine: about")
    assert str(tmp_path / "logs" / "setup.log") in lines[0]
    assert lines[1] == "[setup] a note for the user"
    assert lines[2].startswith("[setup] packages: done in ")
    assert not any("pip:" in line for line in lines), "install output stays in the log"
    assert "pip: 300 lines of install output" in log


def test_a_failed_phase_stops_at_its_first_error_and_shows_its_own_lines(tmp_path: Path) -> None:
    lines, log = run_phases(tmp_path)
    failed = lines.index(next(line for line in lines if "broken: FAILED" in line))
    assert "(exit 1)" in lines[failed]
    shown = lines[failed + 1 :]
    assert "apt-get: E: Unable to locate package" in shown
    assert not any("pip:" in line for line in shown), "only the failed phase's lines"
    assert shown[-1] == "exit 1"
    assert "not reached" not in log
