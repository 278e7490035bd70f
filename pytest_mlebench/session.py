"""Run state of one pytest session, kept in ``config.stash`` (never on private attributes)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field

import pytest

from pytest_mlebench.registry import Registry
from pytest_mlebench.settings import Settings


@dataclass
class MLEBenchSession:
    """What the controller decided once and every xdist worker shares.

    Attributes:
        settings: The resolved settings.
        registry: The competitions of this session.
        session_id: Id shared by the controller and its workers; stamped on every record.
        backend: The sandbox backend actually used (``auto`` resolved once, by the controller).
        worker: ``master`` on the controller, else the xdist worker id.
        notices: Lines for the terminal header (e.g. the no-isolation warning).
    """

    settings: Settings
    registry: Registry
    session_id: str = field(default_factory=lambda: uuid.uuid4().hex[:12])
    backend: str = "local"
    worker: str = "master"
    notices: list[str] = field(default_factory=list)

    @property
    def is_controller(self) -> bool:
        return self.worker == "master"


SESSION_KEY = pytest.StashKey[MLEBenchSession]()


def get_session(config: pytest.Config) -> MLEBenchSession:
    return config.stash[SESSION_KEY]
