"""Whether two sessions' numbers may be compared: their manifests, key by key. Pure.

A compared key (:data:`~pytest_mlebench.values.manifest_keys.COMPARED_KEYS`) that differs refuses
the comparison, unless ``--allow-different`` names it: then the comparison runs and says what it
allowed. A noted key that differs is said and never refuses. A value one side does not know
(``None``: a summary built later from results files has no harness version) is not checked,
and the output says so. A summary written before manifests existed is compared with a warning.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from pytest_mlebench.manifest.from_records import PER_COMPETITION, is_mixed, uniform
from pytest_mlebench.manifest.render import value_text
from pytest_mlebench.values.manifest_keys import KEY_NAMES, MANIFEST_KEYS

COMPARED = {key.name: key.compared for key in MANIFEST_KEYS}
FIX = "compare anyway with --allow-different {keys} (pytest: --mle-allow-different {keys})"


@dataclass(frozen=True)
class Difference:
    """One key on which the two manifests differ (or one side cannot tell)."""

    key: str
    base: Any
    new: Any

    def text(self) -> str:
        return f"{self.key}: {value_text(self.base)} (baseline) vs {value_text(self.new)} (new)"


@dataclass(frozen=True)
class Comparability:
    """The verdict on two manifests.

    Attributes:
        refused: Compared keys that differ and were not allowed.
        allowed: Compared keys that differ and ``--allow-different`` let through.
        noted: Keys that differ but never refuse (agent, competitions, seeds, images).
        unknown: Keys one side does not record (not checked).
        missing: The sides without a manifest (``the baseline``, ``this session``).
        unused: Keys ``--allow-different`` named on which the two agree.
    """

    refused: tuple[Difference, ...] = ()
    allowed: tuple[Difference, ...] = ()
    noted: tuple[Difference, ...] = ()
    unknown: tuple[str, ...] = ()
    missing: tuple[str, ...] = ()
    unused: tuple[str, ...] = ()

    def refusal(self) -> str | None:
        """Why the comparison is refused (every differing key, both values), or ``None``."""
        if not self.refused:
            return None
        keys = ", ".join(d.key for d in self.refused)
        shown = "; ".join(d.text() for d in self.refused)
        return (
            f"the manifests differ on {keys}, which change results: {shown}; "
            f"{FIX.format(keys=','.join(d.key for d in self.refused))}"
        )

    def notes(self) -> list[str]:
        """The lines a comparison that runs carries: what was allowed, noted, not checked."""
        lines = [f"manifest: allowed to differ: {d.text()}" for d in self.allowed]
        lines += [f"manifest: differs (not a condition): {d.text()}" for d in self.noted]
        if self.unused:
            lines.append(
                f"manifest: --allow-different {','.join(self.unused)}: the two agree on it"
            )
        if self.unknown:
            lines.append(
                f"manifest: not checked (not recorded on one side): {', '.join(self.unknown)}"
            )
        if self.missing:
            sides = " and ".join(self.missing)
            lines.append(
                f"manifest: WARNING: {sides} has no manifest (written before manifests "
                "existed): the time limit, resources, GPUs and network of the two "
                "sessions were not checked"
            )
        return lines


def comparability(
    base: Mapping[str, Any], new: Mapping[str, Any], allowed: Iterable[str] = ()
) -> Comparability:
    """Compare the manifests of two summaries (``summary.json`` layout)."""
    before, after = base.get("manifest"), new.get("manifest")
    missing = tuple(
        side
        for side, manifest in (("the baseline", before), ("this session", after))
        if not isinstance(manifest, dict)
    )
    if not isinstance(before, dict) or not isinstance(after, dict):
        return Comparability(missing=missing)
    permitted = set(allowed)
    refused, let, noted, unknown = [], [], [], []
    for key in KEY_NAMES:
        a, b = on_shared_competitions(key, before, after)
        if a is None or b is None:
            if a != b:
                unknown.append(key)
            continue
        if same(a, b):
            continue
        difference = Difference(key, a, b)
        if not COMPARED[key]:
            noted.append(difference)
        elif key in permitted:
            let.append(difference)
        else:
            refused.append(difference)
    unused = tuple(sorted(permitted - {d.key for d in let}))
    return Comparability(tuple(refused), tuple(let), tuple(noted), tuple(unknown), unused=unused)


def on_shared_competitions(
    key: str, before: Mapping[str, Any], after: Mapping[str, Any]
) -> tuple[Any, Any]:
    """Both sides' value of ``key`` as compared: a condition a competition sets for itself
    (``by_competition``) over the competitions both sides ran, else the whole value."""
    maps = [_per_competition(key, side) for side in (before, after)]
    if maps[0] is None or maps[1] is None or not (set(maps[0]) & set(maps[1])):
        return comparable(key, before.get(key)), comparable(key, after.get(key))
    shared = sorted(set(maps[0]) & set(maps[1]))
    return uniform(maps[0][c] for c in shared), uniform(maps[1][c] for c in shared)


def _per_competition(key: str, manifest: Mapping[str, Any]) -> dict[str, Any] | None:
    """``{competition: value}`` of a per-competition key; ``None`` for other keys and for known
    issues a side did not record."""
    ids = (manifest.get("competitions") or {}).get("ids") or []
    if key == "known_issues":
        issues = manifest.get(key)
        return None if issues is None else {cid: issues.get(cid, []) for cid in ids}
    if key not in PER_COMPETITION:
        return None
    found = (manifest.get("by_competition") or {}).get(key)
    if isinstance(found, dict):
        return found
    return {cid: manifest.get(key) for cid in ids}


def comparable(key: str, value: Any) -> Any:
    """The part of a manifest value a comparison looks at: the harness's major version, the
    competition set's hash, whether a score reached the agent; else the value itself."""
    if value is None:
        return None
    if key == "harness" and isinstance(value, dict):
        return value.get("major")
    if key == "competitions" and isinstance(value, dict):
        return value.get("sha256")
    if key == "score_feedback" and isinstance(value, dict):
        return value.get("reached_agent")
    return value


def same(a: Any, b: Any) -> bool:
    """Whether two values agree on what both know: a sub-key ``None`` on either side (not
    recorded there) is left out of both."""
    if isinstance(a, dict) and isinstance(b, dict) and not is_mixed(a) and not is_mixed(b):
        known = [k for k in set(a) | set(b) if a.get(k) is not None and b.get(k) is not None]
        a, b = {k: a[k] for k in known}, {k: b[k] for k in known}
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
