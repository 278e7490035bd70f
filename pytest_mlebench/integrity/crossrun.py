"""Similarity between the runs of a session: two seeds or two agents with the same code.

At the end of a session (and in ``mlebench integrity`` over a results file) the code of every
pair of runs of the same competition is compared (:mod:`.similarity`). A pair over the threshold
raises a flag naming both runs: ``same-agent`` (often expected: deterministic agent code) or
``other-agent`` (two agents that share code). Only runs of the same competition are compared:
a generic agent's code is the same on every competition by design.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from itertools import combinations
from pathlib import Path

from pytest_mlebench.integrity.similarity import Fingerprints, code_files, top_matches
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.records.verdict import Flag, sort_flags
from pytest_mlebench.values.integrity_policy import Policy


def cross_run_flags(records: Sequence[RunRecord], policy: Policy) -> list[Flag]:
    """Flags for pairs of runs of the same competition whose code matches."""
    groups: dict[str, list[RunRecord]] = defaultdict(list)
    for record in records:
        if record.run_dir and code_files(Path(record.run_dir) / "code"):
            groups[record.competition_id].append(record)
    if not any(len(runs) > 1 for runs in groups.values()):
        return []
    fingerprints = Fingerprints(int(policy.number("similarity", "min_tokens")))
    flags = []
    for runs in groups.values():
        for first, second in combinations(sorted(runs, key=lambda r: r.run_id), 2):
            flag = _pair_flag(first, second, policy, fingerprints)
            if flag is not None:
                flags.append(flag)
    return list(sort_flags(flags))


def _pair_flag(
    first: RunRecord, second: RunRecord, policy: Policy, fingerprints: Fingerprints
) -> Flag | None:
    code_a, code_b = Path(str(first.run_dir)) / "code", Path(str(second.run_dir)) / "code"
    matches = top_matches(
        code_files(code_a),
        code_files(code_b),
        policy.number("similarity", "threshold"),
        fingerprints,
        mine_root=code_a,
        theirs_root=code_b,
    )
    if not matches:
        return None
    same = first.agent == second.agent
    best = matches[0]
    return Flag(
        "similarity",
        "same-agent" if same else "other-agent",
        policy.severity("similarity", "same_agent" if same else "other_agent"),
        f"runs {first.run_id} ({first.agent}) and {second.run_id} ({second.agent}) share code: "
        f"code/{best.file} ~ code/{best.other} ({max(best.similarity, best.other_similarity):.0%}"
        f", lines {best.lines} and {best.other_lines})",
        {
            "runs": [first.run_id, second.run_id],
            "agents": [first.agent, second.agent],
            "competition_id": first.competition_id,
            "matches": [m.to_evidence() for m in matches],
        },
    )
