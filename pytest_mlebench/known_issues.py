"""Known issues of a competition (label leaks, public test data, crowded boards) as data.

A competition's ``config.yaml`` may list them::

    known_issues:
      - kind: leak            # leak | public-data | crowded | broken-data
        removed: true         # leak only: our prepare drops the leaking fields
        text: "giver_username_if_known reveals the outcome; prepare removes it"

Each kind maps to a pytest mark, so users deselect such competitions: ``-m "lite and not leaky"``.
A leak counts as ``leaky`` even when our prepare removes it: the competition's leaderboard was made
by people who could use it, so its medals are harder to reach or mean less.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal, cast

from pytest_mlebench.errors import ConfigError

IssueKind = Literal["leak", "public-data", "crowded", "broken-data"]
KINDS: tuple[IssueKind, ...] = ("leak", "public-data", "crowded", "broken-data")
MARK_OF_KIND: dict[IssueKind, str] = {
    "leak": "leaky",
    "public-data": "leaky",
    "crowded": "crowded",
    "broken-data": "broken_data",
}
MARKS = {
    "leaky": "competition with a known label leak or publicly available test data "
    "(deselect with -m 'not leaky')",
    "crowded": "competition whose leaderboard top is tightly packed, so medals are noisy "
    "(deselect with -m 'not crowded')",
    "broken_data": "competition whose original data or split is faulty and is prepared "
    "differently here (deselect with -m 'not broken_data')",
}


@dataclass(frozen=True)
class KnownIssue:
    """One known issue: its kind, what it is, and whether our prepare removes it."""

    kind: IssueKind
    text: str
    removed: bool = False

    @property
    def mark(self) -> str:
        return MARK_OF_KIND[self.kind]

    def to_dict(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "removed": self.removed}


def parse_known_issues(section: Any, config_path: Path) -> tuple[KnownIssue, ...]:
    """The ``known_issues`` list of a config; a malformed entry is a :class:`ConfigError`."""
    if section is None:
        return ()
    if not isinstance(section, list):
        raise ConfigError(f"{config_path}: known_issues must be a list of {{kind, text}} entries")
    return tuple(
        _parse_entry(entry, number, config_path) for number, entry in enumerate(section, 1)
    )


def _parse_entry(entry: Any, number: int, config_path: Path) -> KnownIssue:
    where = f"{config_path}: known_issues entry {number}"
    if not isinstance(entry, dict) or not isinstance(entry.get("text"), str):
        raise ConfigError(f"{where}: needs 'kind' and a 'text' sentence")
    kind = entry.get("kind")
    if kind not in KINDS:
        raise ConfigError(f"{where}: kind {kind!r} is not one of {', '.join(KINDS)}")
    removed = entry.get("removed", False)
    if not isinstance(removed, bool) or (removed and kind != "leak"):
        raise ConfigError(f"{where}: 'removed' is true or false, and only for kind leak")
    unknown = sorted(set(entry) - {"kind", "text", "removed"})
    if unknown:
        raise ConfigError(f"{where}: unknown keys {', '.join(unknown)}")
    return KnownIssue(kind=cast(IssueKind, kind), text=entry["text"].strip(), removed=removed)


def marks_of(issues: Iterable[KnownIssue]) -> list[str]:
    """The pytest marks of a competition's issues, each once, sorted."""
    return sorted({issue.mark for issue in issues})
