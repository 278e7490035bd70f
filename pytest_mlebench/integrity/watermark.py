"""The watermark: was the submission made by this run, inside its time window?

Evidence (collected by :mod:`.watch` and :mod:`.monitor`): the sandbox's start time and the run's
nonce (``MLEBENCH_RUN_NONCE``, in the agent's environment and instructions), the submission's and
CODE_DIR's modification times taken inside the sandbox after the run, copies of the submission that
existed before the sandbox started (:mod:`.inventory`), and the files the harness copied in from
the agent's own folder (hashed here, on the host, only where their size equals the submission's).
Checks:

- ``pre-made-submission``: the submission equals a file the harness copied in, or a file that
  was in the sandbox before it started (an image file);
- ``submission-before-start``: the submission was last modified before the sandbox started;
- ``code-before-start``: files in CODE_DIR were last modified before the sandbox started;
- ``inventory-mismatch``: the inventory's SHA-256 of the submission is not that of the copy the
  harness took out of the sandbox (the inventory's report is checked, never just believed).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pytest_mlebench.digests import sha256_file
from pytest_mlebench.integrity.run_evidence import Evidence
from pytest_mlebench.records.verdict import Flag
from pytest_mlebench.values.integrity_policy import Policy

CLOCK_SLACK_SECONDS = 2.0
MAX_AGENT_FILES = 20000


def agent_sources(agent: object) -> list[Path]:
    """Host files and folders the harness copies into the sandbox for ``agent``."""
    found = [getattr(agent, name, None) for name in ("folder", "script")]
    return [Path(p) for p in found if isinstance(p, (str, Path)) and Path(p).exists()]


def _files(source: Path) -> Iterator[Path]:
    if source.is_file():
        yield source
        return
    for count, path in enumerate(source.rglob("*")):
        if count > MAX_AGENT_FILES:
            return
        if path.is_file() and not path.is_symlink():
            yield path


def copied_in_matches(sources: list[Path], submission: Path) -> dict[str, Any]:
    """Files among ``sources`` identical to ``submission``: only same-size files are hashed."""
    if not submission.is_file():
        return {"sources": [str(s) for s in sources], "hashed": 0, "matches": []}
    size, digest = submission.stat().st_size, None
    hashed, matches = 0, []
    for source in sources:
        for path in _files(source):
            if path.stat().st_size != size:
                continue
            hashed += 1
            digest = digest or sha256_file(submission)  # only once a same-size file is found
            if sha256_file(path) == digest:
                matches.append(str(path))
    return {"sources": [str(s) for s in sources], "hashed": hashed, "matches": matches}


def watermark_flags(evidence: Evidence, policy: Policy) -> list[Flag]:
    """Flags of the watermark checks (see the module docstring)."""
    started = float(evidence.sandbox_started or 0)
    inventory = evidence.inventory or {}
    flags = []
    pre_made = evidence.identical_agent_files
    pre_made += [c["path"] for c in inventory.get("copies") or [] if _before(c, started)]
    if pre_made:
        flags.append(
            Flag(
                "watermark",
                "pre-made-submission",
                policy.severity("watermark", "pre_made_submission"),
                "the submission is byte-identical to a file that existed before the run "
                "(shipped with the agent or the image): it was not made by this run",
                {"files": sorted(set(pre_made))},
            )
        )
    submission = inventory.get("submission")
    if submission and _before(submission, started):
        flags.append(
            Flag(
                "watermark",
                "submission-before-start",
                policy.severity("watermark", "submission_before_start"),
                "submission.csv was last modified before the sandbox started",
                {
                    "file": "submission.csv",
                    "seconds_before_start": round(started - submission["mtime"], 1),
                },
            )
        )
    old_code = [c["path"] for c in inventory.get("code") or [] if _before(c, started)]
    if old_code:
        flags.append(
            Flag(
                "watermark",
                "code-before-start",
                policy.severity("watermark", "code_before_start"),
                f"{len(old_code)} file(s) in CODE_DIR were last modified before the sandbox "
                "started (brought in, not written by this run)",
                {"files": old_code[:20]},
            )
        )
    return flags


def _before(entry: dict[str, Any], started: float) -> bool:
    return made_before(float(entry.get("mtime", started)), started)


def made_before(mtime: float, started: float) -> bool:
    """Whether a file last modified at ``mtime`` predates a sandbox started at ``started`` (both
    epoch seconds; ``started`` 0: unknown, never). The slack absorbs the seconds a file system or
    an archive rounds a modification time down by, so a file written as the run began is never
    taken for an old one."""
    return bool(started) and mtime < started - CLOCK_SLACK_SECONDS


def inventory_mismatch_flag(evidence: Evidence, submission: Path, policy: Policy) -> Flag | None:
    """A flag when the inventory's account of the submission disagrees with the host's copy.

    Sizes are compared first (no hashing when they differ); the host's copy is hashed only
    when the inventory hashed one of the same size. Nothing to compare (no inventory, an
    inventory error, no copy on the host) is no flag; a copy the inventory did not report is.
    """
    inventory = evidence.inventory or {}
    if not inventory or inventory.get("error") or not submission.is_file():
        return None
    reported = inventory.get("submission") or {}
    size = submission.stat().st_size
    said = reported.get("sha256")
    if reported.get("size") == size and (said is None or said == sha256_file(submission)):
        return None  # the same file (or one too large for the inventory to hash)
    return Flag(
        "watermark",
        "inventory-mismatch",
        policy.severity("watermark", "inventory_mismatch"),
        "the inventory taken inside the sandbox reported another submission than the one "
        "copied out and graded: its evidence cannot be trusted for this run",
        {"inventory": {"size": reported.get("size"), "sha256": said}, "graded_bytes": size},
    )
