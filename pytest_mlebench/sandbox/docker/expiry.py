"""A container's own expiry: it stops itself at its deadline plus a grace, whoever is left.

The container's main process (under the engine's init) is a small shell loop, the *lease
keeper*, instead of ``sleep infinity``. It sleeps for the seconds written in a root-only lease
file and, when that sleep ends without a renewal, exits: the container stops, and every process
in it dies. Nothing outside the container has to be alive for this, so a ``kill -9`` of the whole
pytest process group, a dead xdist worker or a dead Ray driver still leaves no running container
once the lease ends. The stopped container keeps its files (no auto-remove): a harness that was
only stalled can still copy the submission out of it, and the owner-label reaper removes it
(with its egress network) at the next session or ``mlebench sandbox cleanup``.

The harness renews the lease before each thing it does in the container, so the container stays
fully usable while the harness lives:

- at creation the lease is the run's time limit plus the grace;
- before a command with a timeout (the agent's run, the integrity inventory) it covers that
  timeout plus the grace, counted from when the command starts;
- before each copy in or out it covers at least half the grace.

A renewal is one short root exec that writes the new seconds and wakes the keeper, which replaces
its current sleep by the new lease; it is skipped when the lease already covers the step with half
the grace to spare, so a normal run renews at most once or twice. Copy-out after the agent's
deadline therefore always starts with at least half the grace left: the agent is killed at its
deadline, the submission, logs and code are copied out, then the harness removes the container
itself. The grace must cover the longest single copy-out (a large ``/home/code`` from a remote
engine); ``--mle-sandbox-grace`` sets it.

Lease seconds are relative (written as a duration, read inside the container), so a remote engine
whose clock differs from the harness's does not shorten or lengthen them. No order of the keeper
and a renewal loses the renewal: its seconds are slept in full, from a moment after it was written
(the harness only renews to a later end). The agent runs as ``nonroot`` without capabilities: it
can neither write the lease file nor signal the keeper. The keeper is also the harness's killer of
last resort (``USR2``, :mod:`.killer`): a root shell that predates the agent and kills with a
builtin, so the agent cannot use up the container's pids to escape it.
"""

from __future__ import annotations

import logging
import math
import time
from dataclasses import dataclass
from typing import Any

from pytest_mlebench.errors import SandboxError
from pytest_mlebench.sandbox.docker.engine import import_docker

log = logging.getLogger(__name__)

LEASE_FILE = "/run/mlebench-lease"
# Reads of the pids count the keeper makes at most while the killed processes are reaped (a few
# microseconds each: seconds in all on a loaded host).
SETTLE_READS = 400_000
# The keeper: sleep the lease, again while the harness renews it, then exit (the container stops).
# A renewal writes the lease file and sends USR1 (which ends the keeper's ``wait``). The keeper
# takes each lease by renaming the file, and exits only when its sleep has ended *and* no lease is
# waiting, so no order of the two sides loses a renewal or ends a lease early. Its sleeps are
# spelled ``sleep <N>s`` (the process audit leaves that spelling out).
# USR2 (sent by the harness through the engine, :mod:`.killer`) runs the builtin ``kill -KILL -1``:
# every process but init and the keeper dies, with no fork (so even at the container's pids
# limit), and the keeper re-arms its last lease, whose sleep that kill ended too. Before its next
# fork the keeper waits, with builtins only, until the engine's init has reaped the killed
# processes: a zombie still holds its pids slot, and a shell whose fork fails exits, which would
# stop the container. The wait reads the cgroup's pids count (v2, else v1; no file: no wait),
# kills again now and then, and gives up after a bounded number of reads.
KEEPER_SCRIPT = f"""trap : USR1
lease={LEASE_FILE}
settle() {{
  f=/sys/fs/cgroup/pids.current
  [ -r "$f" ] || f=/sys/fs/cgroup/pids/pids.current
  [ -r "$f" ] || return 0
  i=0
  while [ "$i" -lt {SETTLE_READS} ]; do
    read -r n < "$f" || return 0
    [ "$n" -le 2 ] && return 0
    [ $((i % 500)) -eq 0 ] && kill -KILL -1 2>/dev/null
    i=$((i + 1))
  done
}}
rearm() {{ read -r again < "$lease.taken"; echo "$again" > "$lease"; }}
trap 'kill -KILL -1 2>/dev/null; settle; rearm' USR2
echo $$ > "$lease.pid"
echo "$1" > "$lease"
child=
while :; do
  if mv -f "$lease" "$lease.taken" 2>/dev/null; then
    if [ -n "$child" ]; then kill "$child" 2>/dev/null; wait "$child"; fi
    read -r seconds < "$lease.taken"
    sleep "${{seconds}}s" &
    child=$!
  elif ! kill -0 "$child" 2>/dev/null; then
    exit 0
  fi
  wait "$child"
done"""
# One renewal: write the new seconds atomically, then wake the keeper.
RENEW_SCRIPT = (
    f'echo "$1" > {LEASE_FILE}.tmp && mv {LEASE_FILE}.tmp {LEASE_FILE} && '
    f"kill -USR1 $(cat {LEASE_FILE}.pid) 2>/dev/null; true"
)


