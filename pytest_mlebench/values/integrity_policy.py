"""``--mle-integrity-policy``: the integrity policy (patterns, severities, thresholds), from YAML.

The default ships beside this module (``default_integrity_policy.yaml``);
``--mle-integrity-policy FILE`` replaces whole sections of it. A broken file is a
:class:`~pytest_mlebench.errors.ConfigError` naming the file and the entry to fix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from pytest_mlebench.errors import ConfigError
from pytest_mlebench.values.severity import SEVERITIES, Severity
from pytest_mlebench.yaml_text import load_yaml

DEFAULT_POLICY = Path(__file__).with_name("default_integrity_policy.yaml")
SECTIONS = (
    "withhold_at",
    "processes",
    "logs",
    "watermark",
    "rules",
    "validator",
    "similarity",
    "judge",
    "score",
)


@dataclass(frozen=True)
class PatternRule:
    """A pattern that raises a flag where it matches (a command line or a log line)."""

    id: str
    pattern: re.Pattern[str]
    severity: Severity
    reason: str


@dataclass(frozen=True)
class Policy:
    """A resolved policy; ``source`` names the file(s) it came from."""

    withhold_at: Severity
    processes: tuple[PatternRule, ...]
    logs: tuple[PatternRule, ...]
    watermark: dict[str, Any]
    rules: dict[str, Any]
    validator: dict[str, Any]
    similarity: dict[str, Any]
    source: str
    judge: dict[str, Any] = field(default_factory=dict)
    score: dict[str, Any] = field(default_factory=dict)

    def severity(self, section: str, key: str) -> Severity:
        value: Severity = getattr(self, section)[key]
        return value

    def number(self, section: str, key: str) -> float:
        return float(getattr(self, section)[key])

    def with_threshold(self, threshold: float | None) -> Policy:
        """This policy with the similarity thresholds (cross-run and reference) of
        ``--mle-similarity`` (when given)."""
        if threshold is None:
            return self
        from dataclasses import replace

        shares = {"threshold": threshold, "reference_threshold": threshold}
        return replace(self, similarity={**self.similarity, **shares})


def load_policy(path: Path | None = None) -> Policy:
    """The default policy, with the sections of ``path`` (when given) replacing its own."""
    raw = _read(DEFAULT_POLICY)
    source = "default policy"
    if path is not None:
        override = _read(path)
        unknown = sorted(set(override) - set(SECTIONS))
        if unknown:
            raise ConfigError(
                f"{path}: unknown policy section(s) {', '.join(unknown)}; "
                f"known sections: {', '.join(SECTIONS)}"
            )
        raw.update(override)
        source = f"{path} over the default policy"
    return _build(raw, path or DEFAULT_POLICY, source)


def _read(path: Path) -> dict[str, Any]:
    try:
        data = load_yaml(path.read_text("utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise ConfigError(f"integrity policy {path} cannot be read: {exc}") from None
    if not isinstance(data, dict):
        raise ConfigError(f"integrity policy {path}: expected a mapping of sections")
    return data


def _build(raw: dict[str, Any], path: Path, source: str) -> Policy:
    return Policy(
        withhold_at=_severity(raw.get("withhold_at", "high"), path, "withhold_at"),
        processes=_patterns(raw.get("processes") or [], path, "processes"),
        logs=_patterns(raw.get("logs") or [], path, "logs"),
        watermark=_severities(raw.get("watermark") or {}, path, "watermark"),
        rules=_severities(raw.get("rules") or {}, path, "rules"),
        validator=_severities(raw.get("validator") or {}, path, "validator"),
        similarity=_severities(raw.get("similarity") or {}, path, "similarity"),
        source=source,
        judge=_severities(raw.get("judge") or {}, path, "judge"),
        score=_severities(raw.get("score") or {}, path, "score"),
    )


def _severity(value: Any, path: Path, where: str) -> Severity:
    if value not in SEVERITIES:
        raise ConfigError(
            f"integrity policy {path}: {where} is {value!r}; choose one of {', '.join(SEVERITIES)}"
        )
    severity: Severity = value
    return severity


def _severities(section: Any, path: Path, name: str) -> dict[str, Any]:
    """A section of thresholds and severities; a string value must be a severity."""
    if not isinstance(section, dict):
        raise ConfigError(f"integrity policy {path}: {name} must be a mapping")
    for key, value in section.items():
        if isinstance(value, str):
            _severity(value, path, f"{name}.{key}")
        elif not isinstance(value, (int, float)):
            raise ConfigError(f"integrity policy {path}: {name}.{key} must be a number or severity")
    return dict(section)


def _patterns(entries: Any, path: Path, name: str) -> tuple[PatternRule, ...]:
    if not isinstance(entries, list):
        raise ConfigError(f"integrity policy {path}: {name} must be a list of rules")
    rules = []
    for index, entry in enumerate(entries):
        where = f"{name}[{index}]"
        if not isinstance(entry, dict) or not {"id", "pattern", "reason"} <= set(entry):
            raise ConfigError(
                f"integrity policy {path}: {where} needs id, pattern, severity and reason"
            )
        try:
            pattern = re.compile(str(entry["pattern"]))
        except re.error as exc:
            raise ConfigError(
                f"integrity policy {path}: {where} ({entry['id']}) has a bad pattern: {exc}"
            ) from None
        severity = _severity(entry.get("severity", "high"), path, f"{where}.severity")
        rules.append(PatternRule(str(entry["id"]), pattern, severity, str(entry["reason"])))
    return tuple(rules)


def first_match(rules: tuple[PatternRule, ...], text: str) -> PatternRule | None:
    """The first rule whose pattern is found in ``text``."""
    return next((rule for rule in rules if rule.pattern.search(text)), None)
