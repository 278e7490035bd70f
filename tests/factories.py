"""Builders of tiny competition folders for tests (real files, loaded by the real registry)."""

from __future__ import annotations

import importlib.abc
import sys
import textwrap
from pathlib import Path
from typing import Any

import yaml

TOY_PREPARE = '''
"""A toy binary task: 40 rows, label = (x > 0.5)."""
import csv
import os
from pathlib import Path

COUNTER = os.environ.get("TOY_PREPARE_COUNTER")


def prepare(raw: Path, public: Path, private: Path) -> None:
    if COUNTER:
        with open(COUNTER, "a") as handle:
            handle.write(f"{public.parent.parent.name} {os.getpid()}\\n")
    rows = [(f"r{i:03d}", round((i * 37 % 100) / 100, 2)) for i in range(40)]
    train, test = rows[:20], rows[20:]
    with open(public / "train.csv", "w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["id", "x", "label"])
        out.writerows((i, x, int(x > 0.5)) for i, x in train)
    with open(public / "test.csv", "w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["id", "x"])
        out.writerows(test)
    with open(public / "sample_submission.csv", "w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["id", "label"])
        out.writerows((i, 0) for i, _ in test)
    with open(private / "answers.csv", "w", newline="") as handle:
        out = csv.writer(handle)
        out.writerow(["id", "label"])
        out.writerows((i, int(x > 0.5)) for i, x in test)
'''


def toy_config(competition_id: str, **overrides: Any) -> dict[str, Any]:
    config: dict[str, Any] = {
        "id": competition_id,
        "name": f"Toy {competition_id}",
        "complexity": "low",
        "source": "embedded",
        "modality": "tabular",
        "metric": {"name": "accuracy", "lower_is_better": False},
        "submission": {"id_column": "id", "columns": ["label"]},
        "time_limit": 60,
        "resources": {"cpus": 1, "memory": "1g"},
    }
    config.update(overrides)
    return config


def write_competition(
    root: Path,
    competition_id: str = "toy",
    *,
    leaderboard: str = "score\n1.0\n0.9\n0.8\n0.7\n0.6\n0.55\n0.5\n0.45\n0.4\n0.3\n",
    prepare: str = TOY_PREPARE,
    config: dict[str, Any] | None = None,
    splits: dict[str, list[str]] | None = None,
) -> Path:
    """Write ``root/<id>/`` with config, description, prepare.py and leaderboard."""
    folder = root / competition_id
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.yaml").write_text(yaml.safe_dump(config or toy_config(competition_id)))
    (folder / "description.md").write_text(f"# {competition_id}\n\nPredict label from x.\n")
    (folder / "prepare.py").write_text(textwrap.dedent(prepare))
    (folder / "leaderboard.csv").write_text(leaderboard)
    for name, ids in (splits or {}).items():
        (root / "splits").mkdir(exist_ok=True)
        (root / "splits" / f"{name}.txt").write_text("\n".join(ids) + "\n")
    return folder


class HiddenPackage(importlib.abc.MetaPathFinder):
    """A finder that makes a package look uninstalled: importing it (or a submodule) fails.

    Put first on ``sys.meta_path`` (and drop the package from ``sys.modules``) to see what a
    machine without it does, through the real import system.
    """

    def __init__(self, package: str) -> None:
        self.package = package

    def find_spec(self, name: str, path: object = None, target: object = None) -> None:
        if name == self.package or name.startswith(f"{self.package}."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)


def hide_package(monkeypatch: Any, package: str) -> None:
    """Make ``package`` unimportable for the rest of a test (undone by ``monkeypatch``)."""
    for name in [n for n in sys.modules if n == package or n.startswith(f"{package}.")]:
        monkeypatch.delitem(sys.modules, name)
    monkeypatch.setattr(sys, "meta_path", [HiddenPackage(package), *sys.meta_path])


BENCH_MODULE = (
    "from pytest_mlebench.benchmark import test_competition\n__all__ = ['test_competition']\n"
)


def bench_command(folder: Path, *args: str) -> list[str]:
    """The benchmark run as a user runs it, in a subprocess started in ``folder``.

    Writes ``folder/test_bench.py`` (importing the suite's test) and returns
    ``python -m pytest test_bench.py -p no:cacheprovider *args``.
    """
    (folder / "test_bench.py").write_text(BENCH_MODULE)
    return [sys.executable, "-m", "pytest", "test_bench.py", "-p", "no:cacheprovider", *args]
