"""``--mle-description obfuscated``: the agent reads the variant, and the record says which."""

from __future__ import annotations

import json

from tests.plugin.conftest import ExampleProject

READING_AGENT = '''
from pytest_mlebench.sandbox.interface import ExecResult

class DescriptionReader:
    """A named fake agent: keeps the description it was given, submits the sample."""
    name = "description-reader"
    privileged = False

    def run(self, sandbox, task):
        script = (
            "import os, shutil; d = os.environ['DATA_DIR'];"
            "shutil.copy(d + '/description.md', os.environ['LOGS_DIR'] + '/seen.md');"
            "shutil.copy(d + '/sample_submission.csv',"
            " os.environ['SUBMISSION_DIR'] + '/submission.csv')"
        )
        return sandbox.exec([sandbox.python, "-c", script], timeout=task.time_limit,
                            log_path=task.log_path)

def pytest_mlebench_make_agent(name, settings):
    return DescriptionReader() if name == "reader" else None
'''


def test_the_agent_reads_the_obfuscated_description(project: ExampleProject) -> None:
    (project.root / "defs" / "toy-b" / "description_obfuscated.md").write_text(
        "# Task\n\nHidden.\n"
    )
    project.pytester.makeconftest(READING_AGENT)
    result = project.run("-k", "toy-b", "--mle-agent", "reader", "--mle-description", "obfuscated")
    result.assert_outcomes(passed=1)
    (run,) = [json.loads(line) for line in (project.root / "reports" / "results.jsonl").open()]
    assert run["description"] == "obfuscated"
    (seen,) = (project.root / "reports" / "runs" / run["run_id"]).rglob("seen.md")
    assert seen.read_text() == "# Task\n\nHidden.\n"
    prepared = project.root / "data" / "toy-b" / "prepared" / "public" / "description.md"
    assert prepared.read_text().startswith("# toy-b")  # the prepared data is untouched
