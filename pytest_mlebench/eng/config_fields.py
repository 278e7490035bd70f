"""Typed reading of a task's ``config.yaml`` fields: each reader returns the value or raises a
:class:`~pytest_mlebench.errors.ConfigError` that names the file, the key and what it must be.

Kept apart from :mod:`pytest_mlebench.eng.task`, which holds the format's rules (what a task must
declare and how its parts fit), so that module reads as the rules and this one as the parsing.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

from pytest_mlebench.errors import ConfigError


def text_field(raw: Mapping[str, Any], key: str, where: str) -> str:
    value = raw.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}: {key} must be a non-empty text")
    return value


def choice_field(raw: Mapping[str, Any], key: str, choices: tuple[str, ...], where: str) -> str:
    value = raw.get(key)
    if value not in choices:
        raise ConfigError(f"{where}: {key} {value!r} is not one of {', '.join(choices)}")
    return str(value)


def mapping_field(value: Any, key: str, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ConfigError(f"{where}: {key} must be a mapping")
    return value


def list_field(value: Any, key: str, where: str) -> list[Any]:
    if not isinstance(value, list):
        raise ConfigError(f"{where}: {key} must be a list")
    return value


def number_field(value: Any, key: str, where: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ConfigError(f"{where}: {key} must be a finite number, got {value!r}")
    return float(value)


def positive_int_field(value: Any, key: str, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ConfigError(f"{where}: {key} must be a positive whole number of seconds")
    return value
