"""Listing the harness's containers survives one being removed meanwhile (a fake engine client)."""

from __future__ import annotations

from typing import Any

import pytest

docker = pytest.importorskip("docker")

from pytest_mlebench.sandbox.docker.cleanup import managed_containers  # noqa: E402


class FakeContainers:
    """A fake engine's container list: the first calls meet a container removed meanwhile."""

    def __init__(self, failures: int) -> None:
        self.failures = failures
        self.calls = 0

    def list(self, **_: Any) -> list[str]:
        self.calls += 1
        if self.calls <= self.failures:
            raise docker.errors.NotFound("No such container: gone")
        return ["kept"]


class FakeClient:
    def __init__(self, failures: int) -> None:
        self.containers = FakeContainers(failures)


def test_a_container_removed_while_listing_is_listed_again() -> None:
    client = FakeClient(failures=2)
    assert managed_containers(client) == ["kept"] and client.containers.calls == 3


def test_an_engine_that_keeps_failing_raises_after_the_last_attempt() -> None:
    with pytest.raises(docker.errors.NotFound):
        managed_containers(FakeClient(failures=10), attempts=3)
