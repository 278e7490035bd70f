"""Who the verifier's door runs the agent's programs as, and what it closes first.

In the verifier's container (PID 1 runs the verifier's pytest plugin) the verifier is root and
the door drops every program to ``nobody``; before the first one starts, the results folder
becomes root-only and the hidden folders must already be closed to other users. Outside such a
container (the local backend) nothing here acts. Standard library only, like its siblings.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

VERIFIER_PLUGIN = "mlebench_verify"  # the verifier container's PID 1 runs pytest with it
AGENT_UID = 65534  # "nobody": the agent's code never runs as the verifier's root
_SEALED: list[bool] = []


class UnsafeVerifier(RuntimeError):
    """The verifier asked the door for something it must not do (a harness or task fault)."""


def in_verifier_container() -> bool:
    """True only when PID 1 is the verifier's own command (a fresh verifier container): on the
    local backend no process is ever touched."""
    try:
        return VERIFIER_PLUGIN.encode() in Path("/proc/1/cmdline").read_bytes()
    except OSError:
        return False


def privileged() -> bool:
    """True where the door drops to ``nobody``: root in the verifier's container."""
    return os.geteuid() == 0 and in_verifier_container()


def seal_hidden() -> None:
    """Before the first program starts (privileged only): the results folder root-only, and
    :class:`UnsafeVerifier` when a hidden folder is open to other users."""
    if _SEALED or not privileged():
        return
    out = os.environ.get("VERIFY_OUT")
    if out:
        Path(out).mkdir(parents=True, exist_ok=True)
        os.chmod(out, 0o700)
    for name in (os.environ.get("PRIVATE_DIR"), os.environ.get("VERIFY_DIR", "/verify")):
        if name and Path(name).exists():
            _require_root_only(Path(name))
    _SEALED.append(True)


def _require_root_only(folder: Path) -> None:
    info = folder.stat()
    if info.st_uid != AGENT_UID and not stat.S_IMODE(info.st_mode) & 0o077:
        return  # the owner (root, or the harness's user on a bind mount) alone
    try:
        os.chown(folder, 0, 0)
        os.chmod(folder, 0o700)
    except OSError as exc:
        raise UnsafeVerifier(
            f"{folder} is open to other users (mode {stat.S_IMODE(info.st_mode):o}) and cannot be"
            f" closed ({exc}): the harness must stage it root-only (0700)"
        ) from None
