"""The settings of a session: one frozen :class:`Settings`, resolved for pytest and the CLI.

Each setting is declared once, as an entry of :data:`~pytest_mlebench.setting_table.SETTINGS`:
its name, the :class:`Settings` field it fills, help text, environment variable, parser, default
and choices. Everything else is generated from that entry here: the ``--mle-<name>`` pytest option
and its ``mle_<name>`` ini key (:func:`add_options`), the ``mlebench`` CLI's shared ``--<name>``
options (:func:`add_cli_options`), and the settings of a session (:func:`resolve_settings`).
Adding a setting means adding one entry to the table and its typed field to :class:`Settings`.
Both sides find values by the one rule of :func:`~pytest_mlebench.setting_spec.resolve`,
CLI > environment > ini > default, and a bad value is a
:class:`~pytest_mlebench.errors.SettingError` naming where it came from.

The settings import only the foundation and the data layer; features never import them: whoever
runs a feature hands it the plain values it needs.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pytest_mlebench.errors import SettingError
from pytest_mlebench.setting_spec import Setting, argument_keywords, pick, resolve
from pytest_mlebench.setting_table import SETTINGS
from pytest_mlebench.values.cost_limit import CostLimit
from pytest_mlebench.values.require_levels import Require

if TYPE_CHECKING:  # the CLI resolves settings too, and should not pay for importing pytest
    import pytest

GROUP = "mlebench"

__all__ = [
    "SETTINGS",
    "Setting",
    "Settings",
    "add_cli_options",
    "add_options",
    "cli_value",
    "resolve_settings",
    "setting",
    "source_of",
]


@dataclass(frozen=True)
class Settings:
    """Resolved settings of one session; each field is filled by its entry in :data:`SETTINGS`.

    No field has a default of its own: the table's default is the only one, and
    :func:`resolve_settings` fills every field.
    """

    agent: str
    sandbox: str
    data_dir: Path
    competitions_dirs: tuple[Path, ...]
    engineering_dirs: tuple[Path, ...]
    seeds: int
    time_limit: int | None
    sandbox_grace: int
    require: Require
    require_score: float
    results_path: Path
    network: str | None
    cpus: float | None
    memory: str | None
    shm: str | None
    pids: int | None
    gpus: str
    gpus_per_sandbox: int | None
    privileged: bool
    baseline: Path | None
    max_drop: float
    gate: str
    gate_alpha: float
    max_cost_increase: CostLimit | None
    rerun: frozenset[str]
    rerun_from: Path | None
    progress: float
    token_budget: int | None
    cost_budget: float | None
    wheelhouse: Path | None
    price_table: Path | None
    gateway_upstreams: tuple[tuple[str, str], ...]
    clean_alluredir: bool
    integrity: str
    integrity_policy: Path | None
    references: Path | None
    similarity: float | None
    judge: str | None
    description: str
    ray: str | None
    ray_retries: int
    ray_data_dir: Path | None
    allow_different: frozenset[str]
    retries: int
    summarize: str | None
    checkpoint_every: float | None
    checkpoint_cap: int
    resume: Path | None
    marks: tuple[float, ...] | None
    submission_copies: int
    submission_poll: float | None


_BY_NAME = {entry.name: entry for entry in SETTINGS}


def setting(name: str) -> Setting:
    """The entry of ``name`` (``seeds``, ``data-dir``, …)."""
    return _BY_NAME[name]


# -- pytest -------------------------------------------------------------------------------------


def add_options(parser: pytest.Parser) -> None:
    """Declare every setting's ``--mle-*`` option and ini key on pytest's parser."""
    group = parser.getgroup(GROUP, "pytest-mlebench: run agents on MLE-bench competitions")
    for entry in SETTINGS:
        group.addoption(entry.option, dest=entry.dest, **argument_keywords(entry))
        parser.addini(entry.ini, help=entry.help, type="string", default=None)


def resolve_settings(config: pytest.Config) -> Settings:
    """Resolve all settings of this session; raise :class:`SettingError` on a bad value."""
    base = config.invocation_params.dir
    values = {
        entry.field: resolve(entry, *_given(config, entry), base, cli_option=entry.option)
        for entry in SETTINGS
    }
    settings = Settings(**values)
    if bool(settings.rerun) != bool(settings.rerun_from):
        raise SettingError(
            "--mle-rerun and --mle-from go together: --mle-rerun failed --mle-from "
            "reports/summary.json"
        )
    return settings


def source_of(config: pytest.Config, name: str) -> str:
    """Where the value of setting ``name`` came from (``option --mle-agent``, …)."""
    entry = setting(name)
    return pick(entry, *_given(config, entry), cli_option=entry.option)[1]


def _given(config: pytest.Config, entry: Setting) -> tuple[Any, Any]:
    """What pytest's command line and ini file say about ``entry`` (``None`` when silent)."""
    return config.getoption(entry.dest, default=None), config.getini(entry.ini)


# -- the mlebench CLI ---------------------------------------------------------------------------


def add_cli_options(parser: argparse.ArgumentParser, *names: str) -> None:
    """Declare the shared settings ``names`` as ``--<name>`` options of a ``mlebench`` command."""
    for name in names:
        entry = setting(name)
        parser.add_argument(entry.cli_option, dest=entry.cli_dest, **argument_keywords(entry))


def cli_value(args: argparse.Namespace, name: str) -> Any:
    """The value of shared setting ``name`` for a ``mlebench`` command (CLI > env > default)."""
    entry = setting(name)
    return resolve(
        entry, getattr(args, entry.cli_dest), None, Path.cwd(), cli_option=entry.cli_option
    )
