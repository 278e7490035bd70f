"""A size limit on a sandbox container's writable layer, where the engine can enforce one.

Docker enforces ``--storage-opt size=…`` only with the ``overlay2`` storage driver on an XFS
backing file system mounted with project quotas (``pquota``), and with a few drivers this
project does not meet in practice (``devicemapper``, ``btrfs``, ``zfs``, ``windowsfilter``).
:func:`layer_limit_options` asks the engine which driver and backing file system it has and
returns the option only for ``overlay2`` on ``xfs``; whether ``pquota`` is on cannot be read from
the engine, so a create that fails for that reason is retried without the limit
(:func:`without_layer_limit`), once per process, with a warning. Elsewhere the writable layer
has no limit of its own: the copy-out's caps (:mod:`pytest_mlebench.sandbox.copy_budget`) bound
what reaches the host, and the engine's disk is the limit inside (docs/sandbox.md says so).
"""

from __future__ import annotations

import logging
from typing import Any

log = logging.getLogger(__name__)

WRITABLE_LAYER_SIZE = "100G"
_unsupported: set[str] = set()


def layer_limit_options(client: Any, size: str = WRITABLE_LAYER_SIZE) -> dict[str, Any]:
    """``{"storage_opt": {"size": size}}`` when the engine can limit the writable layer, else
    ``{}``."""
    try:
        info = client.info()
    except Exception as exc:  # the engine's info is advisory here
        log.debug("no engine info for the writable layer's limit: %s", exc)
        return {}
    driver = str(info.get("Driver") or "")
    status = {str(key): str(value) for key, value in info.get("DriverStatus") or []}
    backing = status.get("Backing Filesystem", "")
    if driver != "overlay2" or backing != "xfs" or driver in _unsupported:
        return {}
    return {"storage_opt": {"size": size}}


def refused_layer_limit(exc: Exception) -> bool:
    """Whether a create failed only because the engine cannot apply the size option (XFS
    without ``pquota``); the limit is then not asked for again by this process."""
    text = str(exc).lower()
    if "storage" in text and ("pquota" in text or "storage-opt" in text or "storage opt" in text):
        _unsupported.add("overlay2")
        log.warning(
            "the Docker engine cannot limit a container's writable layer (overlay2 on XFS needs "
            "the pquota mount option): sandboxes run without that limit"
        )
        return True
    return False
