"""How much of each GPU handed to a sandbox the run used, sampled while the agent works.

The original benchmark found that agents given two GPUs never touched the second; the record
should say so ("granted 2, used 1"). A :class:`GpuWatch` samples the granted devices on the host
every few seconds, in a thread, from just before the agent starts until it ends. Each GPU is
leased to one sandbox at a time (:mod:`pytest_mlebench.sandbox.gpus`), so what a device shows
is that sandbox's use. A device counts as **used** when a sample saw its utilisation at
:data:`BUSY_PERCENT` or more, or its memory in use :data:`MEMORY_MARGIN` above what the first
sample (before the agent) saw.

Samplers are chosen by what the host has, lazily, on the first run that was granted a GPU:
NVML through ``pynvml`` when it imports and initialises, else ``nvidia-smi --query-gpu`` when it
is on the ``PATH``, else none (the record then says that no sampler was found). The ids sampled
are the host's indices, as leased.
"""

from __future__ import annotations

import logging
import shutil
import subprocess
import threading
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

log = logging.getLogger(__name__)

MIB = 1024**2
BUSY_PERCENT = 1.0
MEMORY_MARGIN = 256 * MIB
DEFAULT_INTERVAL = 5.0
SMI_TIMEOUT = 10
SMI_QUERY = "index,utilization.gpu,memory.used,memory.total"


@dataclass(frozen=True)
class GpuReading:
    """One device at one moment (``None`` where the driver does not say)."""

    index: str
    utilization_percent: float | None
    memory_used_bytes: int | None
    memory_total_bytes: int | None


class GpuSampler(Protocol):
    """Reads the devices' current utilisation and memory; ``name`` goes into the record."""

    name: str

    def sample(self, indices: Sequence[str]) -> list[GpuReading]: ...


class NvidiaSmiSampler:
    """``nvidia-smi --query-gpu=... --format=csv,noheader,nounits`` (one call per sample)."""

    name = "nvidia-smi"

    def __init__(self, binary: str) -> None:
        self.binary = binary

    def sample(self, indices: Sequence[str]) -> list[GpuReading]:
        command = [self.binary, f"--query-gpu={SMI_QUERY}", "--format=csv,noheader,nounits"]
        command.append(f"--id={','.join(indices)}")
        output = subprocess.run(
            command, capture_output=True, text=True, timeout=SMI_TIMEOUT, check=True
        ).stdout
        return parse_smi_csv(output)


def parse_smi_csv(output: str) -> list[GpuReading]:
    """Readings from ``nvidia-smi --query-gpu=index,utilization.gpu,memory.used,memory.total``
    CSV, with or without header and units (``87 %``, ``10240 MiB``); ``[N/A]`` and
    ``[Not Supported]`` (a MIG slice, some drivers) become ``None``."""
    readings = []
    for line in output.splitlines():
        cells = [cell.strip() for cell in line.split(",")]
        if len(cells) != 4 or not cells[0].isdigit():
            continue  # the header, or a line that is not a device
        index, utilization, used, total = cells
        readings.append(GpuReading(index, _number(utilization), _mib(used), _mib(total)))
    return readings


def _number(cell: str) -> float | None:
    text = cell.removesuffix("%").removesuffix("MiB").strip()
    try:
        return float(text)
    except ValueError:
        return None


def _mib(cell: str) -> int | None:
    value = _number(cell)
    return None if value is None else int(value * MIB)


class NvmlSampler:
    """NVML through ``pynvml`` (no process per sample)."""

    name = "nvml"

    def __init__(self, nvml: Any) -> None:
        self.nvml = nvml

    def sample(self, indices: Sequence[str]) -> list[GpuReading]:
        readings = []
        for index in indices:
            handle = self.nvml.nvmlDeviceGetHandleByIndex(int(index))
            rates = self.nvml.nvmlDeviceGetUtilizationRates(handle)
            memory = self.nvml.nvmlDeviceGetMemoryInfo(handle)
            readings.append(
                GpuReading(index, float(rates.gpu), int(memory.used), int(memory.total))
            )
        return readings


def host_sampler() -> GpuSampler | None:
    """NVML when ``pynvml`` imports and initialises, else ``nvidia-smi``, else ``None``."""
    try:
        import pynvml  # type: ignore[import-not-found,unused-ignore]

        pynvml.nvmlInit()
        return NvmlSampler(pynvml)
    except Exception:  # not installed, or no driver: both mean "try the next one"
        pass
    binary = shutil.which("nvidia-smi")
    return NvidiaSmiSampler(binary) if binary else None


