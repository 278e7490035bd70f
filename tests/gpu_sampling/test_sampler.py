"""GPU use per run: the readers of the host's tools, the watch's arithmetic, the report lines.

No GPU here: ``FakeSampler`` is a named fake that replays scripted readings, ``nvidia-smi`` is a
fake script, and ``smi_query.csv`` is output in the layout of ``nvidia-smi
--query-gpu=index,utilization.gpu,memory.used,memory.total --format=csv`` (header and units,
a MIG slice answering ``[N/A]``).
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from pytest_mlebench.gpu_sampling import (
    MIB,
    GpuReading,
    NvidiaSmiSampler,
    gpu_watch,
    host_sampler,
    parse_smi_csv,
    usage_text,
)
from pytest_mlebench.report.gpu_use import gpu_line, gpu_section
from tests.report.builders import record

CAPTURED = Path(__file__).with_name("smi_query.csv").read_text()


class FakeSampler:
    """A fake sampler: hands out the scripted readings in turn, then repeats the last ones."""

    name = "fake"

    def __init__(self, script: list[list[GpuReading]]) -> None:
        self.script = script
        self.asked: list[tuple[str, ...]] = []
        self.played = threading.Event()  # every scripted reading was handed out

    def sample(self, indices: Sequence[str]) -> list[GpuReading]:
        self.asked.append(tuple(indices))
        if len(self.asked) >= len(self.script):
            self.played.set()
        return self.script[min(len(self.asked), len(self.script)) - 1]


def reading(index: str, percent: float | None, used_mib: int) -> GpuReading:
    return GpuReading(index, percent, used_mib * MIB, 24_000 * MIB)


def test_nvidia_smi_csv_with_header_and_units() -> None:
    assert parse_smi_csv(CAPTURED) == [
        GpuReading("0", 87.0, 10240 * MIB, 23028 * MIB),
        GpuReading("1", 0.0, 1 * MIB, 23028 * MIB),
        GpuReading("2", None, None, 81559 * MIB),
    ]


def test_nvidia_smi_csv_without_header_and_units() -> None:
    assert parse_smi_csv("0, 87, 10240, 23028\nNo devices were found\n") == [
        GpuReading("0", 87.0, 10240 * MIB, 23028 * MIB)
    ]


def test_the_nvidia_smi_sampler_asks_for_the_granted_devices(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake = tmp_path / "nvidia-smi"
    fake.write_text(f'#!/bin/sh\necho "$@" > {tmp_path}/args\nprintf "1, 42, 2048, 24000\\n"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    sampler = host_sampler()  # no pynvml in this environment: nvidia-smi is the one found
    assert isinstance(sampler, NvidiaSmiSampler)
    assert sampler.sample(["1"]) == [GpuReading("1", 42.0, 2048 * MIB, 24000 * MIB)]
    assert (tmp_path / "args").read_text().split() == [
        "--query-gpu=index,utilization.gpu,memory.used,memory.total",
        "--format=csv,noheader,nounits",
        "--id=1",
    ]


def test_granted_two_used_one() -> None:
    sampler = FakeSampler(
        [
            [reading("0", 0, 1), reading("1", 0, 1)],  # before the agent
            [reading("0", 93, 9000), reading("1", 0, 1)],
            [reading("0", 40, 12000), reading("1", 0, 1)],
        ]
    )
    with gpu_watch(["0", "1"], sampler, interval=0.01) as watch:
        assert sampler.played.wait(timeout=30)
    assert watch is not None
    usage = watch.summary()
    assert (usage["granted"], usage["used"], usage["sampler"], usage["error"]) == (
        2,
        1,
        "fake",
        None,
    )
    first, second = usage["devices"]
    assert first["used"] and not second["used"]
    assert first["utilization_max"] == 93 and first["memory_peak_bytes"] == 12000 * MIB
    assert sampler.asked[0] == ("0", "1")
    assert usage_text(usage).startswith("GPUs granted 2, used 1 (fake: GPU 0 93 % peak, 11.7 GiB")


def test_memory_taken_without_utilisation_counts_as_used() -> None:
    sampler = FakeSampler([[reading("0", None, 100)], [reading("0", None, 100 + 512)]])
    with gpu_watch(["0"], sampler, interval=60) as watch:
        pass  # one sample before, one after
    assert watch is not None and watch.summary()["used"] == 1


def test_a_broken_sampler_stops_sampling_and_says_why() -> None:
    class BrokenSampler:
        """A fake sampler whose tool fails."""

        name = "broken"

        def sample(self, indices: Sequence[str]) -> list[GpuReading]:
            raise OSError("nvidia-smi vanished")

    with gpu_watch(["0"], BrokenSampler(), interval=60) as watch:
        pass
    assert watch is not None
    assert watch.summary()["error"] == "OSError: nvidia-smi vanished"
    assert watch.summary()["used"] == 0


def test_no_gpu_granted_means_no_watch() -> None:
    with gpu_watch([], FakeSampler([[]])) as watch:
        assert watch is None


def test_the_session_adds_up_granted_and_used() -> None:
    usage = {"granted": 2, "used": 1, "sampler": "nvidia-smi", "devices": []}
    records = [
        record("alpha", 0, gpu_usage=usage, run_id="alpha-s0"),
        record("beta", 0, gpu_usage={**usage, "used": 2}),
        record("gamma", 0),
    ]
    section = gpu_section(records)
    assert section == {
        "runs": 2,
        "granted": 4,
        "used": 3,
        "sampled": 2,
        "idle_runs": [{"run_id": "alpha-s0", "granted": 2, "used": 1}],
    }
    assert gpu_line(section) == (
        "GPUs: 2 run(s) granted 4, used 3; idle GPUs in: alpha-s0 (granted 2, used 1)"
    )
    assert gpu_section([record("gamma", 0)]) is None
