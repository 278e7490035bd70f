"""How often a live run is snapshotted (``--mle-checkpoint-every``), how much one may copy
(``--mle-checkpoint-cap``), and the path ``--mle-resume`` names, as the settings read them.

A duration is digits with an optional unit (``s``, ``m``, ``h``; bare digits are seconds):
``30m``, ``10s``, ``2h``, ``90``. ``0`` and ``off`` turn snapshots off. A run whose time limit is
not longer than the interval takes none (its first snapshot would come after its end).
"""

from __future__ import annotations

import re
from pathlib import Path

DEFAULT_EVERY = "30m"
UNITS = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0}
_DURATION = re.compile(r"^(\d+(?:\.\d+)?)\s*([smh]?)$")


def parse_every(value: object) -> float | None:
    """``--mle-checkpoint-every``'s value in seconds; ``None`` when off (``0`` or ``off``).

    Raises:
        ValueError: Not a duration (the message shows the accepted forms).
    """
    spelled = str(value).strip().lower()
    if spelled in ("off", "no", "none"):
        return None
    match = _DURATION.match(spelled)
    if match is None:
        raise ValueError("expected a duration like 30m, 10s or 2h, or 0/off to turn it off")
    seconds = float(match.group(1)) * UNITS[match.group(2)]
    return seconds if seconds > 0 else None


def interval_for(every: float | None, time_limit: float) -> float | None:
    """The interval a run of ``time_limit`` seconds snapshots at; ``None``: it takes none."""
    if every is None or every >= time_limit:
        return None
    return every


def parse_cap(value: object) -> int:
    """``--mle-checkpoint-cap``'s value in bytes: a size like ``2g`` or ``500m``.

    Raises:
        ValueError: Not a positive size.
    """
    match = re.fullmatch(r"(\d+)([kmgt]?)", str(value).strip().lower())
    if match is None or int(match.group(1)) <= 0:
        raise ValueError("expected a size like 2g or 500m")
    number, unit = int(match.group(1)), " kmgt".index(match.group(2) or " ")
    return number * (1 << (10 * unit))


def resume_source(value: object, base: Path) -> Path | None:
    """``--mle-resume``'s path, relative to ``base``: it must exist (what it holds is checked
    when the session plans the resume)."""
    if value is None:
        return None
    path = (base / Path(str(value)).expanduser()).resolve()
    if not path.exists():
        raise ValueError(
            f"no such file or folder: {path} (give a results file, a reports folder, a runs/ "
            "folder or one run folder)"
        )
    return path
