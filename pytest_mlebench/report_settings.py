"""The settings of the optional report extras, a part of the settings table (:mod:`.setting_table`).

``--mle-summarize MODEL`` asks a model, at the session's end, why each failed run failed
(:mod:`pytest_mlebench.failure_summary`; ``docs/reports.md``). Kept beside the table, as the
engineering settings are, so the table stays one module of a readable size.
"""

from __future__ import annotations

from pytest_mlebench import setting_spec as parsers
from pytest_mlebench.setting_spec import Setting
from pytest_mlebench.values.providers import judge_model

REPORT_SETTINGS: tuple[Setting, ...] = (
    Setting(
        "summarize",
        "summarize",
        "model asked, through the LLM gateway at the session's end, for a short summary of why "
        "each failed run failed (off by default; docs/reports.md)",
        "MLEBENCH_SUMMARIZE",
        parsers.always(judge_model),
        metavar="MODEL",
    ),
)
