"""Linux namespaces for the local backend: read-only data, hidden answers, no network.

Where ``unshare`` and ``setpriv`` work (as root, or as a user with unprivileged user namespaces),
the local backend wraps the agent's command so that it runs

- in its own mount namespace, where the sandbox's data folder is bind-mounted read-only and every
  *hidden* host path (the data cache with the answers, credentials) is covered by an empty,
  unreadable tmpfs;
- in its own PID namespace (it cannot see or signal the harness, and the whole namespace dies
  with the harness, even a ``kill -9`` of it) and, with network ``none``, its
  own network namespace (no interface but loopback, which is raised so that the LLM gateway's
  forwarder can listen on ``localhost``);
- with every capability dropped and ``no_new_privs`` set, so it cannot undo the mounts even when
  its user id is 0.

Nothing here limits memory or CPU, and the agent still runs the host's Python: the Docker backend
remains the isolated one. Without namespaces the local backend falls back to file modes alone.
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

PROBE_TIMEOUT_SECONDS = 10
# Raises the loopback interface of a fresh network namespace (SIOCGIFFLAGS, then SIOCSIFFLAGS
# with IFF_UP), so the LLM gateway's forwarder can listen on localhost; nothing else goes up.
LOOPBACK_UP = (
    "import fcntl, socket, struct; s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM); "
    "f = struct.unpack('16sH', fcntl.ioctl(s, 0x8913, struct.pack('16sH', b'lo', 0))[:18])[1]; "
    "fcntl.ioctl(s, 0x8914, struct.pack('16sH', b'lo', f | 1))"
)


def _base_flags() -> list[str]:
    flags = ["--mount", "--propagation", "private", "--pid", *_fork_flag(), "--mount-proc"]
    if os.geteuid() != 0:
        flags = ["--user", "--map-root-user", *flags]
    return flags


@functools.cache
def _fork_flag() -> list[str]:
    """``--kill-child`` (util-linux 2.32+), else ``--fork``.

    With ``--kill-child``, when ``unshare`` dies (with the harness, see :mod:`.process`) the
    namespace's first process gets SIGKILL, and with it the kernel kills every process of the PID
    namespace. An older ``unshare`` still isolates, but a killed harness leaves the agent running.
    """
    try:
        usage = subprocess.run(["unshare", "--help"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return ["--fork"]
    return ["--kill-child"] if "--kill-child" in usage.stdout else ["--fork"]


@functools.cache
def namespaces_unavailable() -> str | None:
    """``None`` when the wrapper works on this machine, else why not (checked once per process)."""
    missing = [tool for tool in ("unshare", "setpriv") if shutil.which(tool) is None]
    if missing:
        return f"{' and '.join(missing)} not found (util-linux)"
    probe = wrap_command(["true"], read_only=(), hidden=(), isolate_network=True)
    try:
        done = subprocess.run(probe, capture_output=True, timeout=PROBE_TIMEOUT_SECONDS)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return f"unshare failed ({exc})"
    if done.returncode != 0:
        return f"unshare failed: {done.stderr.decode(errors='replace').strip()[:200]}"
    return None


def wrap_command(
    command: Sequence[str],
    *,
    read_only: Sequence[Path],
    hidden: Sequence[Path],
    isolate_network: bool,
) -> list[str]:
    """``command`` wrapped in ``unshare`` + mounts + ``setpriv`` (see the module docstring)."""
    steps = ["set -e"]
    if isolate_network:
        steps.append(f"{shlex.quote(sys.executable)} -c {shlex.quote(LOOPBACK_UP)}")
    for folder in read_only:
        path = shlex.quote(str(folder))
        steps.append(f"mount --bind {path} {path}")
        steps.append(f"mount -o remount,bind,ro {path}")
    for folder in hidden:
        path = shlex.quote(str(folder))
        steps.append(f"if [ -d {path} ]; then mount -t tmpfs -o size=4k,mode=000 tmpfs {path}; fi")
    steps.append('exec setpriv --bounding-set=-all --inh-caps=-all --no-new-privs -- "$@"')
    flags = _base_flags() + (["--net"] if isolate_network else [])
    return ["unshare", *flags, "sh", "-c", "\n".join(steps), "sh", *command]


def maskable(hidden: Sequence[Path], sandbox_root: Path) -> list[Path]:
    """Hidden paths that exist and do not contain the sandbox (masking those would hide it too)."""
    root = sandbox_root.resolve()
    keep = []
    for path in hidden:
        resolved = path.expanduser().resolve()
        if resolved.is_dir() and not root.is_relative_to(resolved):
            keep.append(resolved)
    return keep
