"""A task's ``builder:`` block: the images the harness builds for it (``docs/engineering.md``).

A task that packages software declares which local images a Dockerfile may start ``FROM``, the
build's limits, whether the agent gets the build endpoint (``build_image.sh``), and the recipe
the harness carries out on the final workspace before the verifier runs: build the Dockerfile,
run the image once on a hidden input, build again after a source-only change (the cache probe).
:func:`parse_builder` reads it and raises :class:`~pytest_mlebench.errors.ConfigError` naming the
file for anything it cannot use.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from pytest_mlebench.errors import ConfigError

KEYS = {
    "from", "timeout_s", "memory", "cpus", "context_mb", "endpoint", "interval_s", "verify",
}  # fmt: skip
VERIFY_KEYS = {"dockerfile", "run", "rebuild_after_change"}
RUN_KEYS = {"args", "input", "output", "timeout_s", "memory", "cpus"}


@dataclass(frozen=True)
class RunRecipe:
    """One ``docker run`` of the built image: its arguments (after the image's entry point), the
    private folder mounted read-only at ``/input``, the folder it writes (handed to the
    verifier), its limits."""

    args: tuple[str, ...]
    input: str | None
    output: str
    timeout_s: float
    memory: str
    cpus: float


@dataclass(frozen=True)
class BuilderSpec:
    """A task's ``builder:`` block, validated."""

    allowed_from: tuple[str, ...]
    timeout_s: float
    memory: str
    cpus: float
    context_bytes: int
    endpoint: bool
    interval_s: float
    dockerfile: str
    run: RunRecipe | None
    rebuild_after_change: str | None


def parse_builder(value: Any, where: str) -> BuilderSpec | None:
    """The ``builder:`` block of ``config.yaml`` at ``where`` (``None`` when it has none)."""
    if value is None:
        return None
    raw = _mapping(value, "builder", where, KEYS)
    allowed = raw.get("from")
    if not isinstance(allowed, list) or not allowed or not all(isinstance(t, str) for t in allowed):
        raise ConfigError(f"{where}: builder.from must list the local image tags a FROM may name")
    verify = _mapping(raw.get("verify") or {}, "builder.verify", where, VERIFY_KEYS)
    change = verify.get("rebuild_after_change")
    return BuilderSpec(
        allowed_from=tuple(allowed),
        timeout_s=_positive(raw.get("timeout_s", 180), "builder.timeout_s", where),
        memory=str(raw.get("memory", "1g")),
        cpus=_positive(raw.get("cpus", 1), "builder.cpus", where),
        context_bytes=int(
            _positive(raw.get("context_mb", 64), "builder.context_mb", where) * 2**20
        ),
        endpoint=bool(raw.get("endpoint", True)),
        interval_s=_positive(raw.get("interval_s", 5), "builder.interval_s", where),
        dockerfile=str(verify.get("dockerfile", "Dockerfile")),
        run=_run(verify.get("run"), where),
        rebuild_after_change=None if change is None else str(change),
    )


def _run(value: Any, where: str) -> RunRecipe | None:
    if value is None:
        return None
    raw = _mapping(value, "builder.verify.run", where, RUN_KEYS)
    args = raw.get("args") or []
    if not isinstance(args, list) or not all(isinstance(arg, str) for arg in args):
        raise ConfigError(f"{where}: builder.verify.run.args must be a list of texts")
    output = str(raw.get("output", "/output"))
    if not output.startswith("/"):
        raise ConfigError(f"{where}: builder.verify.run.output must be an absolute path")
    return RunRecipe(
        args=tuple(args),
        input=None if raw.get("input") is None else str(raw["input"]),
        output=output,
        timeout_s=_positive(raw.get("timeout_s", 60), "builder.verify.run.timeout_s", where),
        memory=str(raw.get("memory", "512m")),
        cpus=_positive(raw.get("cpus", 1), "builder.verify.run.cpus", where),
    )


def _mapping(value: Any, key: str, where: str, known: set[str]) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: {key} must be a mapping")
    unknown = sorted(set(value) - known)
    if unknown:
        raise ConfigError(
            f"{where}: {key} has unknown keys {', '.join(map(str, unknown))} "
            f"(known: {', '.join(sorted(known))})"
        )
    return value


def _positive(value: Any, key: str, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ConfigError(f"{where}: {key} must be a positive number, got {value!r}")
    if value <= 0:
        raise ConfigError(f"{where}: {key} must be a positive number, got {value!r}")
    return float(value)
