"""One frozen :class:`Settings`, resolved once from CLI > environment > ini > default.

Every ``--mle-*`` option is declared in :data:`OPTIONS` with its help text, environment variable,
ini key and validator, so ``pytest --help``, the ini file and the ``mlebench`` CLI cannot drift.
A bad value raises ``pytest.UsageError`` naming where the value came from and what is allowed.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pytest

from pytest_mlebench.data import default_data_dir

GROUP = "mlebench"
REQUIRE_LEVELS = ("none", "valid", "above-median", "bronze", "silver", "gold")
SANDBOXES = ("auto", "local", "docker")
NETWORKS = ("none", "bridge")
RERUN_KINDS = ("failed", "error", "invalid", "no-medal", "timeout", "skipped")
Require = Literal["none", "valid", "above-median", "bronze", "silver", "gold"]


@dataclass(frozen=True)
class OptionSpec:
    """One ``--mle-*`` option: help text, where else it can be set, and how it is checked."""

    name: str
    help: str
    default: str | None
    env: str | None = None
    choices: tuple[str, ...] = ()
    metavar: str | None = None
    append: bool = False
    flag: bool = False

    @property
    def dest(self) -> str:
        return self.name.lstrip("-").replace("-", "_")

    @property
    def ini(self) -> str:
        return self.dest


OPTIONS: tuple[OptionSpec, ...] = (
    OptionSpec(
        "--mle-agent",
        "agent to run: a built-in name (see 'mlebench agents') "
        "or the path of an agent folder with config.yaml",
        "dummy",
        "MLEBENCH_AGENT",
        metavar="NAME",
    ),
    OptionSpec(
        "--mle-sandbox",
        "where agents run: docker (isolated), local (no isolation) or "
        "auto (docker when an engine answers, else local with a warning)",
        "auto",
        "MLEBENCH_SANDBOX",
        SANDBOXES,
    ),
    OptionSpec(
        "--mle-data-dir",
        "folder for downloaded and prepared competition data "
        "(default: $XDG_CACHE_HOME/mlebench, i.e. ~/.cache/mlebench)",
        None,
        "MLEBENCH_DATA_DIR",
        metavar="DIR",
    ),
    OptionSpec(
        "--mle-competitions-dir",
        "extra folder of competition definitions (repeatable; later folders win on id clashes)",
        None,
        "MLEBENCH_COMPETITIONS_DIRS",
        metavar="DIR",
        append=True,
    ),
    OptionSpec(
        "--mle-seeds",
        "runs per competition, seeds 0..N-1; test ids get a -s<seed> suffix when N > 1",
        "1",
        "MLEBENCH_SEEDS",
        metavar="N",
    ),
    OptionSpec(
        "--mle-time-limit",
        "seconds each agent run gets, overriding the competition's time_limit",
        None,
        "MLEBENCH_TIME_LIMIT",
        metavar="SECONDS",
    ),
    OptionSpec(
        "--mle-require",
        "what a run must reach to pass: " + ", ".join(REQUIRE_LEVELS),
        "valid",
        "MLEBENCH_REQUIRE",
        REQUIRE_LEVELS,
    ),
    OptionSpec(
        "--mle-results",
        "JSON-lines file each finished run is appended to (relative to where pytest starts)",
        "reports/results.jsonl",
        "MLEBENCH_RESULTS",
        metavar="FILE",
    ),
    OptionSpec(
        "--mle-network",
        "sandbox network: none (isolated) or bridge (for agents that call an API)",
        "none",
        "MLEBENCH_NETWORK",
        NETWORKS,
    ),
    OptionSpec(
        "--mle-cpus",
        "CPUs per sandbox (default: the competition's resources.cpus)",
        None,
        "MLEBENCH_CPUS",
        metavar="N",
    ),
    OptionSpec(
        "--mle-memory",
        "memory limit per sandbox, e.g. 8g (default: the competition's resources.memory)",
        None,
        "MLEBENCH_MEMORY",
        metavar="SIZE",
    ),
    OptionSpec(
        "--mle-shm",
        "shared memory per sandbox, e.g. 2g (default: the competition's resources.shm)",
        None,
        "MLEBENCH_SHM",
        metavar="SIZE",
    ),
    OptionSpec(
        "--mle-pids",
        "process limit per sandbox (default: the competition's resources.pids)",
        None,
        "MLEBENCH_PIDS",
        metavar="N",
    ),
    OptionSpec(
        "--mle-gpus",
        "GPUs the session may hand out: auto, none, all or a count",
        "auto",
        "MLEBENCH_GPUS",
        metavar="auto|none|all|N",
    ),
    OptionSpec(
        "--mle-gpus-per-sandbox",
        "GPUs each sandbox gets from the pool (default: the competition's resources.gpus)",
        None,
        "MLEBENCH_GPUS_PER_SANDBOX",
        metavar="K",
    ),
    OptionSpec(
        "--mle-privileged",
        "allow agents whose config asks for privileged containers (yes/no)",
        "no",
        "MLEBENCH_PRIVILEGED",
        ("yes", "no"),
    ),
    OptionSpec(
        "--mle-baseline",
        "summary.json or results file to compare this session with; the session fails when "
        "the any-medal or valid-submission rate drops more than --mle-max-drop",
        None,
        "MLEBENCH_BASELINE",
        metavar="FILE",
    ),
    OptionSpec(
        "--mle-max-drop",
        "percentage points the any-medal or valid-submission rate may drop below --mle-baseline",
        "0",
        "MLEBENCH_MAX_DROP",
        metavar="POINTS",
    ),
    OptionSpec(
        "--mle-rerun",
        "run only the (competition, seed) pairs of --mle-from whose run was one of: "
        + ", ".join(RERUN_KINDS)
        + " (comma-separated)",
        None,
        "MLEBENCH_RERUN",
        metavar="KINDS",
    ),
    OptionSpec(
        "--mle-from",
        "summary.json or results file that --mle-rerun selects from",
        None,
        "MLEBENCH_FROM",
        metavar="FILE",
    ),
    OptionSpec(
        "--mle-progress",
        "seconds between one-line status updates of running competitions (state changes are "
        "printed as they happen); 0 turns live progress off",
        "60",
        "MLEBENCH_PROGRESS",
        metavar="SECONDS",
    ),
    OptionSpec(
        "--mle-clean-alluredir",
        "empty the --alluredir folder once, on the controller, before any test runs (unlike "
        "--clean-alluredir, safe under xdist)",
        "no",
        "MLEBENCH_CLEAN_ALLUREDIR",
        flag=True,
    ),
)


@dataclass(frozen=True)
class Settings:
    """Resolved ``--mle-*`` settings of one session."""

    agent: str
    sandbox: str
    data_dir: Path
    competitions_dirs: tuple[Path, ...]
    seeds: int
    time_limit: int | None
    require: Require
    results_path: Path
    network: str
    cpus: float | None
    memory: str | None
    shm: str | None
    gpus: str
    gpus_per_sandbox: int | None
    privileged: bool
    baseline: Path | None = None
    max_drop: float = 0.0
    rerun: frozenset[str] = frozenset()
    rerun_from: Path | None = None
    progress: float = 60.0
    clean_alluredir: bool = False
    pids: int | None = None


def add_options(parser: pytest.Parser) -> None:
    """Declare every option in :data:`OPTIONS` (and its ini key) on pytest's parser."""
    group = parser.getgroup(GROUP, "pytest-mlebench: run agents on MLE-bench competitions")
    for spec in OPTIONS:
        extra = f" [env {spec.env}]" if spec.env else ""
        if spec.flag:
            group.addoption(
                spec.name,
                dest=spec.dest,
                action="store_const",
                const="yes",
                default=None,
                help=f"{spec.help}{extra}",
            )
        else:
            group.addoption(
                spec.name,
                dest=spec.dest,
                action="append" if spec.append else "store",
                default=None,
                choices=spec.choices or None,
                metavar=spec.metavar,
                help=f"{spec.help}{extra}",
            )
        parser.addini(spec.ini, help=spec.help, type="string", default=None)


