"""The manifest in a few lines: the terminal, ``summary.md`` and the HTML page print these. Pure.

Three lines, so a published number carries its conditions: what each sandbox had (time, CPUs,
memory, GPUs, backend, network), what ran (agent, models, harness, variants), and over what
(competitions and their hash, seeds, images, score feedback). A condition the runs did not share
reads ``mixed(a | b)``; one nobody recorded reads ``?``.
"""

from __future__ import annotations

from collections.abc import Mapping
from html import escape
from typing import Any

MIXED = "mixed"
HASH_SHOWN = 12


def value_text(value: Any) -> str:
    """One manifest value as short text (dicts as ``key=value``, lists comma-joined)."""
    if value is None:
        return "?"
    if isinstance(value, dict) and set(value) == {MIXED}:
        return f"mixed({' | '.join(value_text(item) for item in value[MIXED])})"
    if isinstance(value, dict):
        return ", ".join(f"{k}={value_text(v)}" for k, v in value.items() if v is not None)
    if isinstance(value, (list, tuple)):
        return ",".join(value_text(item) for item in value) or "-"
    return str(value)


def _mixed_or(value: Any, show: Any) -> str:
    if value is None:
        return "?"
    if isinstance(value, dict) and set(value) == {MIXED}:
        return f"mixed({' | '.join(_mixed_or(item, show) for item in value[MIXED])})"
    return str(show(value))


def _resources(value: Mapping[str, Any]) -> str:
    parts = [
        f"{value.get('cpus')} CPUs" if value.get("cpus") is not None else None,
        f"memory {value.get('memory')}" if value.get("memory") else None,
        f"shm {value.get('shm')}" if value.get("shm") else None,
        f"{value.get('pids')} pids" if value.get("pids") else None,
    ]
    return ", ".join(p for p in parts if p) or "no limits"


def _gpu(value: Mapping[str, Any]) -> str:
    count = int(value.get("count") or 0)
    return "no GPU" if not count else f"{count} x {value.get('type') or 'GPU of unknown type'}"


def _network(value: Mapping[str, Any]) -> str:
    hosts = value.get("allow_list") or []
    return str(value.get("policy")) + (f" ({', '.join(hosts)})" if hosts else "")


def _agent(value: Mapping[str, Any]) -> str:
    digest = str(value.get("digest") or "digest ?")
    short = digest[: len("sha256:") + HASH_SHOWN] if digest.startswith("sha256:") else digest
    return f"{value.get('name')} ({short})"


def _time(value: Any) -> str:
    return f"{value:g} s" if isinstance(value, (int, float)) else str(value)


def manifest_lines(manifest: Mapping[str, Any] | None) -> list[str]:
    """Three short lines of ``manifest`` (one line saying there is none, for an older summary)."""
    if not manifest:
        return ["manifest: none (a summary written before manifests existed)"]
    models = manifest.get("models") or {}
    harness = manifest.get("harness") or {}
    issues = manifest.get("known_issues")
    issue_text = (
        "?"
        if issues is None
        else "; ".join(f"{cid} {'+'.join(kinds)}" for cid, kinds in issues.items()) or "none"
    )
    competitions = manifest.get("competitions") or {}
    feedback = manifest.get("score_feedback") or {}
    reached = "a score reached the agent" if feedback.get("reached_agent") else "none"
    return [
        "conditions: time limit "
        + _mixed_or(manifest.get("time_limit"), _time)
        + " · "
        + _mixed_or(manifest.get("resources"), _resources)
        + " · "
        + _mixed_or(manifest.get("gpu"), _gpu)
        + f" · sandbox {value_text(manifest.get('sandbox'))}"
        + f" · network {_mixed_or(manifest.get('network'), _network)}",
        f"ran: agent {_mixed_or(manifest.get('agent'), _agent)}"
        + f" · models {value_text(models.get('models'))}"
        + f" (providers {value_text(models.get('providers'))})"
        + f" · harness {harness.get('version') or '?'}"
        + f" · description {value_text(manifest.get('description'))}"
        + f" · known issues {issue_text}",
        f"over: {competitions.get('count', 0)} competition(s) (sha256 "
        + f"{str(competitions.get('sha256') or '?')[:HASH_SHOWN]})"
        + f" · seeds {value_text(manifest.get('seeds'))}"
        + f" · images {value_text(manifest.get('images'))}"
        + f" · score feedback {reached} ({feedback.get('evidence', '?')})",
    ]


def manifest_markdown(manifest: Mapping[str, Any] | None) -> list[str]:
    """The manifest in ``summary.md``: a heading and its three lines as bullets."""
    return ["## Conditions (manifest)", "", *(f"- {line}" for line in manifest_lines(manifest)), ""]


def manifest_html(manifest: Mapping[str, Any] | None) -> str:
    """The manifest on the HTML page, under its heading: its three lines."""
    items = "".join(f"<li>{escape(line)}</li>" for line in manifest_lines(manifest))
    return f'<h2>Conditions (manifest)</h2><ul class="manifest">{items}</ul>'
