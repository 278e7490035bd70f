"""Listing containers survives one being removed meanwhile (a fake engine client)."""

from __future__ import annotations

from typing import Any

import pytest

docker = pytest.importorskip("docker")

from pytest_mlebench.sandbox.docker.cleanup import (  # noqa: E402
    MANAGED_LABEL,
    list_containers,
    managed_containers,
)


class FakeContainers:
    """A fake engine's container list: the first calls meet a container removed meanwhile."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls = 0
        self.asked: list[dict[str, Any]] = []

    def list(self, **options: Any) -> list[str]:
        self.calls += 1
        self.asked.append(options)
        if self.calls <= self.failures:
            raise docker.errors.NotFound("No such container: gone")
        return ["kept"]


class FakeClient:
    def __init__(self, failures: int) -> None:
        self.containers = FakeContainers(failures)


def test_a_container_removed_while_listing_is_listed_again() -> None:
    client = FakeClient(failures=2)
    assert managed_containers(client) == ["kept"] and client.containers.calls == 3
    assert client.containers.asked[-1] == {"all": True, "filters": {"label": MANAGED_LABEL}}


def test_the_filters_and_running_only_are_passed_on() -> None:
    client = FakeClient(failures=0)
    assert list_containers(client, {"status": "running"}) == ["kept"]
    assert client.containers.asked == [{"all": False, "filters": {"status": "running"}}]


def test_an_engine_that_keeps_failing_raises_after_the_last_attempt() -> None:
    client = FakeClient(failures=10)
    with pytest.raises(docker.errors.NotFound):
        list_containers(client, {"label": MANAGED_LABEL}, attempts=3)
    assert client.containers.calls == 3
