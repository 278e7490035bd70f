"""The reference-similarity bar and what a record discloses about the comparison.

The original benchmark disqualified a run whose code shared 60 % or more with one of the
competition's top public notebooks. The policy keeps that bar as ``similarity.reference_threshold``
(default 0.6; ``--mle-similarity`` sets it with the cross-run threshold), apart from the
cross-run ``similarity.threshold``; a match is a ``similarity/reference`` flag of severity
``high``, which withholds the medal under ``--mle-integrity strict``. The disclosure block says
what was compared, against which bar, and what came of it, so a reader sees that the check ran.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pytest_mlebench.integrity.similarity import code_files
from pytest_mlebench.records.verdict import Flag
from pytest_mlebench.values.integrity_policy import Policy

ORIGINAL_BAR = 0.6


def reference_threshold(policy: Policy) -> float:
    """``similarity.reference_threshold``, or the cross-run threshold for a policy file that
    replaced the similarity section without it."""
    value = policy.similarity.get("reference_threshold", policy.similarity.get("threshold"))
    return float(ORIGINAL_BAR if value is None else value)


def reference_disclosure(references: Path | None, policy: Policy, flags: Sequence[Flag]) -> str:
    """One sentence for the record's disclosure block."""
    if references is None:
        return (
            "not checked: no reference corpus for this competition (fetch it with mlebench "
            "prepare --references)"
        )
    bar = reference_threshold(policy)
    hits = [flag for flag in flags if (flag.kind, flag.rule) == ("similarity", "reference")]
    found = (
        f"{len(hits)} match(es) at or above it ({hits[0].severity}: disqualifying under "
        "--mle-integrity strict)"
        if hits
        else "no match at or above it"
    )
    return (
        f"compared with {len(code_files(references))} reference file(s) in {references}; "
        f"disqualifying at {bar * 100:g} % of a file's code, as the original benchmark; {found}"
    )
