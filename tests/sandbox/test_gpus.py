"""The GPU pool, with fake device lists: leases are disjoint across processes, wait, and recover.

No test here needs a GPU: the devices are fake names, and ``nvidia-smi`` is a fake script.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import time
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.errors import SandboxError
from pytest_mlebench.sandbox.gpus import (
    LEASE_FILE,
    GpuPool,
    detect_gpus,
    gpus_wanted,
    parse_gpu_listing,
    select_gpus,
)

FAKE_DEVICES = ("fake-0", "fake-1", "fake-2", "fake-3")
FAKE_LISTING = (
    "GPU 0: NVIDIA A10 (UUID: GPU-11111111-2222-3333-4444-555555555555)\n"
    "GPU 1: NVIDIA A10 (UUID: GPU-66666666-7777-8888-9999-000000000000)\n"
)


def test_listing_is_parsed_into_indices() -> None:
    assert parse_gpu_listing(FAKE_LISTING) == ("0", "1")
    assert parse_gpu_listing("No devices were found\n") == ()


def test_detect_uses_nvidia_smi(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "nvidia-smi"
    fake.write_text(f"#!/bin/sh\ncat <<'EOF'\n{FAKE_LISTING}EOF\n")
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert detect_gpus() == ("0", "1")


def test_no_nvidia_smi_means_no_gpu(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))
    assert detect_gpus() == ()


@pytest.mark.parametrize(
    ("option", "detected", "expected"),
    [
        ("auto", FAKE_DEVICES, FAKE_DEVICES),
        ("auto", (), ()),
        ("none", FAKE_DEVICES, ()),
        ("0", FAKE_DEVICES, ()),
        ("all", FAKE_DEVICES, FAKE_DEVICES),
        ("2", FAKE_DEVICES, FAKE_DEVICES[:2]),
    ],
)
def test_select_gpus(option: str, detected: tuple[str, ...], expected: tuple[str, ...]) -> None:
    assert select_gpus(option, detected) == expected


@pytest.mark.parametrize(
    ("option", "detected", "message"),
    [
        ("all", (), "no GPU found"),
        ("2", (), "no GPU found"),
        ("5", FAKE_DEVICES, "only 4 GPU(s) found"),
        ("many", FAKE_DEVICES, "expected auto, none, all"),
    ],
)
def test_select_gpus_rejects(option: str, detected: tuple[str, ...], message: str) -> None:
    with pytest.raises(SandboxError, match=message.replace("(", r"\(").replace(")", r"\)")):
        select_gpus(option, detected)


def test_leases_in_one_process_are_disjoint(tmp_path: Path) -> None:
    pool = GpuPool(tmp_path, FAKE_DEVICES)
    with pool.lease(2) as first, pool.lease(2) as second:
        assert len(first) == len(second) == 2
        assert not set(first) & set(second)
        assert set(pool.holders()) == set(first) | set(second)
    assert pool.holders() == {}


def test_zero_gpus_is_an_empty_lease(tmp_path: Path) -> None:
    with GpuPool(tmp_path, ()).lease(0) as devices:
        assert devices == ()


@pytest.mark.parametrize(
    ("competition_gpus", "per_sandbox", "expected"),
    [(0, None, 0), (2, None, 2), (0, 1, 1), (3, 1, 1), (1, 2, 2)],
)
def test_gpus_wanted_is_the_competitions_unless_overridden(
    competition_gpus: int, per_sandbox: int | None, expected: int
) -> None:
    assert gpus_wanted(competition_gpus, per_sandbox) == expected


def test_competition_without_gpus_leases_none_from_a_full_pool(tmp_path: Path) -> None:
    pool = GpuPool(tmp_path, FAKE_DEVICES)
    with pool.lease(gpus_wanted(0, None)) as devices:
        assert devices == ()
        assert pool.holders() == {}
    with pool.lease(gpus_wanted(2, None)) as devices:
        assert len(devices) == 2
        assert set(pool.holders()) == set(devices)


def test_asking_for_more_than_the_pool_has_fails(tmp_path: Path) -> None:
    with pytest.raises(SandboxError, match="wants 5 GPU"), GpuPool(tmp_path, FAKE_DEVICES).lease(5):
        pass


def test_a_full_pool_times_out(tmp_path: Path) -> None:
    pool = GpuPool(tmp_path, FAKE_DEVICES[:1], wait_timeout=0.3, poll_interval=0.05)
    with pool.lease(1), pytest.raises(SandboxError, match="came free"), pool.lease(1):
        pass


def test_lease_of_a_dead_process_is_taken_back(tmp_path: Path) -> None:
    dead_owner = "fake-host-that-is-not-this-one:999999:0"
    (tmp_path / LEASE_FILE).write_text(json.dumps({"fake-0": {"owner": dead_owner, "since": 0}}))
    with GpuPool(tmp_path, FAKE_DEVICES[:1], wait_timeout=1).lease(1) as devices:
        assert devices == ("fake-0",)


def test_lease_is_released_when_the_block_raises(tmp_path: Path) -> None:
    pool = GpuPool(tmp_path, FAKE_DEVICES)
    with pytest.raises(RuntimeError), pool.lease(3):
        raise RuntimeError("agent crashed")
    assert pool.holders() == {}


def hold_devices(lease_dir: str, devices: tuple[str, ...], k: int, out: str) -> None:
    """Child process: lease ``k`` devices, hold them a while, write what and when."""
    pool = GpuPool(Path(lease_dir), devices, poll_interval=0.05)
    with pool.lease(k) as taken:
        start = time.time()
        time.sleep(1.0)
        end = time.time()
    Path(out).write_text(json.dumps({"devices": taken, "start": start, "end": end}))


def run_two_processes(tmp_path: Path, devices: tuple[str, ...], k: int) -> list[dict[str, Any]]:
    spawn = multiprocessing.get_context("spawn")
    outs = [str(tmp_path / f"worker-{n}.json") for n in range(2)]
    workers = [
        spawn.Process(target=hold_devices, args=(str(tmp_path / "leases"), devices, k, out))
        for out in outs
    ]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join(timeout=60)
        assert worker.exitcode == 0
    return [json.loads(Path(out).read_text()) for out in outs]


def test_two_processes_get_disjoint_devices_at_once(tmp_path: Path) -> None:
    first, second = run_two_processes(tmp_path, FAKE_DEVICES, 2)
    assert not set(first["devices"]) & set(second["devices"])
    # They held them at the same time: disjoint because of the pool, not because of luck.
    assert first["start"] < second["end"] and second["start"] < first["end"]


def test_second_process_waits_when_the_pool_is_taken(tmp_path: Path) -> None:
    first, second = run_two_processes(tmp_path, FAKE_DEVICES[:2], 2)
    earlier, later = sorted((first, second), key=lambda run: run["start"])
    assert later["start"] >= earlier["end"]
