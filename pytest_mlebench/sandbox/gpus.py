"""GPUs for sandboxes: detect them, and lend each sandbox its own from a pool shared by processes.

xdist workers are separate processes, so the pool's state is a JSON lease file guarded by a file
lock in a folder they share: ``{"0": {"owner": "host:pid:start", "since": 1700000000.0}, ...}``.
A lease whose owner process died (a crashed worker) is taken back on the next lease. The Docker
backend passes the leased ids as a ``DeviceRequest``; the local backend as
``CUDA_VISIBLE_DEVICES``.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import subprocess
import time
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path

from filelock import FileLock

from pytest_mlebench.atomic_write import write_atomically
from pytest_mlebench.errors import SandboxError
from pytest_mlebench.sandbox.docker.cleanup import owner_alive, owner_token

log = logging.getLogger(__name__)

LEASE_FILE = "gpu-leases.json"
LOCK_FILE = "gpu-leases.lock"
GPU_LINE = re.compile(r"^GPU (\d+):")
DETECT_TIMEOUT = 20

Leases = dict[str, dict[str, object]]


def detect_gpus() -> tuple[str, ...]:
    """Indices of the NVIDIA GPUs ``nvidia-smi -L`` lists; empty without a driver or a GPU."""
    binary = shutil.which("nvidia-smi")
    if binary is None:
        return ()
    try:
        listing = subprocess.run(
            [binary, "-L"], capture_output=True, text=True, timeout=DETECT_TIMEOUT, check=True
        ).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        log.warning("nvidia-smi -L failed, treating the machine as having no GPU: %s", exc)
        return ()
    return parse_gpu_listing(listing)


def parse_gpu_listing(listing: str) -> tuple[str, ...]:
    """GPU indices from ``nvidia-smi -L`` output (``GPU 0: NVIDIA A10 (UUID: GPU-…)``)."""
    return tuple(match.group(1) for line in listing.splitlines() if (match := GPU_LINE.match(line)))


def select_gpus(option: str, detected: Sequence[str]) -> tuple[str, ...]:
    """The devices a session may hand out for ``--mle-gpus`` (auto, none, all or a count).

    ``auto`` is every detected GPU (none on a machine without one); ``all`` and a count insist
    on GPUs being there.
    """
    choice = option.strip().lower()
    if choice in ("none", "0"):
        return ()
    if choice == "auto":
        return tuple(detected)
    if not detected:
        raise SandboxError(f"--mle-gpus {option}: no GPU found (nvidia-smi -L lists none)")
    if choice == "all":
        return tuple(detected)
    if not choice.isdigit():
        raise SandboxError(f"--mle-gpus {option}: expected auto, none, all or a number of GPUs")
    wanted = int(choice)
    if wanted > len(detected):
        raise SandboxError(f"--mle-gpus {wanted}: only {len(detected)} GPU(s) found")
    return tuple(detected[:wanted])


def gpus_wanted(competition_gpus: int, per_sandbox: int | None) -> int:
    """GPUs one sandbox leases: ``--mle-gpus-per-sandbox`` when given, else the competition's
    ``resources.gpus`` (0: the run gets no GPU, whatever the pool holds)."""
    return competition_gpus if per_sandbox is None else per_sandbox


class GpuPool:
    """Hands each sandbox ``k`` devices no other sandbox holds, across processes.

    Args:
        lease_dir: Folder shared by every process of the session (lease file and lock live here).
        devices: The devices the pool may lend (from :func:`select_gpus`).
        wait_timeout: Seconds a lease waits for devices to come free before giving up.
        poll_interval: Seconds between looks at the lease file while waiting.
    """

    def __init__(
        self,
        lease_dir: Path,
        devices: Sequence[str],
        *,
        wait_timeout: float = 3600.0,
        poll_interval: float = 0.5,
    ) -> None:
        self.lease_dir = lease_dir
        self.devices = tuple(devices)
        self.wait_timeout = wait_timeout
        self.poll_interval = poll_interval
        lease_dir.mkdir(parents=True, exist_ok=True)
        self._lock = FileLock(str(lease_dir / LOCK_FILE))

    @contextmanager
    def lease(self, k: int) -> Iterator[tuple[str, ...]]:
        """Hold ``k`` devices for the ``with`` block; ``()`` when ``k`` is 0."""
        if k <= 0:
            yield ()
            return
        if k > len(self.devices):
            raise SandboxError(
                f"a sandbox wants {k} GPU(s) but the pool has {len(self.devices)}: "
                "raise --mle-gpus, or lower --mle-gpus-per-sandbox (default: the "
                "competition's resources.gpus)"
            )
        taken = self._acquire(k)
        try:
            yield taken
        finally:
            self._release(taken)

    def holders(self) -> Leases:
        """The current leases (stale ones included), for reports and tests."""
        with self._lock:
            return self._read()

    def _acquire(self, k: int) -> tuple[str, ...]:
        give_up = time.monotonic() + self.wait_timeout
        while True:
            taken = self._try_acquire(k)
            if taken:
                return taken
            if time.monotonic() >= give_up:
                raise SandboxError(f"no {k} GPU(s) came free within {self.wait_timeout:.0f} s")
            time.sleep(self.poll_interval)

    def _try_acquire(self, k: int) -> tuple[str, ...]:
        with self._lock:
            leases = {
                device: lease
                for device, lease in self._read().items()
                if owner_alive(str(lease.get("owner", "")))
            }
            free = [device for device in self.devices if device not in leases]
            if len(free) < k:
                return ()
            taken = tuple(free[:k])
            me = {"owner": owner_token(), "since": time.time()}
            self._write({**leases, **{device: dict(me) for device in taken}})
            return taken

    def _release(self, taken: tuple[str, ...]) -> None:
        with self._lock:
            leases = self._read()
            for device in taken:
                leases.pop(device, None)
            self._write(leases)

    def _read(self) -> Leases:
        try:
            loaded = json.loads((self.lease_dir / LEASE_FILE).read_text("utf-8"))
        except FileNotFoundError:
            return {}
        except (OSError, ValueError) as exc:
            log.warning("unreadable GPU lease file, starting afresh: %s", exc)
            return {}
        return loaded if isinstance(loaded, dict) else {}

    def _write(self, leases: Leases) -> None:
        write_atomically(self.lease_dir / LEASE_FILE, json.dumps(leases, indent=1, sort_keys=True))