@dataclass
class DeviceUse:
    """What the samples of one device add up to."""

    index: str
    samples: int = 0
    utilization_sum: float = 0.0
    utilization_max: float | None = None
    memory_first: int | None = None
    memory_peak: int | None = None
    memory_total: int | None = None

    def add(self, reading: GpuReading) -> None:
        self.samples += 1
        if reading.utilization_percent is not None:
            self.utilization_sum += reading.utilization_percent
            self.utilization_max = max(self.utilization_max or 0.0, reading.utilization_percent)
        if reading.memory_used_bytes is not None:
            if self.memory_first is None:
                self.memory_first = reading.memory_used_bytes
            self.memory_peak = max(self.memory_peak or 0, reading.memory_used_bytes)
        self.memory_total = reading.memory_total_bytes or self.memory_total

    @property
    def used(self) -> bool:
        busy = self.utilization_max is not None and self.utilization_max >= BUSY_PERCENT
        grew = (
            self.memory_peak is not None
            and self.memory_first is not None
            and self.memory_peak - self.memory_first >= MEMORY_MARGIN
        )
        return busy or grew

    def to_dict(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "used": self.used,
            "samples": self.samples,
            "utilization_mean": (
                round(self.utilization_sum / self.samples, 1) if self.samples else None
            ),
            "utilization_max": self.utilization_max,
            "memory_peak_bytes": self.memory_peak,
            "memory_total_bytes": self.memory_total,
        }


@dataclass
class GpuWatch:
    """Samples ``granted`` every ``interval`` seconds in a thread (see :func:`gpu_watch`)."""

    granted: tuple[str, ...]
    sampler: GpuSampler | None
    interval: float = DEFAULT_INTERVAL
    devices: dict[str, DeviceUse] = field(default_factory=dict)
    error: str | None = None
    _stop: threading.Event = field(default_factory=threading.Event)

    def sample_once(self) -> None:
        if self.sampler is None or self.error is not None:
            return
        try:
            readings = self.sampler.sample(self.granted)
        except Exception as exc:  # a sampler that breaks stops sampling; the run goes on
            self.error = f"{type(exc).__name__}: {exc}"
            log.warning("GPU sampling stopped: %s", self.error)
            return
        for reading in readings:
            if reading.index in self.granted:
                self.devices.setdefault(reading.index, DeviceUse(reading.index)).add(reading)

    def loop(self) -> None:
        self.sample_once()
        while not self._stop.wait(self.interval):
            self.sample_once()

    def stop(self) -> None:
        self._stop.set()

    def summary(self) -> dict[str, Any]:
        """The record's ``gpu_usage``: granted, used, the sampler and each device."""
        devices = [self.devices.get(i, DeviceUse(i)).to_dict() for i in self.granted]
        return {
            "granted": len(self.granted),
            "used": sum(1 for device in devices if device["used"]),
            "sampler": self.sampler.name if self.sampler is not None else None,
            "interval_s": self.interval,
            "error": self.error
            or (None if self.sampler is not None else "no GPU sampler on this host"),
            "devices": devices,
        }


_HOST_SAMPLER: list[GpuSampler | None] = []  # found once per process, on first need


def _host_sampler_once() -> GpuSampler | None:
    if not _HOST_SAMPLER:
        _HOST_SAMPLER.append(host_sampler())
    return _HOST_SAMPLER[0]


@contextmanager
def gpu_watch(
    granted: Sequence[str],
    sampler: GpuSampler | None = None,
    interval: float = DEFAULT_INTERVAL,
) -> Iterator[GpuWatch | None]:
    """Sample the ``granted`` GPUs while the block runs; ``None`` when none was granted.

    The first sample is taken before the block starts and the last after it ends, so even a
    short run has two. ``sampler`` defaults to the host's (:func:`host_sampler`).
    """
    if not granted:
        yield None
        return
    watch = GpuWatch(tuple(granted), sampler or _host_sampler_once(), interval)
    thread = threading.Thread(target=watch.loop, name="mlebench-gpu-sampler", daemon=True)
    thread.start()
    try:
        yield watch
    finally:
        watch.stop()
        thread.join(timeout=SMI_TIMEOUT + 5)
        watch.sample_once()


def usage_text(usage: dict[str, Any] | None) -> str | None:
    """``GPUs granted 2, used 1 (nvidia-smi: GPU 0 87 % peak, 10.0 GiB)`` for reports."""
    if not usage:
        return None
    text = f"GPUs granted {usage['granted']}, used {usage['used']}"
    parts = []
    for device in usage.get("devices", []):
        peak = device.get("utilization_max")
        memory = device.get("memory_peak_bytes")
        shown = f"GPU {device['index']} {'-' if peak is None else f'{peak:g} %'} peak"
        if memory is not None:
            shown += f", {memory / 1024**3:.1f} GiB"
        parts.append(shown)
    source = usage.get("sampler") or usage.get("error") or "no sampler"
    if usage.get("sampler") and usage.get("error"):
        source += f", stopped: {usage['error']}"
    return f"{text} ({source}: {'; '.join(parts)})" if parts else f"{text} ({source})"
