"""The keys of a session manifest and which of them make two sessions' results incomparable.

A manifest (:mod:`pytest_mlebench.manifest`) states the conditions a session's numbers were made
under. Some conditions change what an agent can reach — more time, more memory, a GPU, the web,
another grading harness — so a comparison across them measures the conditions as much as the agent:
those keys are *compared*, and ``mlebench report --compare`` and the gate refuse sessions that
differ on one unless ``--allow-different KEY`` names it. The others are *noted*: the agent itself is
what a comparison measures (its digest changes with every edit a CI gate judges; its models are part
of it: comparing two models is what a leaderboard does), so is the description variant (standard
against obfuscated is the documented contamination control,
:mod:`pytest_mlebench.report.variant_comparison`), and the competition set and seeds are matched run
by run (competitions and seeds on one side only are named by the gate as missing or new). Conditions
a competition sets for itself (time limit, resources, GPUs, known issues) are compared over the
competitions both sessions ran. Session ids, dates and host names are not in the manifest at all.

This table is the one place the keys are declared: the manifest builder, the comparison, the
``--mle-allow-different`` parser and ``docs/reports.md`` follow it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ManifestKey:
    """One key of the manifest.

    Attributes:
        name: The key in ``manifest.json`` and in ``--allow-different``.
        compared: Whether a difference refuses a comparison (else it is only noted).
        meaning: What the key holds, for ``--help``-style listings and refusals.
    """

    name: str
    compared: bool
    meaning: str


MANIFEST_KEYS: tuple[ManifestKey, ...] = (
    ManifestKey("time_limit", True, "seconds each run had (--mle-time-limit or the competition's)"),
    ManifestKey("resources", True, "CPUs, memory, shared memory and process limit per sandbox"),
    ManifestKey("gpu", True, "GPUs per sandbox and their type"),
    ManifestKey("sandbox", True, "the sandbox backend (local or docker)"),
    ManifestKey("network", True, "the sandbox's network policy and allow-list"),
    ManifestKey("harness", True, "the harness's major version (grading and the sandbox contract)"),
    ManifestKey(
        "known_issues", True, "each competition's known issues (leak, public data), fixed or not"
    ),
    ManifestKey("score_feedback", True, "whether any score reached the agent during its run"),
    ManifestKey("agent", False, "the agent's name and content digest (what a comparison measures)"),
    ManifestKey("models", False, "the LLM models the gateway saw and the agent's providers"),
    ManifestKey("description", False, "the description variant (comparing two is a measurement)"),
    ManifestKey("images", False, "the sandbox images (their tags carry a content hash)"),
    ManifestKey("competitions", False, "the competitions that ran and the hash of their ids"),
    ManifestKey("seeds", False, "the seeds that ran"),
)
KEY_NAMES: tuple[str, ...] = tuple(key.name for key in MANIFEST_KEYS)
COMPARED_KEYS: tuple[str, ...] = tuple(key.name for key in MANIFEST_KEYS if key.compared)


def allowed_differences(values: Sequence[str], base: Path | None = None) -> frozenset[str]:
    """``--allow-different`` as a set of compared keys (repeatable, each comma-separated).

    Raises:
        ValueError: For a key that is not a compared key, naming the valid ones.
    """
    names = {part.strip() for value in values for part in str(value).split(",") if part.strip()}
    unknown = sorted(names - set(COMPARED_KEYS))
    if unknown:
        noted = [name for name in unknown if name in KEY_NAMES]
        why = (
            f"{', '.join(noted)} never refuse a comparison (only noted); "
            if noted and len(noted) == len(unknown)
            else f"unknown manifest key {', '.join(repr(name) for name in unknown)}; "
        )
        raise ValueError(f"{why}the keys that can differ are: {', '.join(COMPARED_KEYS)}")
    return frozenset(names)
