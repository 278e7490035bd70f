"""The header's counts, the selection line after collection, and no GPU warning nobody asked for."""

from __future__ import annotations

import pytest

from pytest_mlebench.sandbox.gpus import detect_gpus
from pytest_mlebench.session_notes import eng_image_line, seeds_text, selection_line
from tests.factories import toy_config, write_competition
from tests.plugin.conftest import ExampleProject

GPU_WARNING = "mlebench WARNING: no GPU found (--mle-gpus auto), and 1 selected competition(s)"


@pytest.mark.parametrize(
    ("seeds", "text"), [(1, "1 seed (s0)"), (2, "2 seeds (s0-s1)"), (3, "3 seeds (s0-s2)")]
)
def test_seeds_are_counted_and_named_as_the_tables_name_them(seeds: int, text: str) -> None:
    assert seeds_text(seeds) == text


def test_the_selection_line() -> None:
    assert selection_line(14, 28, 36, 2) == (
        "mlebench: 14 of 36 competitions selected: 28 run(s), 2 seeds (s0-s1) each"
    )


def test_an_unbuilt_eng_image_is_announced_with_its_first_time() -> None:
    line = eng_image_line(tasks=3, built=False)
    assert line is not None
    assert line.startswith("mlebench: set-up: the eng image")
    assert "the first of the 3 selected task(s) builds it now, once: 13 to 18 min" in line
    assert "mlebench sandbox build --profile eng" in line
    assert eng_image_line(tasks=3, built=True) is None
    assert eng_image_line(tasks=0, built=False) is None


def test_header_counts_what_is_available_and_collection_what_is_selected(
    project: ExampleProject,
) -> None:
    result = project.run("-m", "toys", "-k", "toy-a or toy-b", "--mle-seeds", "2", "--co")
    header = next(line for line in result.stdout.lines if line.startswith("mlebench: agent"))
    assert "competitions available, 2 seeds (s0-s1), gate" in header
    result.stdout.fnmatch_lines(["mlebench: 2 of * competitions selected: 4 run(s), 2 seeds*"])
    # (on a machine without GPUs) --mle-gpus auto finding none is no warning
    assert "GPUs: none found" not in result.stdout.str()


@pytest.mark.skipif(bool(detect_gpus()), reason="the warning is for machines without a GPU")
@pytest.mark.parametrize("workers", [[], ["-n", "2"]], ids=["one-process", "xdist"])
def test_the_gpu_warning_names_only_selected_competitions_that_ask_for_one(
    project: ExampleProject, workers: list[str]
) -> None:
    resources = {"cpus": 1, "memory": "1g", "gpus": 1}
    config = toy_config("toy-gpu", resources=resources)
    write_competition(project.root / "defs", "toy-gpu", config=config)
    wanted = project.run("-k", "toy-gpu or toy-a", *workers)
    wanted.assert_outcomes(passed=2)
    wanted.stdout.fnmatch_lines(
        ["mlebench: 2 of * competitions selected: 2 run(s), 1 seed (s0) each",
         f"{GPU_WARNING} ask for one; they run without: toy-gpu"]
    )  # fmt: skip
    unwanted = project.run("-k", "toy-a", *workers)
    unwanted.assert_outcomes(passed=1)
    assert "no GPU found" not in unwanted.stdout.str()
