"""The session's own words in pytest's terminal: the counts of the header, and after collection
what the selection left and whether it needs GPUs this machine lacks.

The header is written before collection, when ``-m`` / ``-k`` have not selected anything yet, so
it counts the competitions available; the lines after collection say how many of them, and how
many runs, were selected (from the controller's own collection, or under xdist from the first
worker's). Seeds are numbered from 0: ``--mle-seeds 3`` runs ``s0``, ``s1`` and ``s2``, the names
the tables use. ``--mle-gpus auto`` finding no GPU is worth a warning only when a selected
competition asks for one (it then runs without).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.report.progress import case_of
from pytest_mlebench.sandbox.gpus import gpus_wanted
from pytest_mlebench.session import SESSION_KEY, MLEBenchSession

_SHOWN = 3
_XDIST_NOTED = pytest.StashKey[bool]()


def seeds_text(seeds: int) -> str:
    """``1 seed (s0)``, ``3 seeds (s0-s2)``: the count and the names the tables show."""
    names = "s0" if seeds == 1 else f"s0-s{seeds - 1}"
    return f"{seeds} seed{'s' if seeds != 1 else ''} ({names})"


def available_text(count: int) -> str:
    return f"{count} competitions available"


def selection_line(competitions: int, runs: int, available: int, seeds: int) -> str:
    return (
        f"mlebench: {competitions} of {available} competitions selected: {runs} run(s), "
        f"{seeds_text(seeds)} each"
    )


def gpu_notice(mle_session: MLEBenchSession, competition_ids: Iterable[str]) -> str | None:
    """The warning of a session without GPUs (``--mle-gpus auto`` found none) whose selection
    holds competitions that ask for one; ``None`` otherwise."""
    settings = mle_session.settings
    if mle_session.plan.gpus or mle_session.plan.ray or settings.gpus != "auto":
        return None
    wanting = sorted(
        cid
        for cid in set(competition_ids)
        if gpus_wanted(mle_session.registry.get(cid).resources.gpus, settings.gpus_per_sandbox) > 0
    )
    if not wanting:
        return None
    more = f" and {len(wanting) - _SHOWN} more" if len(wanting) > _SHOWN else ""
    return (
        f"mlebench WARNING: no GPU found (--mle-gpus auto), and {len(wanting)} selected "
        f"competition(s) ask for one; they run without: {', '.join(wanting[:_SHOWN])}{more}"
    )


def collection_lines(mle_session: MLEBenchSession, nodeids: Iterable[str]) -> list[str]:
    """The selection line and, when it applies, the GPU warning, for the collected tests."""
    known = list(mle_session.registry.competitions)
    cases = [case for case in (case_of(nodeid, known) for nodeid in nodeids) if case]
    if not cases:
        return []
    chosen = {cid for cid, _seed in cases}
    seeds = mle_session.settings.seeds
    lines = [selection_line(len(chosen), len(cases), len(mle_session.registry), seeds)]
    notice = gpu_notice(mle_session, chosen)
    return lines + ([notice] if notice else [])


def pytest_report_collectionfinish(
    config: pytest.Config, start_path: Path, items: Sequence[pytest.Item]
) -> list[str]:
    """After pytest's "collected … / selected" line (one process)."""
    session = config.stash.get(SESSION_KEY, None)
    if session is None:
        return []
    return collection_lines(session, [item.nodeid for item in items])


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: Any, ids: Sequence[str]) -> None:
    """xdist controller: the same lines, once, from the first worker's collection."""
    config: pytest.Config = node.config
    session = config.stash.get(SESSION_KEY, None)
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if session is None or reporter is None or config.stash.get(_XDIST_NOTED, False):
        return
    config.stash[_XDIST_NOTED] = True
    for line in collection_lines(session, ids):
        reporter.write_line(line)
