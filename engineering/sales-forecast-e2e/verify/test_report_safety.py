"""The report's problem and inspection fields, and what the agent's code may not use."""

from __future__ import annotations

import ast
from pathlib import Path

import pandas as pd
import pytest

DEEP_LEARNING = {
    "torch",
    "tensorflow",
    "keras",
    "jax",
    "flax",
    "theano",
    "mxnet",
    "paddle",
    "tflite_runtime",
}
NETWORK = {"socket", "requests", "httpx", "urllib3", "aiohttp", "http", "ftplib", "smtplib"}
SHIFT_TOLERANCE_DAYS = 7


def agent_files(work: Path) -> list[Path]:
    return [
        p
        for p in work.rglob("*.py")
        if not any(part.startswith(".") for part in p.relative_to(work).parts)
    ]


def imported(path: Path) -> set[str]:
    """Every module name ``path`` imports (statically, or by a literal ``import_module``)."""
    try:
        tree = ast.parse(path.read_text("utf-8", "replace"))
    except SyntaxError:
        return set()
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", ""))
            in ("import_module", "__import__")
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            names.add(str(node.args[0].value))
    return names


def roots(names: set[str]) -> set[str]:
    return {name.split(".")[0] for name in names}


@pytest.mark.check("P2")
def test_problem_fields(report, calendar, evidence) -> None:  # type: ignore[no-untyped-def]
    series = calendar[["store", "item"]].drop_duplicates().shape[0]
    fields = {key: report.get(key) for key in ("horizon", "metric", "series")}
    evidence(f"reported {fields}, {series} series in the calendar")
    assert (
        report.get("horizon") == 7
        and report.get("metric") == "wape"
        and report.get("series") == series
    )


@pytest.mark.check("I1")
def test_missing_rows(report, facts, evidence) -> None:  # type: ignore[no-untyped-def]
    given = report.get("inspection", {}).get("missing_rows")
    evidence(f"reported {given}, planted {facts['missing_rows']}")
    assert given == facts["missing_rows"]


@pytest.mark.check("I2")
def test_closures(report, facts, evidence) -> None:  # type: ignore[no-untyped-def]
    given = report.get("inspection", {}).get("closures") or {}
    got = {str(k): sorted(map(str, v)) for k, v in given.items()}
    planted = sum(map(len, facts["closures"].values()))
    evidence(f"{sum(map(len, got.values()))} closed store-days reported, {planted} planted")
    assert got == facts["closures"]


@pytest.mark.check("I3")
def test_level_shift(report, facts, evidence) -> None:  # type: ignore[no-untyped-def]
    given = report.get("inspection", {}).get("level_shift") or {}
    planted = facts["level_shift"]
    evidence(f"reported {given}, planted {planted['store']} from {planted['date']}")
    assert given.get("store") == planted["store"]
    days = abs((pd.Timestamp(str(given.get("date"))) - pd.Timestamp(planted["date"])).days)
    assert days <= SHIFT_TOLERANCE_DAYS


@pytest.mark.check("S1")
def test_no_deep_learning(work, runs, evidence) -> None:  # type: ignore[no-untyped-def]
    """Classical models only: no deep-learning framework in the code or loaded by a run."""
    in_code = {
        str(p.relative_to(work)): sorted(roots(imported(p)) & DEEP_LEARNING)
        for p in agent_files(work)
    }
    in_code = {k: v for k, v in in_code.items() if v}
    loaded = sorted({m for run in runs.values() for m in run.modules} & DEEP_LEARNING)
    evidence(f"imports {in_code or 'none'}, loaded at run time {loaded or 'none'}")
    assert not in_code and not loaded


@pytest.mark.check("S2")
def test_no_network(work, runs, evidence) -> None:  # type: ignore[no-untyped-def]
    in_code = {}
    for path in agent_files(work):
        names = imported(path)
        hits = (roots(names) & NETWORK) | (names & {"urllib.request"})
        if hits:
            in_code[str(path.relative_to(work))] = sorted(hits)
    attempts = [a for run in runs.values() for a in run.network]
    evidence(f"network imports {in_code or 'none'}, connection attempts {attempts[:3] or 'none'}")
    assert not in_code and not attempts