def keeper_command(seconds: int) -> list[str]:
    """The container's command: the lease keeper with a first lease of ``seconds``."""
    return ["sh", "-c", KEEPER_SCRIPT, "mlebench-lease", str(seconds)]


def lease_seconds(step_seconds: float, grace: float) -> int:
    """Seconds a lease must run to cover a step of ``step_seconds`` and then the grace."""
    return max(1, math.ceil(step_seconds + grace))


@dataclass
class Lease:
    """The harness's view of a container's lease: when the keeper stops, on this clock.

    ``ends`` is a ``time.monotonic()`` value; it errs early (a renewal is counted from before the
    exec that makes it), so the container never stops before the harness expects it to.
    """

    grace: float
    ends: float = 0.0

    def started(self, seconds: int, now: float) -> None:
        self.ends = now + seconds

    def needs_renewal(self, step_seconds: float, now: float) -> bool:
        """Whether the lease ends less than half the grace after a step of ``step_seconds``."""
        return now + step_seconds + self.grace / 2 > self.ends

    def forget(self) -> None:
        """The container restarted (its keeper began a fresh first lease): renew next time."""
        self.ends = 0.0


def renew_lease(
    container: Any, lease: Lease, step_seconds: float, *, must_run: bool = True
) -> None:
    """Make ``container`` outlive a step of ``step_seconds`` by the grace (when it must).

    Args:
        must_run: The step needs a running container (an exec); a copy-out does not, it reads
            the files of a stopped one as well.

    Raises:
        SandboxError: the container has stopped already (its lease ended: the harness was
            stalled for longer than the grace) and ``must_run`` is set.
    """
    now = time.monotonic()
    if not lease.needs_renewal(step_seconds, now):
        return
    seconds = lease_seconds(step_seconds, lease.grace)
    command = ["sh", "-c", RENEW_SCRIPT, "mlebench-lease", str(seconds)]
    try:
        code, output = container.exec_run(command, user="root")
    except import_docker().errors.APIError as exc:  # 409: not running; 404: removed already
        if not must_run:
            log.warning("container %s stopped at its expiry: %s", container.name, exc)
            return
        raise SandboxError(
            "the Docker sandbox stopped itself at its deadline plus the grace "
            f"(--mle-sandbox-grace) before the harness was done with it: {exc}"
        ) from exc
    if code != 0:
        raise SandboxError(f"could not renew the sandbox's lease: {output.decode().strip()}")
    lease.started(seconds, now)
    log.debug("container %s: lease renewed for %d s", getattr(container, "name", "?"), seconds)
