"""The table of every setting: one :class:`~pytest_mlebench.setting_spec.Setting` per option.

Each entry declares a setting once: name (``--mle-<name>``, ini ``mle_<name>``, CLI ``--<name>``),
``Settings`` field, help, environment variable, parser, default (written here only) and choices;
:mod:`.settings` makes every option and the resolved settings from it. Parsers: ``setting_spec``
and ``values``; the ``*_settings`` modules hold the settings of one feature each.
"""

from __future__ import annotations

from pytest_mlebench import setting_spec as parsers
from pytest_mlebench.anytime_settings import ANYTIME_SETTINGS
from pytest_mlebench.checkpoint_settings import CHECKPOINT_SETTINGS
from pytest_mlebench.comparison_settings import COMPARISON_SETTINGS
from pytest_mlebench.eng_settings import ENGINEERING_SETTINGS
from pytest_mlebench.report_settings import REPORT_SETTINGS
from pytest_mlebench.rerun_settings import RERUN_SETTINGS
from pytest_mlebench.setting_spec import Setting
from pytest_mlebench.values.cost_limit import cost_limit
from pytest_mlebench.values.network_policy import network_text
from pytest_mlebench.values.providers import judge_model, upstream_pairs
from pytest_mlebench.values.require_levels import REQUIRE_LEVELS
from pytest_mlebench.values.time_limit import DEFAULT_SANDBOX_GRACE

SANDBOXES = ("auto", "local", "docker")
YES_NO = ("yes", "no")
GATE_MODES = ("auto", "paired", "rate-drop")
INTEGRITY_MODES = ("report", "strict")
DESCRIPTION_VARIANTS = ("standard", "obfuscated")

SETTINGS: tuple[Setting, ...] = (
    Setting(
        "agent",
        "agent",
        "agent to run: a built-in name (see 'mlebench agents') or the path of an agent folder "
        "with config.yaml; default dummy (copies the sample submission: a plumbing check); "
        "pytest --lf without it reruns with the agent of the session it reruns",
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
        default=str(DEFAULT_SANDBOX_GRACE),
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
        parsers.always(parsers.significance_level),
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
    *RERUN_SETTINGS,
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
        "description",
        "description",
        "description the agent reads: standard or obfuscated (no name, host, data set names, "
        "links or dates; docs/integrity.md)",
        "MLEBENCH_DESCRIPTION",
        parsers.always(parsers.text),
        default="standard",
        choices=DESCRIPTION_VARIANTS,
    ),
    Setting(
        "ray",
        "ray",
        "run each sandbox on a Ray cluster: auto (the cluster this machine belongs to) or "
        "HOST:PORT of its head; grading stays here (docs/scale-out.md)",
        "RAY_ADDRESS",
        parsers.optional(parsers.ray_address),
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
    *ENGINEERING_SETTINGS,
    *COMPARISON_SETTINGS,
    *REPORT_SETTINGS,
    *CHECKPOINT_SETTINGS,
    *ANYTIME_SETTINGS,
)
