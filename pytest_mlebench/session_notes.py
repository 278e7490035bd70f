"""The session's own words in pytest's terminal: the counts of the header, and after collection
what the selection left and whether it needs GPUs this machine lacks.

The header is written before collection, when ``-m`` / ``-k`` have not selected anything yet, so
it counts the competitions available; the lines after collection say how many of them, and how
many runs, were selected (from the controller's own collection, or under xdist from the first
worker's). Seeds are numbered from 0: ``--mle-seeds 3`` runs ``s0``, ``s1`` and ``s2``, the names
the tables use. ``--mle-gpus auto`` finding no GPU is worth a warning only when a selected
competition asks for one (it then runs without). Selected engineering tasks whose ``eng`` image
is not built yet get a line saying that the first of them builds it, and for how long.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.errors import MLEBenchError
from pytest_mlebench.handover import RunTicket, case_of
from pytest_mlebench.run_params import tickets_by_nodeid
from pytest_mlebench.sandbox.gpus import gpus_wanted
from pytest_mlebench.session import SESSION_KEY, MLEBenchSession

_SHOWN = 3
# Measured on a fresh 2-core machine (README, "Set-up time").
ENG_IMAGE_FIRST_TIME = "13 to 18 min"
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


def eng_image_line(tasks: int, built: bool) -> str | None:
    """The line saying that the ``eng`` image gets built now, when ``tasks`` engineering tasks
    are selected (Docker backend) and it is not ``built``: the first task waits for it, which
    would otherwise look like a hung session."""
    if not tasks or built:
        return None
    return (
        f"mlebench: set-up: the eng image (engineering tasks' agent and verifier image) is not "
        f"built yet; the first of the {tasks} selected task(s) builds it now, once: "
        f"{ENG_IMAGE_FIRST_TIME} on 2 cores (build it ahead: mlebench sandbox build --profile eng)"
    )


def eng_image_notice(mle_session: MLEBenchSession, runs: Iterable[RunTicket]) -> str | None:
    """:func:`eng_image_line` for the collected runs (asks the engine only when it matters)."""
    tasks = sum(1 for run in runs if run.kind == "engineering")
    if not tasks or mle_session.backend != "docker" or mle_session.plan.ray:
        return None
    try:
        built = eng_image_built()
    except (MLEBenchError, OSError):
        return None  # the engine's own error comes with the first run
    return eng_image_line(tasks, built)


def eng_image_built() -> bool:
    """Whether the Docker engine has the ``eng`` image of this checkout."""
    from pytest_mlebench.sandbox.docker.engine import docker_client
    from pytest_mlebench.sandbox.docker.profiles import profile_tag
    from pytest_mlebench.sandbox.docker.recipe import image_exists

    client = docker_client()
    try:
        return image_exists(client, profile_tag("eng"))
    finally:
        client.close()


def collection_lines(mle_session: MLEBenchSession, runs: Iterable[RunTicket]) -> list[str]:
    """The selection line and, when it applies, the GPU warning and the eng image's set-up."""
    runs = list(runs)
    eng_notice = eng_image_notice(mle_session, runs)
    eng = [eng_notice] if eng_notice else []
    cases = [run.pair for run in runs if run.kind == "competition"]
    if not cases:
        return eng
    chosen = {cid for cid, _seed in cases}
    seeds = mle_session.settings.seeds
    lines = [selection_line(len(chosen), len(cases), len(mle_session.registry), seeds)]
    notice = gpu_notice(mle_session, chosen)
    return lines + ([notice] if notice else []) + eng


def pytest_report_collectionfinish(
    config: pytest.Config, start_path: Path, items: Sequence[pytest.Item]
) -> list[str]:
    """After pytest's "collected … / selected" line (one process)."""
    session = config.stash.get(SESSION_KEY, None)
    if session is None:
        return []
    tickets = (case_of(item) for item in items)
    return collection_lines(session, [ticket for ticket in tickets if ticket is not None])


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_node_collection_finished(node: Any, ids: Sequence[str]) -> None:
    """xdist controller: the same lines, once, from the first worker's collection."""
    config: pytest.Config = node.config
    session = config.stash.get(SESSION_KEY, None)
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if session is None or reporter is None or config.stash.get(_XDIST_NOTED, False):
        return
    config.stash[_XDIST_NOTED] = True
    for line in collection_lines(session, tickets_by_nodeid(session, ids).values()):
        reporter.write_line(line)
