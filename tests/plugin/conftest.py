"""A tiny example project for pytester: toy competitions and a test module importing the suite."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.factories import toy_config, write_competition

PERFECT_PREPARE = """
import csv
import os
from pathlib import Path


def prepare(raw: Path, public: Path, private: Path) -> None:
    counter = os.environ.get("TOY_PREPARE_COUNTER")
    if counter:
        with open(counter, "a") as handle:
            handle.write(f"{public.parent.parent.name} {os.getpid()}\\n")
    ids = [f"p{i}" for i in range(10)]
    (public / "train.csv").write_text("id,label\\n" + "".join(f"{i},0\\n" for i in ids))
    (public / "test.csv").write_text("id\\n" + "".join(f"{i}\\n" for i in ids))
    (public / "sample_submission.csv").write_text("id,label\\n" + "".join(f"{i},0\\n" for i in ids))
    (private / "answers.csv").write_text("id,label\\n" + "".join(f"{i},0\\n" for i in ids))
"""


@dataclass
class ExampleProject:
    pytester: pytest.Pytester
    root: Path

    def args(self, *extra: str) -> list[str]:
        return [
            "--mle-competitions-dir",
            str(self.root / "defs"),
            "--mle-data-dir",
            str(self.root / "data"),
            "--mle-results",
            str(self.root / "reports" / "results.jsonl"),
            "--mle-sandbox",
            "local",
            "-p",
            "no:randomly",
            *extra,
        ]

    def run(self, *extra: str) -> pytest.RunResult:
        return self.pytester.runpytest_subprocess(*self.args(*extra))

    def prepare_calls(self) -> list[str]:
        path = self.root / "calls.txt"
        return [line.split()[0] for line in path.read_text().splitlines()] if path.exists() else []


@pytest.fixture
def project(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> ExampleProject:
    root = pytester.path
    defs = root / "defs"
    # toy-a: dummy agent's sample submission scores 0.5 (valid, no medal)
    write_competition(defs, "toy-a", splits={"toys": ["toy-a", "toy-b", "toy-high"]})
    # toy-b: sample submission is perfect (gold)
    write_competition(defs, "toy-b", prepare=PERFECT_PREPARE)
    write_competition(
        defs, "toy-high", config=toy_config("toy-high", complexity="high", modality="text")
    )
    write_competition(
        defs,
        "toy-missing",
        config=toy_config("toy-missing", requires=["no_such_mod_mlebench"]),
        splits={"toys": ["toy-a", "toy-b", "toy-high", "toy-missing"]},
    )
    pytester.makepyfile(
        test_bench="from pytest_mlebench.benchmark import test_competition\n"
        "__all__ = ['test_competition']\n"
    )
    monkeypatch.setenv("TOY_PREPARE_COUNTER", str(root / "calls.txt"))
    return ExampleProject(pytester, root)
