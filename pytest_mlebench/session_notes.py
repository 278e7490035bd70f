"""The session's own words in pytest's terminal: the counts of the header, and after collection
what the selection left.

The header is written before collection, when ``-m`` / ``-k`` have not selected anything yet, so
it counts the competitions available; the line after collection (one process; under xdist the
controller collects nothing) says how many of them, and how many runs, were selected. Seeds are
numbered from 0: ``--mle-seeds 3`` runs ``s0``, ``s1`` and ``s2``, the names the tables use.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from pytest_mlebench.session import SESSION_KEY


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


def pytest_report_collectionfinish(
    config: pytest.Config, start_path: Path, items: Sequence[pytest.Item]
) -> list[str]:
    """After pytest's "collected … / selected" line: the competitions and runs selected."""
    session = config.stash.get(SESSION_KEY, None)
    if session is None:
        return []
    cases = [
        callspec.params["mle_case"]
        for callspec in (getattr(item, "callspec", None) for item in items)
        if callspec is not None and "mle_case" in callspec.params
    ]
    if not cases:
        return []
    chosen = {case.competition_id for case in cases}
    seeds = session.settings.seeds
    return [selection_line(len(chosen), len(cases), len(session.registry), seeds)]
