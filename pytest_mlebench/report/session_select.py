"""Sessions in a results file: list them, and pick sessions and agents out of it.

A results file collects every session run against it (``reports/results.jsonl``); ``mlebench
report --list-sessions`` shows them, one line each, and ``--session ID`` / ``--agent NAME`` keep
the records of the named sessions and agents before the summary is built, so one session can be
reported (or gated against another) without filtering the file by hand. Pure: records in,
records and lines out.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

from pytest_mlebench.errors import ConfigError
from pytest_mlebench.records.run_record import RunRecord
from pytest_mlebench.suggest import closest, did_you_mean


@dataclass(frozen=True)
class SessionRow:
    """One session of a results file, as ``--list-sessions`` shows it."""

    session_id: str
    started_at: str
    agents: tuple[str, ...]
    sandboxes: tuple[str, ...]
    runs: int
    competitions: int
    passed: int

    def line(self) -> str:
        runs = "run" if self.runs == 1 else "runs"
        return (
            f"{self.session_id}  {self.started_at[:19].replace('T', ' ')}  "
            f"{self.runs} {runs} on {plural(self.competitions, 'competition')}, "
            f"{self.passed} passed  agent {', '.join(self.agents)}  "
            f"sandbox {', '.join(self.sandboxes)}"
        )


def plural(count: int, noun: str) -> str:
    """``1 competition``, ``2 competitions``."""
    return f"{count} {noun}" if count == 1 else f"{count} {noun}s"


def session_rows(records: Sequence[RunRecord]) -> list[SessionRow]:
    """The sessions of ``records``, oldest first."""
    by_session: dict[str, list[RunRecord]] = defaultdict(list)
    for record in records:
        by_session[record.session_id].append(record)
    rows = [
        SessionRow(
            session_id=session_id,
            started_at=min(r.started_at for r in runs),
            agents=tuple(sorted({r.agent for r in runs})),
            sandboxes=tuple(sorted({r.sandbox for r in runs})),
            runs=len(runs),
            competitions=len({r.competition_id for r in runs}),
            passed=sum(1 for r in runs if r.outcome == "passed"),
        )
        for session_id, runs in by_session.items()
    ]
    return sorted(rows, key=lambda row: row.started_at)


def select_records(
    records: Sequence[RunRecord], sessions: Sequence[str], agents: Sequence[str]
) -> list[RunRecord]:
    """The records of the named ``sessions`` (an id or a unique start of one) and ``agents``
    (all when a list is empty).

    Raises:
        ConfigError: A name matches nothing (with the closest known ones), or a session prefix
            matches several sessions.
    """
    known_sessions = sorted({r.session_id for r in records})
    wanted_sessions = {_session_id(name, known_sessions) for name in sessions}
    known_agents = sorted({r.agent for r in records})
    for agent in agents:
        if agent not in known_agents:
            raise ConfigError(
                f"--agent {agent}: no run of that agent in the results"
                f"{did_you_mean(closest(agent, known_agents))}; agents there: "
                f"{', '.join(known_agents)}"
            )
    return [
        r
        for r in records
        if (not wanted_sessions or r.session_id in wanted_sessions)
        and (not agents or r.agent in agents)
    ]


def _session_id(name: str, known: Sequence[str]) -> str:
    matches = [session_id for session_id in known if session_id.startswith(name)]
    if len(matches) == 1:
        return matches[0]
    if matches:
        raise ConfigError(f"--session {name}: several sessions start so: {', '.join(matches)}")
    raise ConfigError(
        f"--session {name}: no such session in the results{did_you_mean(closest(name, known))}; "
        "'mlebench report --list-sessions' lists them"
    )
