"""The settings of a session: one table, one frozen :class:`Settings`, used by pytest and the CLI.

Each setting is declared once, as a :class:`~pytest_mlebench.setting_spec.Setting` in
:data:`SETTINGS`: its name, the :class:`Settings` field it fills, help text, environment variable,
parser, default and choices. Everything else is generated from that entry: the ``--mle-<name>``
pytest option and its ``mle_<name>`` ini key (:func:`add_options`), the ``mlebench`` CLI's shared
``--<name>`` options (:func:`add_cli_options`), and the settings of a session
(:func:`resolve_settings`). Adding a setting means adding one entry here and its typed field to
:class:`Settings`. Both sides find values by the one rule of
:func:`~pytest_mlebench.setting_spec.resolve`, CLI > environment > ini > default, and a bad value is
a :class:`~pytest_mlebench.errors.SettingError` naming where it came from.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import pytest

from pytest_mlebench import setting_spec as parsers
from pytest_mlebench.errors import SettingError
from pytest_mlebench.gateway.config import parse_upstreams
from pytest_mlebench.integrity.judge import judge_model
from pytest_mlebench.report.cost import CostLimit, cost_limit
from pytest_mlebench.sandbox.network import network_text
from pytest_mlebench.setting_spec import RERUN_KINDS, Setting, argument_keywords, pick, resolve

GROUP = "mlebench"
REQUIRE_LEVELS = ("none", "valid", "above-median", "bronze", "silver", "gold")
SANDBOXES = ("auto", "local", "docker")
YES_NO = ("yes", "no")
GATE_MODES = ("auto", "paired", "rate-drop")
INTEGRITY_MODES = ("report", "strict")
Require = Literal["none", "valid", "above-median", "bronze", "silver", "gold"]

__all__ = [
    "GATE_MODES",
    "REQUIRE_LEVELS",
    "RERUN_KINDS",
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


def significance_level(value: object) -> float:
    """A significance level: a number strictly between 0 and 1 (``0.05``)."""
    try:
        number = float(str(value))
    except ValueError:
        raise ValueError("expected a number between 0 and 1, e.g. 0.05") from None
    if not 0 < number < 1:
        raise ValueError("expected a number between 0 and 1, e.g. 0.05")
    return number


def upstream_pairs(value: object) -> tuple[tuple[str, str], ...]:
    """``openai=URL,anthropic=URL`` as sorted (provider, URL) pairs; unset means none."""
    if value is None:
        return ()
    return tuple(sorted(parse_upstreams(str(value).split(",")).items()))


def ray_address(value: object) -> str:
    """``auto``, or the ``HOST:PORT`` of a Ray cluster's head (this machine joins as a node)."""
    text = str(value).strip()
    if text.startswith("ray://"):
        raise ValueError(
            "Ray Client addresses (ray://) are not supported: run pytest on a node of the "
            "cluster (`ray start --address HEAD:6379`) and pass auto or HEAD:6379"
        )
    host, _, port = text.rpartition(":")
    if text == "auto" or (host and port.isdigit()):
        return text
    raise ValueError("expected auto or HOST:PORT of the Ray head, e.g. 10.0.0.5:6379")


