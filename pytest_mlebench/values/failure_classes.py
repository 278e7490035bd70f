"""The names of the classes a run ends in (``--mle-rerun`` takes them too).

What each class means, and which one a run gets, is decided in
:mod:`pytest_mlebench.records.failure_class`; the names live here so the settings can offer
them without loading the record layer.
"""

from __future__ import annotations

from typing import Literal, get_args

FailureClass = Literal[
    "medal",
    "valid_no_medal",
    "invalid_submission",
    "no_submission",
    "timeout",
    "oom",
    "agent_crash",
    "infra",
]
FAILURE_CLASSES: tuple[FailureClass, ...] = get_args(FailureClass)
