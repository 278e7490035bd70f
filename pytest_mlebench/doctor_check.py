"""One line of ``mlebench doctor``'s table: a check's name, status, detail and fix."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Status = Literal["ok", "warn", "FAIL"]


@dataclass(frozen=True)
class Check:
    """One line of the doctor's table (``fix`` is printed below a line that is not ``ok``)."""

    name: str
    status: Status
    detail: str
    fix: str = ""