SETTINGS: tuple[Setting, ...] = (
    Setting(
        "agent",
        "agent",
        "agent to run: a built-in name (see 'mlebench agents') "
        "or the path of an agent folder with config.yaml",
        "MLEBENCH_AGENT",
        parsers.always(parsers.text),
        default="dummy",
        metavar="NAME",
    ),
    Setting(
        "sandbox",
        "sandbox",
        "where agents run: docker (isolated), local (no isolation) or "
        "auto (docker when an engine answers, else local with a warning)",
        "MLEBENCH_SANDBOX",
        parsers.always(parsers.text),
        default="auto",
        choices=SANDBOXES,
    ),
    Setting(
        "data-dir",
        "data_dir",
        "folder for downloaded and prepared competition data "
        "(default: $XDG_CACHE_HOME/mlebench, i.e. ~/.cache/mlebench)",
        "MLEBENCH_DATA_DIR",
        parsers.data_dir,
        metavar="DIR",
    ),
    Setting(
        "competitions-dir",
        "competitions_dirs",
        "extra folder of competition definitions (repeatable; later folders win on id clashes)",
        "MLEBENCH_COMPETITIONS_DIRS",
        parsers.existing_dirs,
        metavar="DIR",
        kind="list",
    ),
    Setting(
        "seeds",
        "seeds",
        "runs per competition, seeds 0..N-1; test ids get a -s<seed> suffix when N > 1",
        "MLEBENCH_SEEDS",
        parsers.always(parsers.positive_int),
        default="1",
        metavar="N",
    ),
    Setting(
        "time-limit",
        "time_limit",
        "seconds each agent run gets, overriding the competition's time_limit",
        "MLEBENCH_TIME_LIMIT",
        parsers.optional(parsers.positive_int),
        metavar="SECONDS",
    ),
    Setting(
        "sandbox-grace",
        "sandbox_grace",
        "seconds a Docker sandbox outlives its run's deadline if the harness dies (it then stops "
        "itself); each copy-out after the deadline gets at least half of it",
        "MLEBENCH_SANDBOX_GRACE",
        parsers.always(parsers.positive_int),
        default="300",
        metavar="SECONDS",
    ),
    Setting(
        "require",
        "require",
        "what a run must reach to pass: " + ", ".join(REQUIRE_LEVELS),
        "MLEBENCH_REQUIRE",
        parsers.always(parsers.text),
        default="valid",
        choices=REQUIRE_LEVELS,
    ),
    Setting(
        "results",
        "results_path",
        "JSON-lines file each finished run is appended to (relative to where pytest starts)",
        "MLEBENCH_RESULTS",
        parsers.results_file,
        default="reports/results.jsonl",
        metavar="FILE",
    ),
    Setting(
        "network",
        "network",
        "sandbox network: none (isolated; the default unless the agent's config names one), "
        "allow:HOST[,HOST...] (only those hosts, through a logging proxy; docker) or bridge "
        "(not isolated)",
        "MLEBENCH_NETWORK",
        parsers.optional(network_text),
        metavar="none|allow:HOSTS|bridge",
    ),
    Setting(
        "cpus",
        "cpus",
        "CPUs per sandbox (default: the competition's resources.cpus)",
        "MLEBENCH_CPUS",
        parsers.optional(parsers.positive_float),
        metavar="N",
    ),
    Setting(
        "memory",
        "memory",
        "memory limit per sandbox, e.g. 8g (default: the competition's resources.memory)",
        "MLEBENCH_MEMORY",
        parsers.optional(parsers.size),
        metavar="SIZE",
    ),
    Setting(
        "shm",
        "shm",
        "shared memory per sandbox, e.g. 2g (default: the competition's resources.shm)",
        "MLEBENCH_SHM",
        parsers.optional(parsers.size),
        metavar="SIZE",
    ),
    Setting(
        "pids",
        "pids",
        "process limit per sandbox (default: the competition's resources.pids)",
        "MLEBENCH_PIDS",
        parsers.optional(parsers.positive_int),
        metavar="N",
    ),
    Setting(
        "gpus",
        "gpus",
        "GPUs the session may hand out: auto, none, all or a count",
        "MLEBENCH_GPUS",
        parsers.always(parsers.gpus),
        default="auto",
        metavar="auto|none|all|N",
    ),
    Setting(
        "gpus-per-sandbox",
        "gpus_per_sandbox",
        "GPUs each sandbox gets from the pool (default: the competition's resources.gpus)",
        "MLEBENCH_GPUS_PER_SANDBOX",
        parsers.optional(parsers.positive_int),
        metavar="K",
    ),
    Setting(
        "privileged",
        "privileged",
        "allow agents whose config asks for privileged containers (yes/no)",
        "MLEBENCH_PRIVILEGED",
        parsers.always(parsers.yes),
        default="no",
        choices=YES_NO,
    ),
    Setting(
        "baseline",
        "baseline",
        "summary.json or results file to compare this session with; the session fails when "
        "the gate (--mle-gate) finds a regression",
        "MLEBENCH_BASELINE",
        parsers.existing_file,
        metavar="FILE",
    ),
    Setting(
        "max-drop",
        "max_drop",
        "percentage points the any-medal or valid-submission rate may drop below the baseline "
        "(rate-drop gate); in the paired gate, the mean leaderboard-percentile drop in "
        "percentile points that fails even when not significant (0: only a significant drop "
        "fails)",
        "MLEBENCH_MAX_DROP",
        parsers.always(parsers.non_negative_float),
        default="0",
        metavar="POINTS",
    ),
    Setting(
        "gate",
        "gate",
        "how the baseline comparison decides: rate-drop (any-medal and valid rates may drop "
        "max-drop points), paired (runs matched by competition and seed: leaderboard-percentile "
        "interval, medal flips), auto (paired when both sides have matched runs with "
        "percentiles, else rate-drop)",
        "MLEBENCH_GATE",
        parsers.always(parsers.text),
        default="auto",
        choices=GATE_MODES,
    ),
    Setting(
        "gate-alpha",
        "gate_alpha",
        "significance level of the paired gate (the chance that noise alone fails it)",
        "MLEBENCH_GATE_ALPHA",
        parsers.always(significance_level),
        default="0.05",
        metavar="LEVEL",
    ),
    Setting(
        "max-cost-increase",
        "max_cost_increase",
        "also fail the baseline gate when the mean LLM cost per run (runs matched by competition "
        "and seed) rises more than this: a fraction of the baseline's cost (0.2 is 20 percent) or "
        "dollars per run ($0.05); a side without cost data fails the check (unset: cost not gated)",
        "MLEBENCH_MAX_COST_INCREASE",
        parsers.optional(cost_limit),
        metavar="SHARE|$AMOUNT",
    ),
    Setting(
        "rerun",
        "rerun",
        "run only the (competition, seed) pairs of --mle-from whose run was one of: "
        + ", ".join(RERUN_KINDS)
        + " (comma-separated)",
        "MLEBENCH_RERUN",
        parsers.always(parsers.rerun_kinds),
        metavar="KINDS",
    ),
    Setting(
        "from",
        "rerun_from",
        "summary.json or results file that --mle-rerun selects from",
        "MLEBENCH_FROM",
        parsers.existing_file,
        metavar="FILE",
    ),
    Setting(
        "progress",
        "progress",
        "seconds between one-line status updates of running competitions (state changes are "
        "printed as they happen); 0 turns live progress off",
        "MLEBENCH_PROGRESS",
        parsers.always(parsers.non_negative_float),
        default="60",
        metavar="SECONDS",
    ),
    Setting(
        "token-budget",
        "token_budget",
        "LLM tokens (input + output) each run may spend through the gateway; then it answers 429 "
        "and the record says budget_exhausted",
        "MLEBENCH_TOKEN_BUDGET",
        parsers.optional(parsers.positive_int),
        metavar="TOKENS",
    ),
    Setting(
        "cost-budget",
        "cost_budget",
        "US dollars each run may spend through the LLM gateway (priced by the price table)",
        "MLEBENCH_COST_BUDGET",
        parsers.optional(parsers.positive_float),
        metavar="DOLLARS",
    ),
    Setting(
        "wheelhouse",
        "wheelhouse",
        "folder of prepared wheels for the locks of image profiles and agent Dockerfiles "
        "(air-gapped builds; default: download them into $XDG_CACHE_HOME/mlebench/wheels)",
        "MLEBENCH_WHEELHOUSE",
        parsers.folder_path,
        metavar="DIR",
    ),
    Setting(
        "price-table",
        "price_table",
        "YAML price table laid over the shipped one (models: {NAME: {input: $, output: $}} "
        "per million tokens)",
        "MLEBENCH_PRICE_TABLE",
        parsers.existing_file,
        metavar="FILE",
    ),
    Setting(
        "gateway-upstream",
        "gateway_upstreams",
        "base URLs of providers behind the LLM gateway, e.g. openai=http://localhost:8000/v1 "
        "(comma-separated PROVIDER=URL; wins over the agent's config)",
        "MLEBENCH_GATEWAY_UPSTREAM",
        parsers.always(upstream_pairs),
        metavar="PROVIDER=URL[,...]",
    ),
    Setting(
        "clean-alluredir",
        "clean_alluredir",
        "empty the --alluredir folder once, on the controller, before any test runs (unlike "
        "--clean-alluredir, safe under xdist)",
        "MLEBENCH_CLEAN_ALLUREDIR",
        parsers.always(parsers.yes),
        default="no",
        choices=YES_NO,
        kind="flag",
    ),
    Setting(
        "integrity",
        "integrity",
        "integrity policy: report (flags are shown, scores and medals stand) or strict (a run "
        "with a high-severity flag loses its medal; the record keeps what it earned)",
        "MLEBENCH_INTEGRITY",
        parsers.always(parsers.text),
        default="report",
        choices=INTEGRITY_MODES,
    ),
    Setting(
        "integrity-policy",
        "integrity_policy",
        "YAML file whose sections replace those of the default integrity policy "
        "(docs/integrity.md)",
        "MLEBENCH_INTEGRITY_POLICY",
        parsers.policy_file,
        metavar="FILE",
    ),
    Setting(
        "references",
        "references",
        "reference corpus for the similarity check: a folder with one sub-folder of code per "
        "competition id (default: competitions/<id>/references/)",
        "MLEBENCH_REFERENCES",
        parsers.existing_dir,
        metavar="DIR",
    ),
    Setting(
        "similarity",
        "similarity",
        "share (0-1) of a file's code found in another that raises a similarity flag "
        "(default: the policy's, 0.5)",
        "MLEBENCH_SIMILARITY",
        parsers.optional(parsers.fraction),
        metavar="SHARE",
    ),
    Setting(
        "judge",
        "judge",
        "model of the optional LLM integrity judge, asked through the LLM gateway after each run "
        "(off by default; docs/integrity.md)",
        "MLEBENCH_JUDGE",
        parsers.always(judge_model),
        metavar="MODEL",
    ),
    Setting(
        "ray",
        "ray",
        "run each sandbox on a Ray cluster: auto (the cluster this machine belongs to) or "
        "HOST:PORT of its head; grading stays here (docs/scale-out.md)",
        "RAY_ADDRESS",
        parsers.optional(ray_address),
        metavar="auto|HOST:PORT",
    ),
    Setting(
        "ray-retries",
        "ray_retries",
        "times a run whose Ray node died is started again on another node",
        "MLEBENCH_RAY_RETRIES",
        parsers.always(parsers.non_negative_int),
        default="2",
        metavar="N",
    ),
    Setting(
        "ray-data-dir",
        "ray_data_dir",
        "folder on storage every Ray node mounts at the same path: public data is published "
        "there once instead of through Ray's object store",
        "MLEBENCH_RAY_DATA_DIR",
        parsers.existing_dir,
        metavar="DIR",
    ),
)


