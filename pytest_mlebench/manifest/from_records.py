"""A manifest from run records alone: the conditions every record already carries. Pure.

Each key of :data:`~pytest_mlebench.values.manifest_keys.MANIFEST_KEYS` gets one value. A
condition that differs across the runs is never reduced to one of them: it becomes
``{"mixed": [value, ...]}`` (each distinct value once, in a stable order), so a manifest cannot
claim a condition that only some runs had. Skipped runs (their data not prepared) ran under no
condition and are left out; the competition set counts only runs that happened.

What records cannot say (the harness version, the agent's digest, its providers, the GPU type,
the competitions' known issues) is ``None`` here and filled by
:func:`~pytest_mlebench.manifest.session_facts.with_session_facts` at the end of the session
that made them. A summary built later from results files keeps those ``None``.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from pytest_mlebench.records.run_record import RunRecord

SCHEMA = "pytest-mlebench/manifest/1"
MIXED = "mixed"
# the sandbox limits that bound what an agent can do (``gpus`` is its own key)
RESOURCE_KEYS = ("cpus", "memory", "shm", "pids")
# what a validation answer carries back to the agent (validator.py answers exactly these)
ANSWER_FIELDS = ("valid", "reason")


def uniform(values: Iterable[Any]) -> Any:
    """The one value all runs share, ``None`` for no run, else ``{"mixed": [distinct...]}``."""
    distinct: dict[str, Any] = {}
    for value in values:
        distinct.setdefault(json.dumps(value, sort_keys=True), value)
    if not distinct:
        return None
    if len(distinct) == 1:
        return next(iter(distinct.values()))
    return {MIXED: [distinct[key] for key in sorted(distinct)]}


def is_mixed(value: Any) -> bool:
    """Whether a manifest value is the ``{"mixed": [...]}`` of a condition runs did not share."""
    return isinstance(value, dict) and set(value) == {MIXED}


def _gpu(record: RunRecord) -> dict[str, Any]:
    return {"count": len(_gpus(record)), "type": None}


# conditions a competition may set for itself (its config's time limit and resources)
PER_COMPETITION: dict[str, Callable[[RunRecord], Any]] = {
    "time_limit": lambda record: record.time_limit,
    "resources": lambda record: _resources(record),
    "gpu": _gpu,
}


def build_manifest(records: Sequence[RunRecord]) -> dict[str, Any]:
    """The manifest of ``records`` (each key of the key table, plus ``schema``, ``sessions``
    and ``by_competition``).

    ``by_competition`` holds, for each of :data:`PER_COMPETITION` that is ``mixed``, its value
    per competition: competitions declare their own time limits and resources, so two sessions
    over different subsets are compared on the competitions they share.
    """
    ran = [record for record in records if record.ran]
    manifest = _manifest(records, ran)
    manifest["by_competition"] = {
        key: by_competition(ran, value_of)
        for key, value_of in PER_COMPETITION.items()
        if is_mixed(manifest[key])
    }
    return manifest


def by_competition(records: Sequence[RunRecord], value_of: Callable[[RunRecord], Any]) -> Any:
    """``{competition id: value}`` (``mixed`` where its own runs differ)."""
    ids = sorted({record.competition_id for record in records})
    return {cid: uniform(value_of(r) for r in records if r.competition_id == cid) for cid in ids}


def _manifest(records: Sequence[RunRecord], ran: Sequence[RunRecord]) -> dict[str, Any]:
    return {
        "schema": SCHEMA,
        "sessions": sorted({record.session_id for record in records}),
        "time_limit": uniform(record.time_limit for record in ran),
        "resources": uniform(_resources(record) for record in ran),
        "gpu": uniform(_gpu(record) for record in ran),
        "sandbox": uniform(record.sandbox for record in ran),
        "network": uniform(_network(record) for record in ran),
        "models": {"models": _models(ran), "providers": None},
        "harness": None,
        "known_issues": None,
        "description": uniform(record.description for record in ran),
        "score_feedback": score_feedback(ran),
        "agent": uniform({"name": record.agent, "digest": None} for record in ran),
        "images": sorted({record.image for record in ran if record.image}),
        "competitions": competition_set(record.competition_id for record in ran),
        "seeds": sorted({record.seed for record in ran}),
    }


def competition_set(ids: Iterable[str]) -> dict[str, Any]:
    """``{"count", "sha256", "ids"}``: the hash is of the sorted ids, one per line."""
    ordered = sorted(set(ids))
    digest = hashlib.sha256("".join(f"{cid}\n" for cid in ordered).encode()).hexdigest()
    return {"count": len(ordered), "sha256": digest, "ids": ordered}


def score_feedback(records: Sequence[RunRecord]) -> dict[str, Any]:
    """Whether a score reached an agent, with the evidence: the validator's answers.

    The only channel from the grader to a running agent is ``validate_submission.sh``; its
    answers are ``{"valid", "reason"}`` and its log (the records' ``validation_calls``) holds
    what it answered. A logged call carrying a ``score`` would be feedback, and says so.
    """
    calls = [call for record in records for call in record.validation_calls]
    scored = sum(1 for call in calls if call.get("score") is not None)
    valid = sum(1 for call in calls if call.get("valid") is True)
    evidence = (
        f"{len(calls)} validation call(s) in {sum(1 for r in records if r.validation_calls)} "
        f"run(s), answered {valid} valid / {len(calls) - valid} invalid with a reason; the "
        f"validator answers {' and '.join(ANSWER_FIELDS)} only, never a score"
    )
    if scored:
        evidence = f"{scored} validation answer(s) carried a score"
    return {
        "reached_agent": scored > 0,
        "validation_calls": len(calls),
        "valid_answers": valid,
        "answer_fields": list(ANSWER_FIELDS),
        "evidence": evidence,
    }


def _resources(record: RunRecord) -> dict[str, Any]:
    return {key: record.resources.get(key) for key in RESOURCE_KEYS}


def _gpus(record: RunRecord) -> list[Any]:
    gpus = record.resources.get("gpus")
    return list(gpus) if isinstance(gpus, (list, tuple)) else []


def _network(record: RunRecord) -> dict[str, Any]:
    """The policy (``none``, ``bridge``, ``allow``) and the hosts an ``allow`` policy let out."""
    spelled = record.network or "none"
    policy, _, hosts = spelled.partition(":")
    allowed = (record.egress or {}).get("allowed_hosts") or [h for h in hosts.split(",") if h]
    return {"policy": policy, "allow_list": sorted(str(host) for host in allowed)}


def _models(records: Sequence[RunRecord]) -> Any:
    """The models each run's gateway saw (``[]`` for runs without a gateway), ``mixed`` when
    runs saw different sets."""
    return uniform(sorted(_gateway_models(record)) for record in records)


def _gateway_models(record: RunRecord) -> Iterable[str]:
    models = (record.gateway or {}).get("models") or {}
    return (str(name) for name in models) if isinstance(models, dict) else ()


def mapped(value: Any, change: Callable[[Any], Any]) -> Any:
    """``change`` applied to a value, or to each value of a ``mixed`` one."""
    if is_mixed(value):
        return uniform(change(item) for item in value[MIXED])
    return change(value)
