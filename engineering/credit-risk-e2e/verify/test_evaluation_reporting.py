"""Stages 5–6 of credit-risk-e2e: evaluation, reporting and reproducibility; the decision log."""

from __future__ import annotations

import ast
import json
import os
import re
import sys
import time
from collections import deque
from importlib.metadata import PackageNotFoundError, version

import numpy as np
import pandas as pd
import pytest
from conftest import digest, feature_names, scores, truth
from sklearn.metrics import f1_score, precision_score, recall_score, roc_auc_score

NUMERIC = ["Seniority", "Time", "Age", "Expenses", "Income", "Assets", "Debt", "Amount", "Price"]
DISTRIBUTIONS = {"sklearn": "scikit-learn", "yaml": "PyYAML", "PIL": "Pillow"}
STAGES = {"problem", "inspection", "preprocessing", "modelling", "evaluation", "reporting"}


@pytest.mark.check("E1")
def test_reported_validation_metrics(work, report, labelled, validation_ids, evidence) -> None:  # type: ignore[no-untyped-def]
    predictions = pd.read_csv(work / "validation_predictions.csv")
    assert sorted(predictions["id"]) == sorted(validation_ids)
    rows = predictions.merge(labelled.drop_duplicates(subset="id")[["id", "Status"]], on="id")
    y, p = truth(rows), rows["prob_bad"].to_numpy()
    flags = (p >= 0.5).astype(int)
    ours = {"roc_auc": roc_auc_score(y, p), "f1": f1_score(y, flags),
            "precision": precision_score(y, flags, zero_division=0),
            "recall": recall_score(y, flags)}  # fmt: skip
    reported = report["validation"]
    evidence(", ".join(f"{k} {float(reported[k]):.4f}/{v:.4f}" for k, v in ours.items()))
    for key, value in ours.items():
        assert abs(float(reported[key]) - value) <= 0.01, key


@pytest.mark.check("E2")
def test_noise_robustness(train_model, extra, evidence) -> None:  # type: ignore[no-untyped-def]
    rng = np.random.default_rng(77)
    rows = extra.head(6000)
    noisy = rows.copy()
    for column in NUMERIC:
        values = noisy[column].astype(float)
        noisy[column] = values + rng.normal(0, 0.05 * values.std(), len(values))
    y = truth(rows)
    clean = f1_score(y, scores(train_model, rows) >= 0.5)
    shaken = f1_score(y, scores(train_model, noisy) >= 0.5)
    drop = (clean - shaken) / clean if clean else 1.0
    evidence(f"F1 {clean:.4f} → {shaken:.4f} with 5 % noise (relative drop {drop:.3f})")
    assert clean > 0 and drop < 0.10


@pytest.mark.check("E3")
def test_precision_gap_across_gender(train_model, extra, evidence) -> None:  # type: ignore[no-untyped-def]
    """Precision per gender when the top-scored base-rate share of applicants is flagged."""
    y = truth(extra)
    values = scores(train_model, extra)
    flags = values >= np.quantile(values, 1 - y.mean())
    precisions = {}
    for group in sorted(extra["gender"].unique()):
        mask = (extra["gender"] == group).to_numpy()
        precisions[group] = precision_score(y[mask], flags[mask], zero_division=0)
    gap = max(precisions.values()) - min(precisions.values())
    evidence(f"precision by gender {precisions}, gap {gap:.4f}")
    assert gap < 0.05


@pytest.mark.check("E4")
def test_feature_importances(full_model, report, evidence) -> None:  # type: ignore[no-untyped-def]
    names = feature_names(full_model)
    reported = {str(k): float(v) for k, v in report["feature_importances"].items()}
    estimator = full_model[-1]
    values = getattr(estimator, "feature_importances_", None)
    if values is None:
        values = np.ravel(estimator.coef_)
    evidence(f"{len(reported)} reported, {len(names)} fitted features")
    assert set(reported) == set(names)
    fitted = dict(zip(names, map(float, values), strict=True))
    assert all(abs(reported[n] - fitted[n]) <= 1e-6 + 1e-4 * abs(fitted[n]) for n in names)


def _third_party_imports(work) -> set[str]:  # type: ignore[no-untyped-def]
    local = {p.stem for p in work.glob("*.py")} | {p.name for p in work.iterdir() if p.is_dir()}
    found = set()
    for path in work.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                found |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                found.add(node.module.split(".")[0])
    return {name for name in found if name not in sys.stdlib_module_names and name not in local}


@pytest.mark.check("RR1")
def test_requirements_pinned(work, evidence) -> None:  # type: ignore[no-untyped-def]
    pins = {}
    for line in (work / "requirements.txt").read_text().splitlines():
        match = re.fullmatch(r"\s*([A-Za-z0-9_.-]+)\s*==\s*([^\s;#]+).*", line)
        if match:
            pins[match.group(1).lower().replace("_", "-")] = match.group(2)
    wrong = []
    for module in sorted(_third_party_imports(work)):
        dist = DISTRIBUTIONS.get(module, module)
        try:
            installed = version(dist)
        except PackageNotFoundError:
            installed = "not installed"
        if pins.get(dist.lower().replace("_", "-")) != installed:
            wrong.append(f"{dist} (installed {installed})")
    evidence(f"pins {pins}; unpinned or wrong: {wrong}")
    assert not wrong


