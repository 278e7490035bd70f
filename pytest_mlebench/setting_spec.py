"""One setting's declaration, the precedence rule that finds its value, and the value parsers.

A :class:`Setting` says where a value can be given (``--mle-<name>``, ``mle_<name>``, its
environment variable, the ``mlebench`` CLI's ``--<name>``) and how it is checked. :func:`resolve`
is the one rule, CLI > environment > ini > default, used by pytest and the ``mlebench`` CLI alike
(the CLI has no ini file); a bad value raises :class:`~pytest_mlebench.errors.SettingError`
naming the setting, the value, where it came from and what is allowed.

The parsers take the raw value (a string, or a list of strings for a repeatable option) and the
folder relative paths are taken from, and raise ``ValueError`` saying what is allowed; the parsers
of values that features share (cost limits, providers, the network, the integrity policy) live in
:mod:`pytest_mlebench.values`. The table of this package's settings is
:data:`pytest_mlebench.setting_table.SETTINGS`. This module imports only the foundation and the
values, never the data layer or a feature: every pytest session of an environment with the plugin
installed reads the option table, so it must not load the graders (numpy, pyarrow).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from pytest_mlebench.errors import MLEBenchError, SettingError
from pytest_mlebench.values.failure_classes import FAILURE_CLASSES

Parse = Callable[[Any, Path], Any]
Kind = Literal["value", "list", "flag"]

# The outcome kinds, then every failure class (``timeout`` is both: a run that hit the limit).
RERUN_KINDS = (
    "failed",
    "error",
    "invalid",
    "no-medal",
    "timeout",
    "skipped",
    *(name for name in FAILURE_CLASSES if name != "timeout"),
)


@dataclass(frozen=True)
class Setting:
    """One setting: where it can be given, how it is checked, and which field it fills.

    Attributes:
        name: ``seeds`` → pytest option ``--mle-seeds``, ini key ``mle_seeds``, CLI ``--seeds``.
        field: The :class:`Settings` field the parsed value fills.
        help: Help text of the option and the ini key.
        env: The environment variable (a ``os.pathsep``-separated list for ``kind="list"``).
        parse: Turns the raw value (``None`` when unset and without default) into the field's value.
        default: Raw value used when nothing else sets it; parsed like user input.
        choices: Allowed raw values (also shown by ``--help``).
        metavar: Placeholder in ``--help``.
        kind: ``value``; ``list`` (repeatable option); ``flag`` (an option without value that
            means ``yes``; env and ini take ``yes``/``no``).
    """

    name: str
    field: str
    help: str
    env: str
    parse: Parse
    default: str | None = None
    choices: tuple[str, ...] = ()
    metavar: str | None = None
    kind: Kind = "value"

    @property
    def option(self) -> str:
        return f"--mle-{self.name}"

    @property
    def ini(self) -> str:
        return "mle_" + self.name.replace("-", "_")

    @property
    def dest(self) -> str:
        """Attribute of the parsed pytest options (the ini key's spelling)."""
        return self.ini

    @property
    def cli_option(self) -> str:
        return f"--{self.name}"

    @property
    def cli_dest(self) -> str:
        return self.name.replace("-", "_")

    def convert(self, raw: Any, base: Path) -> Any:
        """The field's value from ``raw``; ``ValueError`` says what is allowed."""
        if self.choices and raw is not None and raw not in self.choices:
            raise ValueError(f"choose one of {', '.join(self.choices)}")
        return self.parse(raw, base)


def pick(entry: Setting, cli: Any, ini: Any, *, cli_option: str) -> tuple[Any, str]:
    """The raw value and its source by CLI > environment > ini > default (``cli``/``ini`` unset:
    ``None``, or an empty list for a repeatable option)."""
    if cli not in (None, []):
        return cli, f"option {cli_option}"
    env = os.environ.get(entry.env)
    if env:
        split = [part for part in env.split(os.pathsep) if part]
        return (split if entry.kind == "list" else env), f"environment variable {entry.env}"
    if ini:
        return ([ini] if entry.kind == "list" else ini), f"ini option {entry.ini}"
    return ([] if entry.kind == "list" else entry.default), "default"


def resolve(entry: Setting, cli: Any, ini: Any, base: Path, *, cli_option: str) -> Any:
    """The field's value of ``entry``; :class:`SettingError` names the source of a bad value."""
    raw, source = pick(entry, cli, ini, cli_option=cli_option)
    try:
        return entry.convert(raw, base)
    except ValueError as exc:
        raise SettingError(f"invalid {entry.name} {raw!r} from {source}: {exc}") from None


def argument_keywords(entry: Setting) -> dict[str, Any]:
    """``add_argument`` keywords of ``entry``, the same for pytest's parser and argparse."""
    help_text = f"{entry.help} [env {entry.env}]"
    if entry.kind == "flag":
        return {"action": "store_const", "const": "yes", "default": None, "help": help_text}
    return {
        "action": "append" if entry.kind == "list" else "store",
        "default": None,
        "choices": entry.choices or None,
        "metavar": entry.metavar,
        "help": help_text,
    }


# -- parsers ------------------------------------------------------------------------------------


def always(parse: Callable[[Any], Any]) -> Parse:
    """``parse`` for a setting that always has a value (its default is parsed like user input)."""
    return lambda value, base: parse(value)


def optional(parse: Callable[[Any], Any]) -> Parse:
    """``parse``, or ``None`` when nothing set the value (``None`` means "per competition")."""
    return lambda value, base: None if value is None else parse(value)


def text(value: Any) -> str:
    return str(value)


def yes(value: Any) -> bool:
    """``yes``/``no`` (already checked against the setting's choices) as a bool."""
    return str(value) == "yes"


def positive_int(value: Any) -> int:
    try:
        number = int(str(value))
    except ValueError:
        raise ValueError("expected a positive whole number") from None
    if number <= 0:
        raise ValueError("expected a positive whole number")
    return number


def non_negative_int(value: Any) -> int:
    try:
        number = int(str(value))
    except ValueError:
        raise ValueError("expected a whole number, 0 or more") from None
    if number < 0:
        raise ValueError("expected a whole number, 0 or more")
    return number


def positive_float(value: Any) -> float:
    try:
        number = float(str(value))
    except ValueError:
        raise ValueError("expected a positive number") from None
    if not number > 0 or number == float("inf"):
        raise ValueError("expected a positive number")
    return number


def non_negative_float(value: Any) -> float:
    try:
        number = float(str(value))
    except ValueError:
        raise ValueError("expected a number of 0 or more") from None
    if not number >= 0 or number == float("inf"):
        raise ValueError("expected a number of 0 or more")
    return number


def size(value: Any) -> str:
    """A memory size for the sandbox: digits with an optional k, m, g or t suffix."""
    spelled = str(value).strip().lower()
    digits = spelled[:-1] if spelled[-1:] in ("k", "m", "g", "t") else spelled
    if not digits.isdigit() or int(digits) <= 0:
        raise ValueError("expected a size like 512m or 8g")
    return spelled


def gpus(value: Any) -> str:
    spelled = str(value).strip().lower()
    if spelled in ("auto", "none", "all") or spelled.isdigit():
        return spelled
    raise ValueError("expected auto, none, all or a number of GPUs")


def rerun_kinds(value: Any) -> frozenset[str]:
    """Comma-separated kinds of runs to rerun; unset means none."""
    if value is None:
        return frozenset()
    kinds = frozenset(part.strip() for part in str(value).split(",") if part.strip())
    if not kinds or kinds - set(RERUN_KINDS):
        raise ValueError(f"choose from {', '.join(RERUN_KINDS)} (comma-separated)")
    return kinds


def default_data_dir() -> Path:
    """``$XDG_CACHE_HOME/mlebench`` (``~/.cache/mlebench`` when unset)."""
    cache = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(cache) / "mlebench"


def data_dir(value: Any, base: Path) -> Path:
    """The data folder (``~`` expanded; unset means the cache default); it may not exist yet."""
    folder = (Path(str(value)).expanduser() if value else default_data_dir()).resolve()
    if folder.exists() and not folder.is_dir():
        raise ValueError(f"not a folder: {folder}")
    return folder


def existing_dirs(values: Sequence[str], base: Path) -> tuple[Path, ...]:
    folders = tuple(Path(v).expanduser().resolve() for v in values)
    missing = [str(f) for f in folders if not f.is_dir()]
    if missing:
        raise ValueError(f"no such folder: {', '.join(missing)}")
    return folders


def results_file(value: Any, base: Path) -> Path:
    """The results file, relative to ``base``; it is created on the first record."""
    path = Path(str(value)).expanduser()
    path = path if path.is_absolute() else base / path
    if not str(value).strip() or path.is_dir():
        raise ValueError(f"expected a file name, not the folder {path}")
    return path


def significance_level(value: Any) -> float:
    """A significance level: a number strictly between 0 and 1 (``0.05``)."""
    try:
        number = float(str(value))
    except ValueError:
        raise ValueError("expected a number between 0 and 1, e.g. 0.05") from None
    if not 0 < number < 1:
        raise ValueError("expected a number between 0 and 1, e.g. 0.05")
    return number


def ray_address(value: Any) -> str:
    """``auto``, or the ``HOST:PORT`` of a Ray cluster's head (this machine joins as a node)."""
    spelled = str(value).strip()
    if spelled.startswith("ray://"):
        raise ValueError(
            "Ray Client addresses (ray://) are not supported: run pytest on a node of the "
            "cluster (`ray start --address HEAD:6379`) and pass auto or HEAD:6379"
        )
    host, _, port = spelled.rpartition(":")
    if spelled == "auto" or (host and port.isdigit()):
        return spelled
    raise ValueError("expected auto or HOST:PORT of the Ray head, e.g. 10.0.0.5:6379")


def fraction(value: Any) -> float:
    """A share between 0 and 1."""
    try:
        number = float(str(value))
    except ValueError:
        raise ValueError("expected a number between 0 and 1") from None
    if not 0 <= number <= 1:
        raise ValueError("expected a number between 0 and 1")
    return number


def existing_dir(value: Any, base: Path) -> Path | None:
    """A folder that must exist, relative to ``base``; unset means none."""
    if value is None:
        return None
    path = (base / Path(str(value)).expanduser()).resolve()
    if not path.is_dir():
        raise ValueError(f"no such folder: {path}")
    return path


def policy_file(value: Any, base: Path) -> Path | None:
    """An integrity policy file that exists and loads; unset means the default policy."""
    # Imported here: the policy's reader loads PyYAML, which a session without a policy skips.
    from pytest_mlebench.values.integrity_policy import load_policy

    path = existing_file(value, base)
    if path is not None:
        try:
            load_policy(path)
        except MLEBenchError as exc:
            raise ValueError(str(exc)) from None
    return path


def folder_path(value: Any, base: Path) -> Path | None:
    """A folder relative to ``base`` that may not exist yet (its user says what to put there)."""
    if value is None:
        return None
    path = (base / Path(str(value)).expanduser()).resolve()
    if path.exists() and not path.is_dir():
        raise ValueError(f"not a folder: {path}")
    return path


def existing_file(value: Any, base: Path) -> Path | None:
    """A file that must exist, relative to ``base``; unset means none."""
    if value is None:
        return None
    path = (base / Path(str(value)).expanduser()).resolve()
    if not path.is_file():
        raise ValueError(f"no such file: {path}")
    return path
