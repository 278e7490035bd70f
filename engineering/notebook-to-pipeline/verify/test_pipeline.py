"""Hidden checks of notebook-to-pipeline (ids as in config.yaml)."""

from __future__ import annotations

import ast
import csv
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import Run, snapshot

CENTS = 0.011  # rounding to cents may differ by one cent between summation orders
FINAL = ("monthly.csv", "summary.json")
SUMMARY_KEYS = ("rows_in", "rows_clean", "revenue_eur", "top_customers")
FORBIDDEN_NAMES = {"get_ipython", "display", "IPython", "nbformat", "nbconvert", "nbclient"}


def _assert_results(run: Run, want: dict[str, Any]) -> str:
    """The run's monthly.csv and summary.json equal the notebook's results ``want``."""
    assert run.returncode == 0, run.log
    with (run.out_dir / "monthly.csv").open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [(r["month"], r["region"]) for r in rows] == [
        (w["month"], w["region"]) for w in want["monthly"]
    ], "monthly.csv: other months/regions or another order"
    gap = max(
        abs(float(r["amount_eur"]) - w["amount_eur"])
        for r, w in zip(rows, want["monthly"], strict=True)
    )
    assert gap <= CENTS, f"monthly.csv: an amount is off by {gap:.2f} EUR"
    summary = json.loads((run.out_dir / "summary.json").read_text())
    reference = want["summary"]
    for key in ("rows_in", "rows_clean"):
        assert summary.get(key) == reference[key], f"{key}: {summary.get(key)} != {reference[key]}"
    assert abs(float(summary["revenue_eur"]) - reference["revenue_eur"]) <= CENTS
    top = summary["top_customers"]
    assert list(top) == list(reference["top_customers"]), f"top customers {list(top)}"
    assert all(abs(float(top[k]) - v) <= CENTS for k, v in reference["top_customers"].items())
    return f"{len(rows)} monthly rows, {reference['rows_clean']}/{reference['rows_in']} rows kept"


@pytest.mark.check("F1")
def test_hidden_export_reproduces_the_notebook(main_run, expected, evidence) -> None:  # type: ignore[no-untyped-def]
    evidence(f"pipeline.py exit {main_run.returncode} in {main_run.wall_s:.1f} s")
    evidence(_assert_results(main_run, expected["default"]))


@pytest.mark.check("F2")
def test_parameter_is_honoured(work, hidden_input, scratch, expected, evidence) -> None:  # type: ignore[no-untyped-def]
    other = expected["other_min_qty"]
    run = Run(work, hidden_input, scratch / "other", "--min-qty", str(other))
    evidence(f"--min-qty {other}: " + _assert_results(run, expected["other"]))


@pytest.mark.check("R1")
def test_second_run_changes_nothing(main_run, rerun, evidence) -> None:  # type: ignore[no-untyped-def]
    assert main_run.returncode == 0 and rerun.returncode == 0, main_run.log + rerun.log
    first, second = snapshot(main_run.out_dir), snapshot(rerun.out_dir)
    changed = sorted(
        name for name in set(first) | set(second) if first.get(name) != second.get(name)
    )
    evidence(f"{len(first)} files after one run; changed by a second run: {changed[:5]}")
    assert not changed


def _graph(stages: list[dict[str, Any]]) -> dict[str, list[str]]:
    names = [stage.get("name") for stage in stages]
    assert names and all(isinstance(n, str) and n for n in names), "a stage has no name"
    assert len(set(names)) == len(names), "stage names repeat"
    graph = {}
    for stage in stages:
        needs = stage.get("depends_on", [])
        assert isinstance(needs, list), f"{stage['name']}: depends_on is not a list"
        unknown = set(needs) - set(names)
        assert not unknown, f"{stage['name']} depends on undeclared stages {sorted(unknown)}"
        graph[stage["name"]] = list(needs)
    return graph


def _order(graph: dict[str, list[str]]) -> list[str]:
    """A topological order (Kahn's); among ready stages the latest declared first, so a stage
    that needs an undeclared predecessor is likely to run before it. Fails on a cycle."""
    done: list[str] = []
    while len(done) < len(graph):
        ready = [n for n in graph if n not in done and set(graph[n]) <= set(done)]
        assert ready, f"the stage graph has a cycle among {sorted(set(graph) - set(done))}"
        done.append(ready[-1])
    return done


