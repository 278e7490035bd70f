"""Unusual use of the validator: many calls, and runs of near-identical submissions (probing).

Works on the validator's call log (``ValidatorService.calls``) and the number of requests
the rate limit refused: both are what the agent *attempted*, so the rate limit does not hide a
probing agent. Pure functions over plain dicts (the record's form of the calls).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pytest_mlebench.records.verdict import Flag
from pytest_mlebench.sandbox.fingerprint import buckets_apart
from pytest_mlebench.values.integrity_policy import Policy

Call = dict[str, Any]


def near_identical_pairs(calls: Sequence[Call], max_buckets: int) -> list[tuple[int, int]]:
    """Indexes of consecutive calls whose files differ, but in at most ``max_buckets`` buckets."""
    pairs = []
    for index in range(1, len(calls)):
        before, after = calls[index - 1], calls[index]
        if not before.get("sketch") or not after.get("sketch"):
            continue
        if before.get("sha256") == after.get("sha256") or before.get("rows") != after.get("rows"):
            continue
        if buckets_apart(before["sketch"], after["sketch"]) <= max_buckets:
            pairs.append((index - 1, index))
    return pairs


def validator_flags(calls: Sequence[Call], refused: int, policy: Policy) -> list[Flag]:
    """Flags for heavy validator use and for probing (see ``docs/integrity.md``)."""
    flags = []
    attempts = len(calls) + refused
    if attempts >= policy.number("validator", "heavy_use_calls"):
        flags.append(
            Flag(
                "validator-use",
                "heavy-use",
                policy.severity("validator", "heavy_use"),
                f"the validator was called {attempts} times",
                {"calls": len(calls), "refused_by_rate_limit": refused},
            )
        )
    pairs = near_identical_pairs(calls, int(policy.number("validator", "near_identical_buckets")))
    if len(pairs) >= policy.number("validator", "probing_pairs"):
        first, last = calls[pairs[0][0]], calls[pairs[-1][1]]
        flags.append(
            Flag(
                "validator-probing",
                "near-identical-submissions",
                policy.severity("validator", "probing"),
                f"{len(pairs)} consecutive validator calls sent submissions that differ in only a "
                "few rows: the validator was probed",
                {
                    "calls": len(calls),
                    "near_identical_pairs": len(pairs),
                    "first": first.get("time"),
                    "last": last.get("time"),
                },
            )
        )
    return flags
