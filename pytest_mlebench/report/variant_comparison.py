"""Which description variant each side of a comparison read, said where the comparison is shown.

A session reads one description variant (``--mle-description``; each record and
``summary.json``'s ``description`` say which). Comparing a session on the obfuscated
descriptions with one on the standard descriptions, run for run by (agent, competition, seed),
is the contamination control of the original benchmark: a medal that depends on the competition's
name is lost when the name is. The paired statistics of the gate
(:mod:`~pytest_mlebench.report.paired_comparison`) are the same; this module only names the
variants so the output says what was compared. Pure.
"""

from __future__ import annotations

from typing import Any

STANDARD = "standard"


def summary_variants(summary: dict[str, Any]) -> list[str]:
    """The variants a summary's runs read (``standard`` for summaries written before variants)."""
    variants = summary.get("description")
    return list(variants) if variants else [STANDARD]


def variant_note(base: dict[str, Any], new: dict[str, Any]) -> str | None:
    """``description variant: standard (baseline) -> obfuscated (this session) ...`` when the
    two sides read different variants, else ``None``."""
    before, after = summary_variants(base), summary_variants(new)
    if before == after:
        return None
    return (
        f"description variant: {'+'.join(before)} (baseline) -> {'+'.join(after)} (this "
        "session): the paired numbers measure the effect of the variant on the same runs"
    )
