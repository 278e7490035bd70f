"""A folder agent's own stop reason (``LOGS_DIR/stop_reason.txt``) reaches the record, the
failed run's reason in the terminal and ``summary.json``."""

from __future__ import annotations

import json

from tests.plugin.conftest import ExampleProject
from tests.plugin.test_plugin import records


def test_the_agents_stop_reason_is_recorded_and_shown(project: ExampleProject) -> None:
    folder = project.root / "agents" / "quitter"
    folder.mkdir(parents=True)
    (folder / "start.sh").write_text(
        "printf 'RepeatedFormatError: no usable command\\033[0m\\nsecond line\\n'"
        ' > "$LOGS_DIR/stop_reason.txt"\n'
    )
    (folder / "config.yaml").write_text("quitter:\n  start: start.sh\n")
    result = project.run(
        "-m", "toys", "-k", "toy-a", "--mle-agent", str(folder), "--mle-require", "valid"
    )
    result.assert_outcomes(failed=1)
    (record,) = records(project)
    assert record["stop_reason"] == "RepeatedFormatError: no usable command[0m"
    assert str(record["reason"]).startswith(
        "agent stopped: RepeatedFormatError: no usable command[0m; no submission"
    )
    result.stdout.fnmatch_lines(["*agent stopped: RepeatedFormatError: no usable command*"])
    summary = json.loads((project.root / "reports" / "summary.json").read_text())
    (run,) = summary["competitions"][0]["runs"]
    assert run["stop_reason"] == record["stop_reason"]
