"""The settings of snapshots and resume: ``--mle-checkpoint-every``, ``--mle-checkpoint-cap``,
``--mle-resume`` (appended to :data:`~pytest_mlebench.setting_table.SETTINGS`)."""

from __future__ import annotations

from pytest_mlebench.setting_spec import Setting, always
from pytest_mlebench.values.checkpoint_every import (
    DEFAULT_EVERY,
    parse_cap,
    parse_every,
    resume_source,
)

CHECKPOINT_SETTINGS: tuple[Setting, ...] = (
    Setting(
        "checkpoint-every",
        "checkpoint_every",
        "snapshot what the agent has made (submission, code/, logs/, working folders; never "
        "its data) into runs/<run-id>/checkpoints/ every DURATION while it runs, e.g. 30m, "
        "10s, 2h; 0 or off: never. A run whose time limit is not longer takes none",
        "MLEBENCH_CHECKPOINT_EVERY",
        always(parse_every),
        default=DEFAULT_EVERY,
        metavar="DURATION",
    ),
    Setting(
        "checkpoint-cap",
        "checkpoint_cap",
        "the most one snapshot copies out of the sandbox, e.g. 2g or 500m (what is left "
        "behind is named in its snapshot.json)",
        "MLEBENCH_CHECKPOINT_CAP",
        always(parse_cap),
        default="2g",
        metavar="SIZE",
    ),
    Setting(
        "resume",
        "resume",
        "resume the runs of a session that died (Ctrl-C, kill, reboot): PATH is its results "
        "file, reports folder, runs/ folder or one run folder; only the runs that started and "
        "never wrote their record are run, each from its last snapshot with the time it had left",
        "MLEBENCH_RESUME",
        resume_source,
        metavar="PATH",
    ),
)
