"""Anytime grading in Docker: the harness's polls of a live sandbox never touch the agent.

The ``improver`` test agent (:mod:`tests.anytime`) writes four states of its submission over
about 2 s while the harness polls the submission every 0.2 s with its own ``exec`` in the agent's
container; the agent must live through the polls to write its last state (the right answers),
and the copies the harness kept must end with it, graded as the final submission is.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.anytime.test_anytime_session import IMPROVER, run_session
from tests.factories import write_competition

pytestmark = pytest.mark.usefixtures("docker_image")


def test_polls_of_a_live_docker_sandbox_keep_copies_and_leave_the_agent_alive(
    tmp_path: Path,
) -> None:
    write_competition(tmp_path / "defs", "toy-anytime", splits={"anytime": ["toy-anytime"]})
    _, [record] = run_session(
        tmp_path,
        "--mle-competitions-dir",
        str(tmp_path / "defs"),
        f"--mle-agent={IMPROVER}",
        "-m",
        "anytime",
        "--mle-submission-poll",
        "0.2s",
        backend="docker",
    )
    assert record["sandbox"] == "docker" and record["exit_code"] == 0
    assert record["grade"]["award"]["medal"] == "gold"  # the agent wrote its last state
    copies = record["anytime"]["copies"]
    assert copies and copies[-1]["medal"] == "gold" and copies[-1]["score"] == 1.0
    assert all(copy["file"].endswith(".csv") for copy in copies)