def resolve_settings(config: pytest.Config) -> Settings:
    """Resolve all settings for this session; raise ``pytest.UsageError`` on a bad value."""
    values = {spec.dest: _raw_value(config, spec) for spec in OPTIONS}
    return build_settings(values, config.invocation_params.dir)


def build_settings(values: dict[str, tuple[Any, str]], base: Path) -> Settings:
    """Settings from ``dest → (value, source)`` pairs; shared with the ``mlebench`` CLI."""

    def get(dest: str) -> Any:
        return values[dest][0]

    def check(dest: str, parse: Callable[[Any], Any]) -> Any:
        value, source = values[dest]
        try:
            return parse(value)
        except ValueError as exc:
            raise pytest.UsageError(
                f"invalid {dest.replace('_', '-')} {value!r} from {source}: {exc}"
            ) from None

    data_dir = Path(get("mle_data_dir")).expanduser() if get("mle_data_dir") else default_data_dir()
    results = Path(get("mle_results"))
    rerun = check("mle_rerun", _rerun_kinds)
    rerun_from = check("mle_from", lambda v: _existing_file(v, base))
    if bool(rerun) != bool(rerun_from):
        raise pytest.UsageError(
            "--mle-rerun and --mle-from go together: --mle-rerun failed --mle-from "
            "reports/summary.json"
        )
    return Settings(
        agent=str(get("mle_agent")),
        sandbox=check("mle_sandbox", lambda v: _choice(v, SANDBOXES)),
        data_dir=data_dir.resolve(),
        competitions_dirs=tuple(check("mle_competitions_dir", _existing_dirs)),
        seeds=check("mle_seeds", lambda v: _positive_int(v)),
        time_limit=check("mle_time_limit", lambda v: None if v is None else _positive_int(v)),
        require=check("mle_require", lambda v: _choice(v, REQUIRE_LEVELS)),
        results_path=results if results.is_absolute() else base / results,
        network=check("mle_network", lambda v: _choice(v, NETWORKS)),
        cpus=check("mle_cpus", lambda v: None if v is None else _positive_float(v)),
        memory=check("mle_memory", lambda v: None if v is None else _size(v)),
        shm=check("mle_shm", lambda v: None if v is None else _size(v)),
        gpus=check("mle_gpus", _gpus),
        gpus_per_sandbox=check(
            "mle_gpus_per_sandbox", lambda v: None if v is None else _positive_int(v)
        ),
        privileged=check("mle_privileged", lambda v: _choice(v, ("yes", "no")) == "yes"),
        baseline=check("mle_baseline", lambda v: _existing_file(v, base)),
        max_drop=check("mle_max_drop", _non_negative_float),
        rerun=rerun,
        rerun_from=rerun_from,
        progress=check("mle_progress", _non_negative_float),
        clean_alluredir=check("mle_clean_alluredir", lambda v: _choice(v, ("yes", "no")) == "yes"),
        pids=check("mle_pids", lambda v: None if v is None else _positive_int(v)),
    )


