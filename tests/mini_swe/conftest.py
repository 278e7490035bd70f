"""Fixtures of the mini-swe-agent tests: its locked packages for the local backend, and a FAKE
upstream answering its steps with the scripted titanic solution (``scripted_mini_swe.py``)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pytest_mlebench.agents.mini_swe_folder import MINI_SWE_FOLDER
from tests.aide.conftest import locked_site, python_with
from tests.gateway.conftest import PROVIDER_KEY
from tests.gateway.fake_upstream import FakeUpstream
from tests.mini_swe.scripted_mini_swe import answer_mini_swe


@pytest.fixture(scope="session")
def mini_swe_site() -> Path:
    """A folder holding mini-swe-agent's locked packages, built once per lock."""
    return locked_site(MINI_SWE_FOLDER / "requirements.lock", "mini-swe-test", "minisweagent")


@pytest.fixture
def mini_swe_on_path(mini_swe_site: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``python3`` on PATH runs this interpreter with mini-swe-agent's packages importable."""
    return python_with(mini_swe_site, tmp_path / "mini-swe-bin", monkeypatch)


@pytest.fixture
def fake_mini_swe_upstream(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeUpstream]:
    """The FAKE OpenAI upstream, scripted for mini-swe-agent, behind the run's gateway."""
    with FakeUpstream(chat=answer_mini_swe) as fake:
        monkeypatch.setenv("OPENAI_API_KEY", PROVIDER_KEY)
        monkeypatch.setenv("MLEBENCH_GATEWAY_UPSTREAM", f"openai={fake.url}")
        yield fake
