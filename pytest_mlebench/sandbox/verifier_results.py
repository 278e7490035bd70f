"""The verifier's results as the host accepts them: sealed with a per-run key, from a verifier
that exited normally.

Before each verifier run the host makes a fresh random key (:func:`new_key`) and hands it to the
verifier's pytest only (Docker: a root-only file the plugin reads and deletes after it has killed
every other process; local backend: a pipe drained before the first test). The plugin
(``mlebench_verify``) writes ``checks.json`` with a ``seal``: the HMAC-SHA256 of the document's
canonical JSON (:func:`canonical`) under that key. :func:`accept_results` takes a document only
when pytest exited with status 0 or 1, the document says the same status, and its seal matches:
a forged file (no key), a file of an earlier run (another key), a verifier killed by a signal or
one that broke (2–5) is :class:`VerifierRejected` — a *failed* run, charged to the agent whose
code ran in the verifier, with the reason :data:`TAMPERED`. Nothing here touches a container or a
process.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import secrets
from collections.abc import Mapping
from typing import Any

from pytest_mlebench.errors import MLEBenchError

KEY_BYTES = 32
SEAL_FIELD = "seal"
NORMAL_STATUSES = (0, 1)  # pytest: every test passed / some failed
TAMPERED = "the verifier was killed or its results were tampered with"
RESULTS_NAME = "checks.json"


class VerifierRejected(MLEBenchError):
    """The verifier's results were not accepted: the run is *failed* (the agent's outcome).

    Attributes:
        reason: Why, in the words the record's reason uses.
        exit_status: The verifier's exit status (``None``: it was still running at its limit).
        wall_s: Seconds the verifier ran.
    """

    def __init__(self, reason: str, exit_status: int | None = None, wall_s: float = 0.0) -> None:
        super().__init__(reason)
        self.reason = reason
        self.exit_status = exit_status
        self.wall_s = wall_s


def new_key() -> bytes:
    """A fresh key for one verifier run (never reused, never written to the host's disk)."""
    return secrets.token_bytes(KEY_BYTES)


def canonical(document: Mapping[str, Any]) -> bytes:
    """The bytes a seal covers: sorted keys, no spaces, ASCII (the plugin encodes the same)."""
    return json.dumps(document, sort_keys=True, separators=(",", ":"), ensure_ascii=True).encode()


def seal_of(document: Mapping[str, Any], key: bytes) -> str:
    """The seal of ``document`` (without its own ``seal`` field) under ``key``."""
    unsealed = {name: value for name, value in document.items() if name != SEAL_FIELD}
    return hmac.new(key, canonical(unsealed), hashlib.sha256).hexdigest()


def accept_results(
    text: str | None, exit_status: int, key: bytes, where: str, wall_s: float = 0.0
) -> dict[str, Any]:
    """The verifier's ``checks.json`` document when it can be trusted, else
    :class:`VerifierRejected` naming what was wrong (``where`` points at the log)."""

    def reject(detail: str) -> VerifierRejected:
        return VerifierRejected(f"{TAMPERED}: {detail} ({where})", exit_status, wall_s)

    if exit_status not in NORMAL_STATUSES:
        raise reject(f"it exited with status {exit_status}, not 0 or 1")
    if text is None:
        raise reject(f"it wrote no {RESULTS_NAME}")
    try:
        document = json.loads(text)
    except ValueError:
        raise reject(f"its {RESULTS_NAME} is not JSON") from None
    if not isinstance(document, dict) or not isinstance(document.get("checks"), dict):
        raise reject(f"its {RESULTS_NAME} has no checks mapping")
    seal = document.get(SEAL_FIELD)
    if not isinstance(seal, str) or not hmac.compare_digest(seal, seal_of(document, key)):
        raise reject(f"its {RESULTS_NAME} does not carry this run's seal")
    if document.get("exit_status") != exit_status:
        raise reject(f"its {RESULTS_NAME} says status {document.get('exit_status')!r}")
    del document[SEAL_FIELD]
    return document


def time_out(limit: float, exit_status: int | None, wall_s: float) -> VerifierRejected:
    """A verifier still running at its limit: the agent's failure (its code was too slow, or
    hung a check the plugin could not interrupt), never an infrastructure error."""
    return VerifierRejected(
        f"the verifier ran past its {limit:.0f} s limit (the agent's code was too slow or hung)",
        exit_status,
        wall_s,
    )
