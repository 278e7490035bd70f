"""The settings of comparing two sessions' manifests, a part of the settings table
(:mod:`.setting_table`).

``--mle-allow-different`` (``mlebench report --allow-different``) names the manifest keys on which
the baseline and the new session may differ (:mod:`pytest_mlebench.values.manifest_keys`,
``docs/ci.md``); without it a difference on a key that changes results refuses the comparison.
"""

from __future__ import annotations

from pytest_mlebench.setting_spec import Setting
from pytest_mlebench.values.manifest_keys import COMPARED_KEYS, allowed_differences

COMPARISON_SETTINGS: tuple[Setting, ...] = (
    Setting(
        "allow-different",
        "allow_different",
        "compare with the baseline although the two manifests differ on these keys "
        "(repeatable or comma-separated; the output names each one allowed): "
        + ", ".join(COMPARED_KEYS),
        "MLEBENCH_ALLOW_DIFFERENT",
        allowed_differences,
        metavar="KEY[,KEY...]",
        kind="list",
    ),
)