@pytest.mark.check("R2")
def test_stage_graph_is_acyclic_and_complete(stages, main_run, evidence) -> None:  # type: ignore[no-untyped-def]
    graph = _graph(stages)
    order = _order(graph)
    evidence(f"stages in a topological order: {order}")
    declared = [o for stage in stages for o in stage.get("outputs", [])]
    assert len(declared) == len(set(declared)), "two stages declare the same output"
    assert set(FINAL) <= set(declared), f"no stage declares {sorted(set(FINAL) - set(declared))}"
    assert main_run.returncode == 0, main_run.log
    written = set(snapshot(main_run.out_dir))
    assert written == set(declared), (
        f"written but not declared {sorted(written - set(declared))},"
        f" declared but not written {sorted(set(declared) - written)}"
    )


@pytest.mark.check("R2")
def test_stages_run_one_by_one(stages, main_run, work, hidden_input, scratch, evidence) -> None:  # type: ignore[no-untyped-def]
    """Each stage alone, in a fresh process, in the verifier's topological order: the same files."""
    order = _order(_graph(stages))
    folder = scratch / "staged"
    for name in order:
        run = Run(work, hidden_input, folder, "--stage", name)
        assert run.returncode == 0, f"--stage {name}: {run.log}"
    assert main_run.returncode == 0, main_run.log
    whole, staged = snapshot(main_run.out_dir), snapshot(folder)
    differ = sorted(n for n in set(whole) | set(staged) if whole.get(n) != staged.get(n))
    evidence(f"{len(order)} stages run one by one; files that differ: {differ[:5]}")
    assert not differ


def _sources(work: Path) -> dict[str, str]:
    return {
        path.relative_to(work).as_posix(): path.read_text(errors="replace")
        for path in sorted(work.rglob("*.py"))
        if path.relative_to(work).parts[0] not in ("tests", "data", "out")
        and not any(part.startswith(".") for part in path.relative_to(work).parts)
    }


def _docstrings(tree: ast.AST) -> set[int]:
    """The ids of the docstring nodes of ``tree`` (text there may name the notebook freely)."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                found.add(id(body[0].value))
    return found


def _findings(name: str, text: str) -> list[str]:
    """IPython/notebook names, imports of notebook tooling, and notebook paths in code."""
    tree = ast.parse(text, filename=name)  # a magic (%time, !cmd) is a syntax error here
    docstrings, found = _docstrings(tree), []
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and node.id in FORBIDDEN_NAMES:
            found.append(f"{name}:{node.lineno} {node.id}")
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            modules = [alias.name for alias in node.names]
            modules += [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            found += [
                f"{name}:{node.lineno} import {module}"
                for module in modules
                if module.split(".")[0] in FORBIDDEN_NAMES
            ]
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and ".ipynb" in node.value
            and id(node) not in docstrings
        ):
            found.append(f"{name}:{node.lineno} names a notebook")
    return found


@pytest.mark.check("R3")
def test_no_notebook_machinery(work, evidence) -> None:  # type: ignore[no-untyped-def]
    sources = _sources(work)
    assert "pipeline.py" in sources, "no pipeline.py"
    found = [finding for name, text in sources.items() for finding in _findings(name, text)]
    evidence(f"{len(sources)} Python files; findings {found[:5]}")
    assert not found


def _function(work: Path, reference: str) -> ast.FunctionDef:
    file_name, _, function = reference.partition(":")
    path = work / file_name
    assert file_name.endswith(".py") and path.is_file(), f"{reference}: no such file"
    tree = ast.parse(path.read_text())
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == function:
            return node
    raise AssertionError(f"{reference}: no top-level function {function!r}")


@pytest.mark.check("X1")
def test_every_stage_has_a_docstring(stages, work, evidence) -> None:  # type: ignore[no-untyped-def]
    missing = []
    for stage in stages:
        node = _function(work, str(stage.get("function", "")))
        doc = ast.get_docstring(node) or ""
        if len(doc.split()) < 4:
            missing.append(stage.get("name"))
    evidence(f"{len(stages)} stages; without a docstring of 4+ words: {missing}")
    assert not missing
