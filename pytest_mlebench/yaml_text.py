"""Read YAML with libyaml's parser when PyYAML was built with it.

Every pytest start reads the registry (about a hundred ``config.yaml`` and ``task.yaml``
files): the pure-Python parser spends 0.2 s on them, the C one 0.03 s (2026-12-03).
Both are PyYAML's safe loader (plain data only, no Python objects), so what a file means does not
depend on which one is present; PyYAML wheels without libyaml fall back to the Python parser.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from pytest_mlebench.errors import ConfigError

# The C loader is not a subclass of the Python one, so the two share no narrower type.
SafeLoader: Any = getattr(yaml, "CSafeLoader", yaml.SafeLoader)


def load_yaml(text: str) -> Any:
    """The data of one YAML document (``None`` for an empty one); raises ``yaml.YAMLError``."""
    return yaml.load(text, Loader=SafeLoader)


def read_config_mapping(path: Path, needed_by: str) -> dict[str, Any]:
    """The mapping of keys in the config file ``path``; a :class:`ConfigError` naming the file
    when it is missing (``needed_by`` says what needs it), not YAML or not a mapping."""
    if not path.is_file():
        raise ConfigError(f"{path}: missing; {needed_by} needs it")
    try:
        raw = load_yaml(path.read_text("utf-8"))
    except yaml.YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML ({exc})") from None
    if not isinstance(raw, dict):
        raise ConfigError(f"{path}: expected a mapping of keys, got {type(raw).__name__}")
    return raw
