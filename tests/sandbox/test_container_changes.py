"""A container's changes read from its overlay layer equal the engine's own diff.

The fast path (:mod:`pytest_mlebench.sandbox.docker.changes`) walks the container's upper
directory instead of asking the engine to compare the whole tree; both must list the same
added, changed and deleted paths. Needs a Docker engine on this machine (skipped otherwise)."""

from __future__ import annotations

from typing import Any

import pytest

from pytest_mlebench.sandbox.docker.changes import container_changes, overlay_layers
from tests.sandbox.conftest import docker_image

__all__ = ["docker_image"]

CHANGES = (
    "mkdir -p /opt/new/deeper && echo a > /opt/new/deeper/file"  # added folders and a file
    " && echo changed >> /etc/debian_version"  # a changed image file
    " && rm /etc/issue.net"  # a deleted image file
    " && rm -r /usr/share/doc/tar"  # a deleted image folder
    " && mkdir -p /home/work && echo w > /home/work/out.txt"  # inside a contract folder
    " && touch /etc/hostname-copy && ln -s /etc/debian_version /opt/link"
)


def by_path(entries: list[dict[str, Any]]) -> dict[str, int]:
    return {entry["Path"]: entry["Kind"] for entry in entries}


def test_the_overlay_layer_lists_what_the_engine_lists(docker_image: str) -> None:
    from pytest_mlebench.sandbox.docker.engine import docker_client

    client = docker_client()
    container = client.containers.run(
        docker_image, ["sh", "-c", CHANGES], detach=True, network_mode="none", user="root",
        labels={"pytest-mlebench.test": "container-changes"},
    )  # fmt: skip
    try:
        assert container.wait(timeout=60)["StatusCode"] == 0, container.logs()[-500:]
        container.reload()
        if overlay_layers(container) is None:
            pytest.skip("the engine's storage is not a readable overlay2 layer here")
        engine = by_path(container.diff() or [])
        walked = by_path(container_changes(container))
        assert walked == engine
        assert walked["/opt/new/deeper/file"] == 1 and walked["/etc/debian_version"] == 0
        assert walked["/etc/issue.net"] == 2 and walked["/usr/share/doc/tar"] == 2
    finally:
        container.remove(force=True)
        client.close()


class FakeContainer:
    """A container whose engine diff is all there is (a remote engine, another driver)."""

    def __init__(self) -> None:
        self.attrs: dict[str, Any] = {"GraphDriver": {"Name": "vfs", "Data": {}}}

    def diff(self) -> list[dict[str, Any]]:
        return [{"Path": "/x", "Kind": 1}]


def test_without_a_readable_overlay_layer_the_engine_is_asked() -> None:
    assert container_changes(FakeContainer()) == [{"Path": "/x", "Kind": 1}]
