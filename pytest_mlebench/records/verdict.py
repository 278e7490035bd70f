"""The integrity verdict a run record carries: flags and the report. Plain values, no I/O.

These are record types (they live with the run record); the checks that make them are in
:mod:`pytest_mlebench.integrity`, which imports them from here.

A :class:`Flag` never changes a score: it says what was seen (``evidence``), how serious it is
(``severity``) and why it matters (``reason``). The :class:`IntegrityReport` holds a run's flags,
its disclosure block and what the policy decided about the medal.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from pytest_mlebench.values.severity import SEVERITIES as SEVERITIES
from pytest_mlebench.values.severity import Severity as Severity

Mode = Literal["report", "strict"]


def severity_rank(severity: str) -> int:
    """``info`` 0 … ``high`` 3 (an unknown name counts as ``high``: never under-report)."""
    return SEVERITIES.index(severity) if severity in SEVERITIES else len(SEVERITIES) - 1


@dataclass(frozen=True)
class Flag:
    """One finding of an integrity check.

    Attributes:
        kind: The check that raised it (``watermark``, ``process``, ``validator-probing``, …);
            reports group by it (an Allure category and tag per kind).
        rule: The policy entry that matched (``editor``, ``pre-made-submission``, …).
        severity: ``info``, ``low``, ``medium`` or ``high``.
        reason: Why this matters, in words.
        evidence: What was seen, as plain JSON values (command line and time, file and lines…).
    """

    kind: str
    rule: str
    severity: Severity
    reason: str
    evidence: dict[str, Any] = field(default_factory=dict)

    def summary(self) -> str:
        """``high process/editor: <reason> (<first evidence item>)`` for one line of text."""
        detail = _evidence_text(self.evidence)
        text = f"{self.severity} {self.kind}/{self.rule}: {self.reason}"
        return f"{text} ({detail})" if detail else text

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Flag:
        return cls(
            kind=str(data["kind"]),
            rule=str(data.get("rule", data["kind"])),
            severity=data.get("severity", "high"),
            reason=str(data.get("reason", "")),
            evidence=dict(data.get("evidence") or {}),
        )


def _evidence_text(evidence: dict[str, Any]) -> str:
    for key in ("command", "host", "file", "files", "runs", "calls", "rows"):
        if key in evidence:
            value = evidence[key]
            text = ", ".join(map(str, value[:3])) if isinstance(value, list) else str(value)
            return f"{key} {text[:160]}"
    return ""


@dataclass(frozen=True)
class IntegrityReport:
    """What the integrity checks found for one run and what the policy made of it.

    Attributes:
        mode: ``report`` (flags shown, nothing withheld) or ``strict``.
        flags: Every finding, most severe first.
        disclosure: What the agent could and did do (network, external fetches, validator use).
        checks: Per check, ``ran`` or why it did not (``skipped: …``).
        medal_withheld: Strict mode took the medal away (a high-severity flag).
        earned_medal: The medal the grade gave, kept when it is withheld.
        evidence_file: The run's ``integrity/evidence.json`` (for ``mlebench integrity``).
        judge: What the optional LLM judge was asked and answered (model, answers, reply,
            prompt file, tokens, cost), ``None`` without ``--mle-judge``.
        clearance: Who cleared a withheld medal, when and why (``by``, ``at``, ``reason``,
            ``medal``: ``mlebench integrity clear``); the medal then counts
            (``medal_withheld`` is false again) and the flags stay. ``None``: never cleared,
            and in reports written before clearances existed.
    """

    mode: Mode = "report"
    flags: tuple[Flag, ...] = ()
    disclosure: dict[str, Any] = field(default_factory=dict)
    checks: dict[str, str] = field(default_factory=dict)
    medal_withheld: bool = False
    earned_medal: str | None = None
    evidence_file: str | None = None
    judge: dict[str, Any] | None = None
    clearance: dict[str, Any] | None = None

    @property
    def worst(self) -> Severity | None:
        """The most severe flag's severity, or ``None`` without flags."""
        if not self.flags:
            return None
        return max((f.severity for f in self.flags), key=severity_rank)

    def at_least(self, severity: str) -> list[Flag]:
        """Flags of ``severity`` or worse."""
        return [f for f in self.flags if severity_rank(f.severity) >= severity_rank(severity)]

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> IntegrityReport:
        return cls(
            mode="strict" if data.get("mode") == "strict" else "report",
            flags=tuple(Flag.from_dict(f) for f in data.get("flags") or ()),
            disclosure=dict(data.get("disclosure") or {}),
            checks={str(k): str(v) for k, v in (data.get("checks") or {}).items()},
            medal_withheld=bool(data.get("medal_withheld", False)),
            earned_medal=data.get("earned_medal"),
            evidence_file=data.get("evidence_file"),
            judge=dict(data["judge"]) if isinstance(data.get("judge"), dict) else None,
            clearance=_mapping(data.get("clearance")),
        )


def _mapping(value: Any) -> dict[str, Any] | None:
    return dict(value) if isinstance(value, dict) else None


def sort_flags(flags: list[Flag]) -> tuple[Flag, ...]:
    """Most severe first, then by kind and rule (a stable order for every report)."""
    return tuple(sorted(flags, key=lambda f: (-severity_rank(f.severity), f.kind, f.rule)))
