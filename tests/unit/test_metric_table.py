"""The name-only metric table (``graders.metrics.METRIC_MODULES``) against the declarations.

Each family module declares its metrics in ``DECLARATIONS``; the table names the module of each.
Looking a metric up imports that module alone, so these tests read every module the slow way
(import them all, collect every declaration) and hold the table to it: same names, the right
module for each, and every competition's metric (and its original-compatible metric) resolving to
the very declaration the full scan finds.
"""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys

import pytest

from pytest_mlebench.graders import METRICS, Metric, UnknownMetricError, get_metric
from pytest_mlebench.graders import metrics as metrics_package
from pytest_mlebench.graders.metrics import METRIC_MODULES
from pytest_mlebench.registry import load_registry


def declared_by_scan() -> dict[str, tuple[str, Metric]]:
    """Every declaration of every module of the package: ``{name: (module, Metric)}``."""
    found: dict[str, tuple[str, Metric]] = {}
    for info in pkgutil.iter_modules(metrics_package.__path__):
        module = importlib.import_module(f"{metrics_package.__name__}.{info.name}")
        for metric in getattr(module, "DECLARATIONS", ()):
            assert metric.name not in found, f"{metric.name} declared twice"
            found[metric.name] = (info.name, metric)
    return found


def test_the_table_names_every_declaration_and_its_module() -> None:
    scanned = declared_by_scan()
    assert {name: module for name, (module, _) in scanned.items()} == dict(METRIC_MODULES)


def test_every_competitions_metric_resolves_to_its_declaration() -> None:
    scanned = declared_by_scan()
    competitions = list(load_registry())
    assert len(competitions) >= 75
    for competition in competitions:
        names = [competition.metric]
        if competition.original_grader is not None:
            names.append(competition.original_grader.spec.metric)
        for name in names:
            assert get_metric(name) is scanned[name][1], (competition.id, name)
            assert METRICS[name] is scanned[name][1]


def test_an_unknown_name_lists_the_known_ones() -> None:
    with pytest.raises(UnknownMetricError, match="known metrics: .*roc-auc"):
        get_metric("roc-aux")
    with pytest.raises(KeyError):
        METRICS["roc-aux"]
    assert len(METRICS) == len(METRIC_MODULES) and set(METRICS) == set(METRIC_MODULES)


def test_looking_up_a_metric_imports_only_its_module() -> None:
    script = (
        "import sys\n"
        "from pytest_mlebench.graders import get_metric\n"
        "before = {m for m in sys.modules if m.startswith('pytest_mlebench.graders.metrics.')}\n"
        "get_metric('rmse')\n"
        "after = {m for m in sys.modules if m.startswith('pytest_mlebench.graders.metrics.')}\n"
        "print(sorted(before), sorted(after - before))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True
    )
    prefix = "pytest_mlebench.graders.metrics."
    shared = f"['{prefix}base', '{prefix}text_column']"  # what every metric's input is made of
    assert done.stdout.strip() == f"{shared} ['{prefix}regression']"
