"""The settings of anytime grading: ``--mle-marks``, ``--mle-submission-copies``,
``--mle-submission-poll`` (appended to :data:`~pytest_mlebench.setting_table.SETTINGS`;
``docs/reports.md`` says what they give)."""

from __future__ import annotations

from pytest_mlebench import setting_spec as parsers
from pytest_mlebench.setting_spec import Setting
from pytest_mlebench.values.checkpoint_every import parse_every
from pytest_mlebench.values.marks import parse_marks

ANYTIME_SETTINGS: tuple[Setting, ...] = (
    Setting(
        "marks",
        "marks",
        "agent times at which each run's best medal so far is read from its graded submission "
        "copies, e.g. 1h,6h,12h; auto: the quarters of the run's time limit. The summary gives "
        "the medal rate at each",
        "MLEBENCH_MARKS",
        parsers.always(parse_marks),
        default="auto",
        metavar="LIST",
    ),
    Setting(
        "submission-copies",
        "submission_copies",
        "the most copies of submission.csv a competition run keeps while it runs (each change "
        "is copied, older copies thinned evenly past N) and grades after it ends; 0: none",
        "MLEBENCH_SUBMISSION_COPIES",
        parsers.always(parsers.non_negative_int),
        default="48",
        metavar="N",
    ),
    Setting(
        "submission-poll",
        "submission_poll",
        "how often the harness looks at the submission's size and time to copy it when it "
        "changed, e.g. 10s (one stat in the sandbox each time); 0 or off: no copies",
        "MLEBENCH_SUBMISSION_POLL",
        parsers.always(parse_every),
        default="10s",
        metavar="DURATION",
    ),
)
