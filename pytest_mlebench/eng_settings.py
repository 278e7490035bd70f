"""The settings of engineering tasks, a part of the settings table (:mod:`.setting_table`).

``--mle-engineering-dir`` adds folders of engineering tasks; ``--mle-require-score`` is the task
score an engineering run must reach besides its gate checks (``docs/engineering.md``).
"""

from __future__ import annotations

from pytest_mlebench import setting_spec as parsers
from pytest_mlebench.setting_spec import Setting

ENGINEERING_SETTINGS: tuple[Setting, ...] = (
    Setting(
        "engineering-dir",
        "engineering_dirs",
        "extra folder of engineering task definitions (repeatable; later folders win on id "
        "clashes; docs/engineering.md)",
        "MLEBENCH_ENGINEERING_DIRS",
        parsers.existing_dirs,
        metavar="DIR",
        kind="list",
    ),
    Setting(
        "require-score",
        "require_score",
        "the task score (0-1) an engineering run must reach to pass, besides its gate checks",
        "MLEBENCH_REQUIRE_SCORE",
        parsers.always(parsers.fraction),
        default="0",
        metavar="SCORE",
    ),
)