@dataclass(frozen=True)
class Settings:
    """Resolved settings of one session; each field is filled by its entry in :data:`SETTINGS`."""

    agent: str
    sandbox: str
    data_dir: Path
    competitions_dirs: tuple[Path, ...]
    seeds: int
    time_limit: int | None
    require: Require
    results_path: Path
    network: str | None
    cpus: float | None
    memory: str | None
    shm: str | None
    gpus: str
    gpus_per_sandbox: int | None
    privileged: bool
    baseline: Path | None = None
    max_drop: float = 0.0
    gate: str = "auto"
    gate_alpha: float = 0.05
    max_cost_increase: CostLimit | None = None
    rerun: frozenset[str] = frozenset()
    rerun_from: Path | None = None
    progress: float = 60.0
    clean_alluredir: bool = False
    pids: int | None = None
    token_budget: int | None = None
    cost_budget: float | None = None
    price_table: Path | None = None
    gateway_upstreams: tuple[tuple[str, str], ...] = ()
    integrity: str = "report"
    integrity_policy: Path | None = None
    references: Path | None = None
    similarity: float | None = None
    judge: str | None = None
    sandbox_grace: int = 300
    wheelhouse: Path | None = None
    ray: str | None = None
    ray_retries: int = 2
    ray_data_dir: Path | None = None


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