@pytest.mark.check("RR2")
def test_reproduce_gives_the_submitted_predictions(reproductions, work, evidence) -> None:  # type: ignore[no-untyped-def]
    run = reproductions[0]
    evidence(
        f"reproduce.sh exit {run.returncode}; hash {run.predictions[:12]}"
        f" vs submitted {digest(work / 'predictions.csv')[:12]}"
    )
    assert run.returncode == 0 and run.predictions == digest(work / "predictions.csv")


NODE = r"([A-Za-z_][\w-]*)(?:\s*[\[\(\{]+\"?([^\]\)\}\"]*)\"?[\]\)\}]+)?"
EDGE = re.compile(rf"^\s*{NODE}\s*-{{2,}}>(?:\|[^|]*\|)?\s*{NODE}\s*;?\s*$")


@pytest.mark.check("RR3")
def test_lineage_diagram(work, evidence) -> None:  # type: ignore[no-untyped-def]
    lines = [
        text
        for text in (work / "lineage.mmd").read_text().splitlines()
        if text.strip() and not text.strip().startswith("%%")
    ]
    assert re.fullmatch(r"\s*(flowchart|graph)\s+(LR|RL|TB|TD|BT)\s*", lines[0]), lines[0]
    labels, edges = {}, {}
    for line in lines[1:]:
        match = EDGE.match(line)
        assert match, f"not a flowchart edge: {line!r}"
        a, a_label, b, b_label = match.groups()
        for node, label in ((a, a_label), (b, b_label)):
            if label:
                labels[node] = label.strip()
            labels.setdefault(node, node)
        edges.setdefault(a, set()).add(b)
    for label in labels.values():
        if re.fullmatch(r"[\w./-]+\.\w+", label):
            assert (work / label).exists(), f"lineage names {label}, which does not exist"
    starts = [n for n, text in labels.items() if text == "data/credit.csv"]
    ends = {n for n, text in labels.items() if text == "report.json"}
    model_nodes = {n for n, text in labels.items() if "model" in (n + text).lower()}

    def reach(start, through):  # type: ignore[no-untyped-def]
        queue, seen = deque([(start, start in through)]), set()
        while queue:
            node, passed = queue.popleft()
            if node in ends and passed:
                return True
            for nxt in edges.get(node, ()):
                if (nxt, passed or nxt in through) not in seen:
                    seen.add((nxt, passed or nxt in through))
                    queue.append((nxt, passed or nxt in through))
        return False

    evidence(f"{len(labels)} nodes, {sum(map(len, edges.values()))} edges")
    assert starts and any(reach(s, model_nodes) for s in starts), (
        "no path data/credit.csv → model → report.json"
    )


@pytest.mark.check("RR4")
def test_hyperparameters_match(full_model, report, evidence) -> None:  # type: ignore[no-untyped-def]
    block = report["hyperparameters"]
    params = block["params"]
    fitted = json.loads(json.dumps(full_model[-1].get_params(), default=str))
    evidence(f"{len(params)} reported, source {block.get('source')!r}")
    assert block.get("source") in {"default", "tuned", "manual"} and len(params) >= 3
    assert all(key in fitted and fitted[key] == value for key, value in params.items())


@pytest.mark.check("RR5")
def test_report_failures_block(report) -> None:  # type: ignore[no-untyped-def]
    failures = report["failures"]
    assert isinstance(failures, list)
    assert all({"error_type", "location", "suggestion"} <= set(item) for item in failures)


@pytest.mark.check("D1")
def test_decision_log(work, facts, evidence) -> None:  # type: ignore[no-untyped-def]
    start_s = int(os.environ.get("START_TIME_NS", "0")) / 1e9
    entries = [
        json.loads(text)
        for text in (work / "decisions.jsonl").read_text().splitlines()
        if text.strip()
    ]
    stages = {e.get("stage") for e in entries}
    evidence(f"{len(entries)} entries, stages {sorted(map(str, stages))}")
    assert stages >= STAGES
    for entry in entries:
        assert {"step", "stage", "action", "rationale", "time"} <= set(entry)
        when = pd.Timestamp(entry["time"])
        when = when.tz_localize("UTC") if when.tzinfo is None else when
        assert start_s - 5 <= when.timestamp() <= time.time() + 5, (
            f"time {entry['time']} outside the run"
        )
        ev = entry.get("evidence") or {}
        if "positive_rate" in ev:
            assert abs(float(ev["positive_rate"]) - facts["positive_rate"]) <= 0.01
        if "duplicates" in ev:
            assert int(ev["duplicates"]) == facts["duplicates"]
        if "n_rows" in ev:
            assert int(ev["n_rows"]) in {facts["rows"], facts["rows"] - facts["duplicates"]}
