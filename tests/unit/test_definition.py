"""A folder: config, leaderboard and prepare.py load in one step, or fail with the file + fix."""

from __future__ import annotations

from pathlib import Path

import pytest

from pytest_mlebench.definition import load_competition, load_prepare
from pytest_mlebench.errors import ConfigError, PrepareError
from tests.factories import toy_config, write_competition


def test_toy_competition_loads_with_its_leaderboard_and_thresholds(tmp_path: Path) -> None:
    folder = write_competition(tmp_path, "toy")
    comp = load_competition(folder, frozenset({"mine"}))
    assert comp.id == "toy"
    assert comp.folder == folder
    assert comp.metric == "accuracy"
    assert comp.lower_is_better is False
    assert comp.submission.target_columns == ("label",)
    assert comp.splits == {"mine"}
    assert comp.leaderboard_scores[0] == 1.0
    assert len(comp.leaderboard_scores) == 10
    assert comp.thresholds.gold == 1.0
    assert comp.thresholds.bronze == 0.7


def test_the_config_file_names_its_folder(tmp_path: Path) -> None:
    folder = write_competition(tmp_path, "toy")
    assert load_competition(folder / "config.yaml") == load_competition(folder)


def test_without_the_leaderboard_there_are_no_thresholds(tmp_path: Path) -> None:
    folder = write_competition(tmp_path, "toy")
    (folder / "leaderboard.csv").unlink()
    comp = load_competition(folder, leaderboard=False)
    assert comp.leaderboard_scores == ()
    assert comp.submission.metric == "accuracy"
    assert comp.thresholds is None and not comp.has_leaderboard


BROKEN_CONFIGS = [
    (toy_config("toy", metric={"name": "accuracy", "lower_is_better": True}), "lower_is_better"),
    (
        toy_config("toy", metric={"name": "no-such-metric", "lower_is_better": False}),
        "no-such-metric",
    ),
    (toy_config("toy", metric="accuracy"), "'metric' needs 'name' and 'lower_is_better'"),
    (toy_config("toy", complexity="easy"), "complexity 'easy' must be one of"),
    (toy_config("toy", source="web"), "source 'web'"),
    (toy_config("toy", modality="smell"), "modality 'smell'"),
    (toy_config("other"), "must equal the folder name"),
    (toy_config("toy", time_limit=-5), "time_limit"),
    (toy_config("toy", submission={"id_column": "id"}), "'columns'"),
    (toy_config("toy", resources={"cpu": 2}), "unknown resources key"),
    (
        toy_config(
            "toy",
            metric={"name": "roc-auc", "lower_is_better": False},
            submission={"id_column": "id", "columns": ["a", "b"]},
        ),
        "metric 'roc-auc' needs",
    ),
    (
        toy_config("toy", submission={"id_column": "id", "columns": ["label"], "metric_params": 3}),
        "metric_params must be a mapping",
    ),
    (
        toy_config(
            "toy", submission={"id_column": "id", "columns": ["label"], "metric_params": {"k": 5}}
        ),
        "has no parameter 'k'",
    ),
]


@pytest.mark.parametrize(("config", "message"), BROKEN_CONFIGS)
def test_broken_config_names_file_and_problem(
    tmp_path: Path, config: dict[str, object], message: str
) -> None:
    folder = write_competition(tmp_path, "toy", config=config)
    with pytest.raises(ConfigError, match=message) as info:
        load_competition(folder)
    assert str(folder / "config.yaml") in str(info.value)


def test_missing_key(tmp_path: Path) -> None:
    config = toy_config("toy")
    del config["metric"]
    folder = write_competition(tmp_path, "toy", config=config)
    with pytest.raises(ConfigError, match="missing key 'metric'.*docs/competition-format.md"):
        load_competition(folder)


def test_invalid_yaml(tmp_path: Path) -> None:
    folder = write_competition(tmp_path, "toy")
    (folder / "config.yaml").write_text("id: [unclosed\n")
    with pytest.raises(ConfigError, match="not valid YAML"):
        load_competition(folder)


def test_a_folder_without_config(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"absent/config\.yaml: missing"):
        load_competition(tmp_path / "absent")


