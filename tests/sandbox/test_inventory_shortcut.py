"""The inventory's shortcut in a real Docker sandbox: what it checks instead of walking the image
finds the same copies, also when the run moved a folder of the image away; and the finish's
steps that find nothing to do are skipped (the agent processes' second killer).

A file of the image stands in for a pre-made copy shipped in an image (building an image per
test would cost minutes): the run hands in its content, and the copy the inventory must report
is the image's file.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.integrity.inventory import index_image, take_inventory
from pytest_mlebench.integrity.inventory_index import forget_indexes
from pytest_mlebench.sandbox.conformance import SandboxFactory
from pytest_mlebench.sandbox.docker import sandbox as docker_sandbox
from pytest_mlebench.sandbox.docker.engine import engine_is_remote

pytestmark = pytest.mark.skipif(engine_is_remote(), reason="reads the engine's overlay layers")

IMAGE_FILE = "/usr/share/doc/bash/RBASH"


@pytest.fixture
def fresh_indexes() -> Iterator[None]:
    forget_indexes(on_disk=True)
    yield
    forget_indexes(on_disk=True)


def copies_of(inventory: dict[str, Any]) -> list[str]:
    return [copy["path"] for copy in inventory["copies"]]


@pytest.mark.usefixtures("fresh_indexes")
def test_a_copy_in_the_image_is_found_among_the_candidates(
    docker_sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    sandbox = docker_sandbox_factory()
    assert index_image(sandbox)  # before the agent, as the watch does
    handed_in = sandbox.exec(["cp", IMAGE_FILE, sandbox.paths.submission_file], timeout=60)
    assert handed_in.exit_code == 0, handed_in.output_tail
    inventory = take_inventory(sandbox, tmp_path)
    assert inventory["search"]["by"] == "candidates", inventory
    assert inventory["search"]["complete"]
    assert IMAGE_FILE in copies_of(inventory)


@pytest.mark.usefixtures("fresh_indexes")
def test_a_copy_in_a_folder_moved_away_is_still_found(
    docker_sandbox_factory: SandboxFactory, tmp_path: Path
) -> None:
    sandbox = docker_sandbox_factory()
    assert index_image(sandbox)
    moved = sandbox.exec_harness(["mv", "/usr/share/doc/bash", "/opt/moved"], timeout=60)
    assert moved.exit_code == 0, moved.output_tail
    copy = sandbox.exec(["cp", "/opt/moved/RBASH", sandbox.paths.submission_file], timeout=60)
    assert copy.exit_code == 0, copy.output_tail
    inventory = take_inventory(sandbox, tmp_path)
    assert "/opt/moved/RBASH" in copies_of(inventory), inventory
    assert IMAGE_FILE not in copies_of(inventory)


@pytest.mark.usefixtures("fresh_indexes")
def test_listing_the_image_never_lengthens_the_sandbox_lease(
    docker_sandbox_factory: SandboxFactory,
) -> None:
    """The list is taken before the agent, within the first lease (the agent's deadline plus
    the grace): were its exec to renew the lease for longer, a container whose harness died
    would outlive that deadline."""
    sandbox = docker_sandbox_factory(time_limit=6, expiry_grace=3.0)
    lease = sandbox.lease.ends  # type: ignore[attr-defined]
    index_image(sandbox)
    assert sandbox.lease.ends == lease  # type: ignore[attr-defined]


def test_the_killer_runs_again_only_when_an_agent_process_may_be_left(
    docker_sandbox_factory: SandboxFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    sandbox = docker_sandbox_factory()
    killed: list[object] = []
    real = docker_sandbox.kill_agent_processes

    def counted(container: object) -> bool:
        killed.append(container)
        return real(container)

    monkeypatch.setattr(docker_sandbox, "kill_agent_processes", counted)
    sandbox.kill_agent_processes()  # no agent exec has ended yet: nothing says none is left
    assert len(killed) == 1
    assert sandbox.exec(["true"], timeout=60).exit_code == 0
    sandbox.kill_agent_processes()  # that exec's own killer found none left
    assert len(killed) == 1
    broken = sandbox.exec(["sh", "-c", "sleep 30 &"], timeout=60)  # its killer ends the sleep
    assert broken.exit_code == 0
    monkeypatch.setattr(docker_sandbox, "run_exec", raise_engine_error)
    with pytest.raises(Exception, match="engine gone"):
        sandbox.exec(["true"], timeout=60)
    sandbox.kill_agent_processes()  # an exec that broke may have left its processes
    assert len(killed) == 2


def raise_engine_error(*args: object, **kwargs: object) -> None:
    from pytest_mlebench.sandbox.docker.engine import import_docker

    raise import_docker().errors.APIError("engine gone")