def _raw_value(config: pytest.Config, spec: OptionSpec) -> tuple[Any, str]:
    cli = config.getoption(spec.dest, default=None)
    if cli is not None:
        return cli, f"option {spec.name}"
    if spec.env and os.environ.get(spec.env):
        env_value: Any = os.environ[spec.env]
        if spec.append:
            env_value = [part for part in env_value.split(os.pathsep) if part]
        return env_value, f"environment variable {spec.env}"
    ini = config.getini(spec.ini)
    if ini:
        return ([ini] if spec.append else ini), f"ini option {spec.ini}"
    return ([] if spec.append else spec.default), "default"


def _choice(value: Any, allowed: Sequence[str]) -> str:
    if value not in allowed:
        raise ValueError(f"choose one of {', '.join(allowed)}")
    return str(value)


def _positive_int(value: Any) -> int:
    try:
        number = int(str(value))
    except ValueError:
        raise ValueError("expected a positive whole number") from None
    if number <= 0:
        raise ValueError("expected a positive whole number")
    return number


def _positive_float(value: Any) -> float:
    try:
        number = float(str(value))
    except ValueError:
        raise ValueError("expected a positive number") from None
    if number <= 0:
        raise ValueError("expected a positive number")
    return number


def _size(value: Any) -> str:
    text = str(value).strip().lower()
    digits = text[:-1] if text[-1:] in ("k", "m", "g", "t") else text
    if not digits.isdigit() or int(digits) <= 0:
        raise ValueError("expected a size like 512m or 8g")
    return text


def _gpus(value: Any) -> str:
    text = str(value).strip().lower()
    if text in ("auto", "none", "all") or (text.isdigit() and int(text) >= 0):
        return text
    raise ValueError("expected auto, none, all or a number of GPUs")


def _existing_dirs(values: Sequence[str]) -> list[Path]:
    folders = [Path(v).expanduser().resolve() for v in values]
    missing = [str(f) for f in folders if not f.is_dir()]
    if missing:
        raise ValueError(f"no such folder: {', '.join(missing)}")
    return folders


def _non_negative_float(value: Any) -> float:
    try:
        number = float(str(value))
    except ValueError:
        raise ValueError("expected a number of 0 or more") from None
    if not number >= 0 or number == float("inf"):
        raise ValueError("expected a number of 0 or more")
    return number


def _rerun_kinds(value: Any) -> frozenset[str]:
    if value is None:
        return frozenset()
    kinds = frozenset(part.strip() for part in str(value).split(",") if part.strip())
    unknown = sorted(kinds - set(RERUN_KINDS))
    if unknown or not kinds:
        raise ValueError(f"choose from {', '.join(RERUN_KINDS)} (comma-separated)")
    return kinds


def _existing_file(value: Any, base: Path) -> Path | None:
    if value is None:
        return None
    path = (base / Path(str(value)).expanduser()).resolve()
    if not path.is_file():
        raise ValueError(f"no such file: {path}")
    return path
