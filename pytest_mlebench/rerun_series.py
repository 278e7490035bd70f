"""``pytest --lf`` on benchmark tests: which agent reruns them, and which session it completes.

pytest's own cache remembers which tests failed, not with which agent. Each session that ran
benchmark tests leaves a :class:`LastSession` in pytest's cache (key :data:`CACHE_KEY`); a later
``pytest --lf`` without ``--mle-agent`` (nor ``MLEBENCH_AGENT`` or ini) takes that session's
agent, so the failures are rerun by the agent that failed them, not by the default. Its reports
then complete that session's series: the competitions ``--lf`` left out keep their earlier
records instead of reading as missing. When benchmark failures are remembered but no agent is
(a cache from an older version), the rerun is refused with the option to give.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

import pytest

from pytest_mlebench.errors import SettingError
from pytest_mlebench.settings import Settings, source_of

CACHE_KEY = "mlebench/last_session"
SERIES_KEY = pytest.StashKey["LastSession"]()


@dataclass(frozen=True)
class LastSession:
    """What a session leaves for the next ``--lf``.

    Attributes:
        session_id: The session's id (its records' ``session_id``).
        agent: ``--mle-agent`` as that session resolved it.
        series: The ids of the sessions whose records its reports covered (itself last).
    """

    session_id: str
    agent: str
    series: tuple[str, ...]

    def to_json(self) -> dict[str, Any]:
        return {"session_id": self.session_id, "agent": self.agent, "series": list(self.series)}

    @classmethod
    def from_json(cls, data: Any) -> LastSession | None:
        try:
            series = tuple(str(entry) for entry in data["series"])
            return cls(str(data["session_id"]), str(data["agent"]), series)
        except (TypeError, KeyError):
            return None


def reruns_last_failed(config: pytest.Config) -> bool:
    """Whether this session is ``pytest --lf`` with pytest's cache on."""
    return bool(config.getoption("lf", False)) and getattr(config, "cache", None) is not None


def settings_for_rerun(
    config: pytest.Config, settings: Settings, is_run: Callable[[str], bool]
) -> tuple[Settings, str | None]:
    """``settings`` with the agent of the session ``--lf`` reruns, and that agent when it was
    taken from the cache (``None`` otherwise); ``is_run`` tells the node ids of benchmark runs
    (the test module's own reading of them) among those pytest's cache remembers as failed.

    Raises:
        SettingError: ``--lf`` reruns benchmark failures of a session whose agent is unknown.
    """
    if not reruns_last_failed(config):
        return settings, None
    last = LastSession.from_json(config.cache.get(CACHE_KEY, None))
    if source_of(config, "agent") != "default":
        if last is not None and last.agent == settings.agent:
            config.stash[SERIES_KEY] = last
        return settings, None
    if last is None:
        if _benchmark_failures(config, is_run):
            raise SettingError(
                "pytest --lf reruns benchmark tests that failed, but the agent they failed with is "
                "not known (pytest's cache predates it): name it with --mle-agent NAME"
            )
        return settings, None
    config.stash[SERIES_KEY] = last
    return replace(settings, agent=last.agent), last.agent


def rerun_header(config: pytest.Config) -> list[str]:
    """The header line of a ``--lf`` rerun that completes an earlier session."""
    last = config.stash.get(SERIES_KEY, None)
    if last is None:
        return []
    return [
        f"--lf reruns the failures of session {last.session_id} with its agent {last.agent} "
        "(--mle-agent names another); the reports cover that session's runs too"
    ]


def earlier_series(config: pytest.Config) -> tuple[str, ...]:
    """The sessions this ``--lf`` rerun completes (empty when it is not one)."""
    last = config.stash.get(SERIES_KEY, None)
    return last.series if last is not None else ()


def remember_session(config: pytest.Config, session_id: str, agent: str) -> None:
    """Leave this session (and the series it completes) for the next ``pytest --lf``."""
    cache = getattr(config, "cache", None)
    if cache is None:
        return
    series = (*earlier_series(config), session_id)
    cache.set(CACHE_KEY, LastSession(session_id, agent, series).to_json())


def _benchmark_failures(config: pytest.Config, is_run: Callable[[str], bool]) -> bool:
    failed = config.cache.get("cache/lastfailed", {})
    return any(is_run(str(nodeid)) for nodeid in failed)
