"""Network attempts from the egress proxy's account (``--mle-network allow:HOST,...``).

The record's ``egress`` entry (:func:`pytest_mlebench.sandbox.docker.egress.egress_summary`)
counts what the proxy let through and what it refused. A refused attempt is a rule flag
(``rules/network-attempt``, one per host, with its count and first/last time); the allowed hosts
were granted by the user, so they are disclosure facts, never flags.
"""

from __future__ import annotations

from typing import Any

from pytest_mlebench.records.verdict import Flag
from pytest_mlebench.values.integrity_policy import Policy

REASON = "the agent tried to reach a host outside the allow-list; the egress proxy refused it"


def denied_hosts(egress: dict[str, Any]) -> list[dict[str, Any]]:
    """``host``, ``count``, ``first``, ``last`` per refused host (older records: counts only)."""
    attempts = egress.get("denied_attempts")
    if isinstance(attempts, list):
        return [dict(a) for a in attempts if isinstance(a, dict) and a.get("host")]
    counts = egress.get("denied") or {}
    return [
        {"host": host, "count": int(n), "first": None, "last": None} for host, n in counts.items()
    ]


def network_flags(egress: dict[str, Any], policy: Policy) -> list[Flag]:
    """One ``rules/network-attempt`` flag per host the proxy refused."""
    severity = policy.severity("rules", "network_attempt")
    return [
        Flag("rules", "network-attempt", severity, REASON, {"host": a["host"], **_times(a)})
        for a in denied_hosts(egress)
    ]


def _times(attempt: dict[str, Any]) -> dict[str, Any]:
    return {
        "count": int(attempt.get("count", 1)),
        "first": attempt.get("first"),
        "last": attempt.get("last"),
    }


def network_disclosure(egress: dict[str, Any]) -> str:
    """``allow-list of H1,H2; N denied attempts`` (the hosts refused, when there are some)."""
    hosts = ",".join(str(h) for h in egress.get("allowed_hosts") or []) or "no host"
    denied = denied_hosts(egress)
    attempts = sum(int(a.get("count", 1)) for a in denied)
    text = f"allow-list of {hosts}; {attempts} denied attempt{'s' if attempts != 1 else ''}"
    return f"{text} ({', '.join(a['host'] for a in denied[:10])})" if denied else text
