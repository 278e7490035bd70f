"""The medal names are declared once (``medals.py``); nothing else spells them or rebuilds a medal.

Every module that needs the names iterates :data:`pytest_mlebench.medals.MEDALS`, so a second
list of them (or the medal rebuilt from ``gold_medal``/``silver_medal``/``bronze_medal`` flags)
is a regression these tests catch by reading the package's source.
"""

from __future__ import annotations

import ast
import os
import re
from dataclasses import fields
from pathlib import Path

import pytest_mlebench
from pytest_mlebench.medals import MEDALS, Thresholds
from pytest_mlebench.values.require_levels import REQUIRE_LEVELS

PACKAGE = Path(pytest_mlebench.__file__).parent
DECLARATION = "medals.py"
# --mle-require's levels end with the medal names (checked against MEDALS below).
GATE_LEVELS = "require_levels.py"
GATE_LEVELS_PATH = PACKAGE / "values" / GATE_LEVELS
# The one place that reads old flat records back: the medal from the per-medal flags.
FLAT_READER = "grade_report.py"


def sources() -> list[Path]:
    """Every module of the package, the linked graders/fixtures/competitions included (not the
    engineering tasks' own files: a task's data may name a customer tier ``gold``)."""
    found = []
    for folder, _, names in os.walk(PACKAGE, followlinks=True):
        if "engineering" in Path(folder).relative_to(PACKAGE).parts[:1]:
            continue
        found += [Path(folder) / name for name in names if name.endswith(".py")]
    return sorted(found)


def medal_literals(path: Path) -> list[str]:
    """String constants that are a medal name or start with one (``gold``, ``gold_medal``)."""
    tree = ast.parse(path.read_text("utf-8"))
    prefixes = tuple(f"{medal}_" for medal in MEDALS)
    return [
        f"{path.relative_to(PACKAGE)}:{node.lineno}: {node.value!r}"
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and (node.value in MEDALS or node.value.startswith(prefixes))
    ]


def test_the_package_is_scanned() -> None:
    names = {path.name for path in sources()}
    assert {DECLARATION, GATE_LEVELS, FLAT_READER, "aggregate.py", "scoring.py"} <= names


def test_medal_names_are_spelled_only_in_their_declaration() -> None:
    elsewhere = [
        hit
        for path in sources()
        if path.name not in (DECLARATION, GATE_LEVELS)
        for hit in medal_literals(path)
    ]
    assert elsewhere == []


def test_the_declaration_orders_medals_and_thresholds_alike() -> None:
    assert MEDALS == ("gold", "silver", "bronze")
    assert tuple(f.name for f in fields(Thresholds))[: len(MEDALS)] == MEDALS


def test_gate_levels_end_with_the_medals_worst_first() -> None:
    assert REQUIRE_LEVELS[-len(MEDALS) :] == tuple(reversed(MEDALS))
    lines = GATE_LEVELS_PATH.read_text("utf-8").splitlines()
    for hit in medal_literals(GATE_LEVELS_PATH):
        number = int(hit.split(":")[1])
        assert lines[number - 1].startswith(("REQUIRE_LEVELS =", "Require =")), hit


def test_medal_is_rebuilt_from_flags_only_where_old_records_are_read() -> None:
    # The shape every old copy had: ``next(m for m in <medals> if <report>[f"{m}_medal"])``.
    rebuild = re.compile(r"for (\w+) in [^\n]*\bif [^\n]*\{\1\}_medal")
    places = [path.name for path in sources() if rebuild.search(path.read_text("utf-8"))]
    assert places == [FLAT_READER]
