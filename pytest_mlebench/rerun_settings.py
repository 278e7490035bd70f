"""The settings of running again, a part of the settings table (:mod:`.setting_table`).

``--mle-rerun KINDS --mle-from FILE`` runs again the runs of a saved report that ended in one of
``KINDS`` (an outcome kind or a failure class, :mod:`pytest_mlebench.report.rerun`);
``--mle-retries N`` tries a run again, in the same test, when the harness broke it (failure class
``infra``, :mod:`pytest_mlebench.records.failure_class`), never when the agent failed
(``docs/usage.md``).
"""

from __future__ import annotations

from pytest_mlebench import setting_spec as parsers
from pytest_mlebench.setting_spec import RERUN_KINDS, Setting

RERUN_SETTINGS: tuple[Setting, ...] = (
    Setting(
        "rerun",
        "rerun",
        "run only the (competition, seed) pairs of --mle-from whose run was one of: "
        + ", ".join(RERUN_KINDS)
        + " (comma-separated; the last seven are failure classes, docs/reports.md)",
        "MLEBENCH_RERUN",
        parsers.always(parsers.rerun_kinds),
        metavar="KINDS",
    ),
    Setting(
        "from",
        "rerun_from",
        "summary.json or results file that --mle-rerun selects from",
        "MLEBENCH_FROM",
        parsers.existing_file,
        metavar="FILE",
    ),
    Setting(
        "retries",
        "retries",
        "times a run the harness broke (class infra: the sandbox engine, an image, a node, the "
        "gateway, the grader on the host) is tried again in the same test; a failure of the "
        "agent (crash, timeout, OOM, invalid submission) never is (docs/usage.md)",
        "MLEBENCH_RETRIES",
        parsers.always(parsers.non_negative_int),
        default="0",
        metavar="N",
    ),
)