@pytest.mark.parametrize(
    ("leaderboard", "message"),
    [
        ("version https://git-lfs.github.com/spec/v1\noid sha256:abc\nsize 12\n", "git lfs pull"),
        ("team,points\na,1\n", "'score' column"),
        ("score\n", "no rows"),
        ("", "'score' column"),
        ("score\n0.5\n0.9\n", "contradict the declared direction"),
        ("score\n0.9\nabc\n", "must be a number"),
        ("score\n0.9\nnan\n", "must be finite"),
    ],
)
def test_broken_leaderboard(tmp_path: Path, leaderboard: str, message: str) -> None:
    folder = write_competition(tmp_path, "toy", leaderboard=leaderboard)
    with pytest.raises(ConfigError, match=message) as info:
        load_competition(folder)
    assert "leaderboard.csv" in str(info.value)


def test_missing_leaderboard(tmp_path: Path) -> None:
    folder = write_competition(tmp_path, "toy")
    (folder / "leaderboard.csv").unlink()
    with pytest.raises(ConfigError, match=r"leaderboard\.csv: missing.*'score'"):
        load_competition(folder)


def test_a_kaggle_competition_may_ship_without_its_leaderboard(tmp_path: Path) -> None:
    folder = write_competition(tmp_path, "toy", config=toy_config("toy", source="kaggle"))
    (folder / "leaderboard.csv").unlink()
    comp = load_competition(folder)
    assert comp.thresholds is None and not comp.has_leaderboard
    (folder / "leaderboard.csv").write_text("score\n0.5\n0.9\n")  # present: checked as ever
    with pytest.raises(ConfigError, match="descending"):
        load_competition(folder)


def test_lower_is_better_leaderboard_must_ascend(tmp_path: Path) -> None:
    config = toy_config("toy", metric={"name": "rmse", "lower_is_better": True})
    folder = write_competition(tmp_path, "toy", config=config, leaderboard="score\n0.1\n0.2\n0.3\n")
    assert load_competition(folder).thresholds.gold == 0.1
    (folder / "leaderboard.csv").write_text("score\n0.3\n0.2\n")
    with pytest.raises(ConfigError, match="ascending"):
        load_competition(folder)


@pytest.mark.parametrize("name", ["prepare.py", "description.md"])
def test_missing_required_file(tmp_path: Path, name: str) -> None:
    folder = write_competition(tmp_path, "toy")
    (folder / name).unlink()
    with pytest.raises(ConfigError, match=f"{name}: missing"):
        load_competition(folder)


def test_prepare_function_writes_the_data(tmp_path: Path) -> None:
    comp = load_competition(write_competition(tmp_path / "competitions", "toy"))
    prepare = load_prepare(comp)
    raw, public, private = tmp_path / "raw", tmp_path / "public", tmp_path / "private"
    for folder in (raw, public, private):
        folder.mkdir()
    prepare(raw, public, private)
    assert (public / "sample_submission.csv").is_file()
    assert (private / "answers.csv").read_text().startswith("id,label\n")


@pytest.mark.parametrize(
    ("source", "message"),
    [
        ("def prepare_data(raw, public, private):\n    pass\n", "defines no prepare"),
        ("prepare = 3\n", "defines no prepare"),
        ("raise RuntimeError('source data moved')\n", "failed to import.*source data moved"),
        # An AttributeError raised while importing is an import failure, not a missing prepare.
        ("import os\nos.no_such_function()\n", "failed to import.*no_such_function"),
        ("import surely_not_installed_xyz\n", "failed to import.*surely_not_installed_xyz"),
    ],
)
def test_a_broken_prepare_module_names_the_file(tmp_path: Path, source: str, message: str) -> None:
    comp = load_competition(write_competition(tmp_path, "toy", prepare=source))
    with pytest.raises(PrepareError, match=message) as info:
        load_prepare(comp)
    assert str(comp.prepare_path) in str(info.value)


def test_resources_pids_has_a_default_and_can_be_set(tmp_path: Path) -> None:
    default = write_competition(tmp_path, "toy-default")
    assert load_competition(default).resources.pids == 4096
    config = toy_config("toy-pids", resources={"cpus": 1, "memory": "1g", "pids": 128})
    folder = write_competition(tmp_path, "toy-pids", config=config)
    assert load_competition(folder).resources.pids == 128
