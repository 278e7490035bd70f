"""The teaching card of a failed engineering check, one model for every report that shows it.

A card carries the check's id, the run it failed in, how far it got, why it matters, how to fix
it and the evidence the verifier recorded (the request it sent and the answer it got). The
terminal, ``summary.md`` and the HTML page each render the same :class:`CheckCard`; only the
markup differs (the HTML page sets the id as code, where Markdown uses backticks).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from html import escape
from typing import Any

EVIDENCE_CHARS = 300  # a card stays one readable line; the record keeps all of it


def result_text(result: Any) -> str:
    """A check's result in percent, never rounded up to 100 % when it failed (99.8 %)."""
    if result is None:
        return "-"
    fraction = float(result)
    shown = f"{100 * fraction:.0f} %"
    if fraction < 1.0 and shown == "100 %":
        return f"{math.floor(1000 * fraction) / 10:.1f} %"
    return shown


def evidence_text(evidence: Any) -> str | None:
    """The verifier's evidence as one line (a list joined with ``; ``), at most
    :data:`EVIDENCE_CHARS` characters; ``None`` when it recorded none."""
    if not evidence:
        return None
    text = "; ".join(map(str, evidence)) if isinstance(evidence, list) else str(evidence)
    text = " ".join(text.split())
    return text if len(text) <= EVIDENCE_CHARS else text[: EVIDENCE_CHARS - 1] + "…"


@dataclass(frozen=True)
class CheckCard:
    """One failed check of one run."""

    check_id: str
    run: str  # ``task s0`` or the test id the terminal shows
    result: str
    why: str
    fix: str
    evidence: str | None

    @classmethod
    def of(cls, check: Mapping[str, Any], run: str) -> CheckCard:
        return cls(
            check_id=str(check.get("id")),
            run=run,
            result=result_text(check.get("result")),
            why=str(check.get("why") or "no explanation given"),
            fix=str(check.get("fix_hint") or "see the task's instruction"),
            evidence=evidence_text(check.get("evidence")),
        )

    def tail(self) -> str:
        """Result, why, fix and evidence."""
        seen = f" — evidence: {self.evidence}" if self.evidence else ""
        return f"({self.result}): {self.why} — fix: {self.fix}{seen}"

    def text(self) -> str:
        """Plain text (the terminal): the run first."""
        return f"{self.run} {self.check_id} {self.tail()}"

    def markdown(self) -> str:
        return f"`{self.check_id}` {self.run} {self.tail()}"

    def html(self) -> str:
        """The id as code, the rest escaped (no Markdown backticks on the page)."""
        return f"<code>{escape(self.check_id)}</code> {escape(f'{self.run} {self.tail()}')}"
