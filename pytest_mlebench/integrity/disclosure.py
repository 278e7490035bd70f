"""The disclosure block of a record: what the agent could do and what it did, from the evidence.

A published result carries it so a reader knows, without trusting the submitter: was there a
network, were external data or weights fetched (as far as the audit and logs show), how the
validator was used, and that test-set feedback was impossible by construction.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pytest_mlebench.integrity.egress_attempts import network_disclosure
from pytest_mlebench.integrity.run_evidence import Evidence
from pytest_mlebench.records.verdict import Flag

FETCH_RULES = {"network-tool", "model-download", "remote-shell", "external-download"}
TEST_SET_FEEDBACK = (
    "impossible by construction: the answers are never inside the sandbox, and the validator "
    "(outside it) answers valid or invalid with a reason, never a score"
)


def disclosure_block(
    evidence: Evidence,
    calls: Sequence[dict[str, Any]],
    flags: Sequence[Flag],
    *,
    network: str | None,
    isolated: bool,
) -> dict[str, Any]:
    """The disclosure block of one run."""
    fetches = [_what(f) for f in flags if f.rule in FETCH_RULES]
    audit = evidence.process_audit or {}
    return {
        "network": _network(evidence.egress, network),
        "external_data_or_weights": "fetch attempts seen" if fetches else "none seen",
        "fetch_evidence": fetches[:10],
        "validator_calls": len(calls),
        "validator_calls_valid": sum(1 for c in calls if c.get("valid")),
        "validator_refused_by_rate_limit": int(evidence.validator_refused or 0),
        "test_set_feedback": TEST_SET_FEEDBACK,
        "isolation": "isolated sandbox" if isolated else "local process tree (weak isolation)",
        "process_audit": (
            f"{audit.get('samples', 0)} samples, {audit.get('distinct_commands', 0)} distinct "
            f"command lines ({audit.get('source', 'unknown source')})"
            if audit
            else "not available"
        ),
        "run_nonce": evidence.nonce,
    }


def _network(egress: Any, network: str | None) -> str:
    """The network the sandbox had; with an allow-list, what the proxy let through and refused."""
    if isinstance(egress, dict) and egress.get("mode") == "allow":
        return network_disclosure(egress)
    if network == "bridge":
        return "bridge: the sandbox could reach the network"
    return "none: the sandbox had no network"


def _what(flag: Flag) -> str:
    detail = flag.evidence.get("command") or flag.evidence.get("line") or ""
    return f"{flag.rule}: {str(detail)[:200]}"
