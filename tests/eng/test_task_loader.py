"""The engineering task loader: a good folder loads; each broken rule is rejected, file named."""

from __future__ import annotations

import copy
from pathlib import Path
from typing import Any

import pytest

from pytest_mlebench.eng.lint import (
    checks_in_source,
    checks_in_verify,
    process_starts,
    process_starts_in_verify,
)
from pytest_mlebench.eng.task import load_task
from pytest_mlebench.eng.task_checks import DEFAULT_WEIGHTS
from pytest_mlebench.eng.task_registry import load_eng_registry
from pytest_mlebench.errors import ConfigError, UnknownCompetition
from tests.eng.task_folders import base_config, write_task


def test_a_good_task_loads_with_defaults(tmp_path: Path) -> None:
    task = load_task(write_task(tmp_path))
    assert task.id == "tiny-task"
    assert [check.id for check in task.checks] == ["F1", "R1"]
    assert task.checks[0].gate and not task.checks[1].gate
    assert dict(task.weights) == dict(DEFAULT_WEIGHTS)
    assert task.verify_time_limit == 30
    assert task.stages is None and task.metrics == {}


def _rejected(tmp_path: Path, config: dict[str, Any], verify: str | None = None) -> str:
    folder = (
        write_task(tmp_path, config) if verify is None else write_task(tmp_path, config, verify)
    )
    with pytest.raises(ConfigError) as caught:
        load_task(folder)
    return str(caught.value)


def _config(**changes: Any) -> dict[str, Any]:
    config = copy.deepcopy(base_config())
    config.update(changes)
    return config


def test_a_requirement_no_check_covers_is_rejected(tmp_path: Path) -> None:
    config = _config(requirements={"R1": "a", "R2": "b", "R3": "nobody checks me"})
    message = _rejected(tmp_path, config)
    assert "config.yaml" in message and "no check covers: R3" in message


def test_a_check_covering_nothing_is_rejected(tmp_path: Path) -> None:
    config = _config()
    config["checks"][1]["covers"] = []
    assert "check R1: covers nothing" in _rejected(tmp_path, config)


def test_a_check_covering_an_unknown_requirement_is_rejected(tmp_path: Path) -> None:
    config = _config()
    config["checks"][1]["covers"] = ["R2", "R9"]
    assert "covers unknown requirement(s) R9" in _rejected(tmp_path, config)


def test_a_check_without_a_test_is_rejected(tmp_path: Path) -> None:
    config = _config(requirements={"R1": "a", "R2": "b", "R3": "c"})
    config["checks"].append(
        {"id": "X1", "covers": ["R3"], "dimension": "explainability", "why": "w", "fix_hint": "f"}
    )
    message = _rejected(tmp_path, config)
    assert "no @pytest.mark.check test" in message and "X1" in message


def test_a_test_of_an_undeclared_check_is_rejected_naming_the_test_file(tmp_path: Path) -> None:
    verify = (
        'import pytest\n\n@pytest.mark.check("F1")\ndef test_a(): pass\n\n'
        '@pytest.mark.check("R1")\ndef test_b(): pass\n\n'
        '@pytest.mark.check("Z9")\ndef test_c(): pass\n'
    )
    message = _rejected(tmp_path, _config(), verify)
    assert "test_tiny.py" in message and "Z9" in message and "does not declare" in message


def test_weights_not_summing_to_one_are_rejected(tmp_path: Path) -> None:
    weights = {
        "functional": 0.5,
        "robustness": 0.25,
        "efficiency": 0.15,
        "explainability": 0.1,
        "safety": 0.1,
    }
    assert "sum to 1" in _rejected(tmp_path, _config(weights=weights))


def test_weights_summing_to_one_within_rounding_load(tmp_path: Path) -> None:
    weights = {
        "functional": 0.1 + 0.2,
        "robustness": 0.7 - 0.3,
        "efficiency": 0.1,
        "explainability": 0.1,
        "safety": 0.1,
    }
    assert (
        abs(sum(load_task(write_task(tmp_path, _config(weights=weights))).weights.values()) - 1)
        < 1e-9
    )


def test_an_unknown_dimension_is_rejected(tmp_path: Path) -> None:
    config = _config()
    config["checks"][0]["dimension"] = "speed"
    assert "unknown dimension 'speed'" in _rejected(tmp_path, config)


def test_a_weight_on_an_unknown_dimension_is_rejected(tmp_path: Path) -> None:
    weights = {"functional": 0.9, "speed": 0.1}
    assert "unknown dimension(s) speed" in _rejected(tmp_path, _config(weights=weights))


def _metric_config(metric: dict[str, Any]) -> dict[str, Any]:
    config = _config(requirements={"R1": "a", "R2": "b", "R3": "auc"}, metrics={"MS1": metric})
    config["checks"].append(
        {"id": "MS1", "covers": ["R3"], "dimension": "functional", "why": "w", "fix_hint": "f"}
    )
    return config


def test_a_metric_without_direction_is_rejected(tmp_path: Path) -> None:
    message = _rejected(tmp_path, _metric_config({"baseline": 0.5, "oracle": 0.8}))
    assert "metric MS1 needs its direction" in message


def test_a_metric_without_baseline_or_oracle_is_rejected(tmp_path: Path) -> None:
    message = _rejected(tmp_path, _metric_config({"higher_is_better": True, "oracle": 0.8}))
    assert "needs baseline and oracle" in message


def test_a_metric_whose_oracle_loses_to_the_baseline_is_rejected(tmp_path: Path) -> None:
    config = _metric_config({"higher_is_better": True, "baseline": 0.8, "oracle": 0.6})
    assert "must beat the baseline" in _rejected(tmp_path, config)


def test_a_metric_check_needs_no_test_of_its_own(tmp_path: Path) -> None:
    task = load_task(
        write_task(tmp_path, _metric_config({"lower_is_better": True, "baseline": 9, "oracle": 3}))
    )
    assert task.metrics["MS1"].higher_is_better is False


def test_a_check_without_a_teaching_card_is_rejected(tmp_path: Path) -> None:
    config = _config()
    del config["checks"][0]["fix_hint"]
    assert "needs a fix_hint" in _rejected(tmp_path, config)


def test_an_id_other_than_the_folder_name_is_rejected(tmp_path: Path) -> None:
    folder = write_task(tmp_path)
    folder.rename(tmp_path / "renamed")
    with pytest.raises(ConfigError, match="must equal the folder name"):
        load_task(tmp_path / "renamed")


def test_stages_as_lists_give_each_check_a_point(tmp_path: Path) -> None:
    task = load_task(write_task(tmp_path, _config(stages={"problem": ["F1"], "rest": {"R1": 4}})))
    assert task.stages == {"problem": {"F1": 1.0}, "rest": {"R1": 4.0}}


def test_the_lint_reads_marks_on_functions_classes_and_pytestmark(tmp_path: Path) -> None:
    path = tmp_path / "test_x.py"
    path.write_text(
        "import pytest\nfrom pytest import mark\npytestmark = [pytest.mark.check('M1')]\n"
        "@mark.check('A1')\ndef test_a(): pass\n"
        "@pytest.mark.check('B1')\nclass TestB:\n    def test_b(self): pass\n"
        "@pytest.mark.slow\ndef test_c(): pass\n"
    )
    assert sorted(checks_in_source(path)) == ["A1", "B1", "M1"]
    assert checks_in_verify(tmp_path) == {"A1": [path], "B1": [path], "M1": [path]}


def test_a_verifier_file_that_does_not_parse_is_named(tmp_path: Path) -> None:
    (tmp_path / "test_bad.py").write_text("def (:\n")
    with pytest.raises(ConfigError, match="test_bad.py: the verifier test does not parse"):
        checks_in_verify(tmp_path)


@pytest.mark.parametrize(
    "source",
    [
        "import subprocess",
        "import multiprocessing.pool",
        "from subprocess import run",
        "import os\nos.system('id')",
        "import os\nos.execv('/bin/sh', ['sh'])",
        "from os import spawnlp",
        "import os\nos.posix_spawn('/bin/sh', ['sh'], {})",
        "import pty",
        "from concurrent.futures import ProcessPoolExecutor",
        "import asyncio\nasyncio.create_subprocess_exec('sh')",
        "__import__('subprocess')",
        "import importlib\nimportlib.import_module('subprocess')",
    ],
)
def test_the_lint_finds_a_process_started_outside_the_door(tmp_path: Path, source: str) -> None:
    path = tmp_path / "conftest.py"
    path.write_text(source + "\n")
    assert process_starts(path), source


def test_the_door_and_threads_are_no_process_start(tmp_path: Path) -> None:
    path = tmp_path / "test_ok.py"
    path.write_text(
        "import os, threading\nfrom concurrent.futures import ThreadPoolExecutor\n"
        "from mlebench_agent_run import run_agent\nrun_agent(['true'])\nos.environ.get('X')\n"
    )
    assert process_starts(path) == []


def test_the_loader_refuses_a_verifier_that_bypasses_the_door(tmp_path: Path) -> None:
    folder = write_task(tmp_path)
    (folder / "verify" / "helper.py").write_text("import subprocess\n")
    with pytest.raises(ConfigError, match=r"helper.py:1: import subprocess.*mlebench_agent_run"):
        load_task(folder)


def test_no_shipped_verifier_starts_a_process_outside_the_door() -> None:
    root = Path(__file__).resolve().parents[2]
    folders = [
        *(root / "engineering").glob("*/verify"),
        root / "pytest_mlebench" / "eng" / "from_pr",
    ]
    template = root / "pytest_mlebench" / "eng" / "from_pr" / "verify_template.py"
    found = [f for folder in folders[:-1] for f in process_starts_in_verify(folder)]
    found += [f"{template}:{line}: {what}" for line, what in process_starts(template)]
    assert len(folders) > 16 and found == []


def test_the_registry_loads_tasks_and_splits(tmp_path: Path) -> None:
    write_task(tmp_path)
    (tmp_path / "splits").mkdir()
    (tmp_path / "splits" / "core.txt").write_text("# core\ntiny-task\nnot-yet-written\n")
    registry = load_eng_registry([tmp_path], builtin=None)
    assert [task.id for task in registry] == ["tiny-task"]
    assert registry.get("tiny-task").splits == {"core"}
    assert registry.splits == {"core": ("tiny-task",)}
    assert registry.unavailable == {"core": ("not-yet-written",)}
    with pytest.raises(UnknownCompetition, match="did you mean"):
        registry.get("tiny-tsk")


def test_the_registry_stops_on_a_broken_task(tmp_path: Path) -> None:
    config = _config(requirements={"R1": "a", "R2": "b", "R3": "c"})
    write_task(tmp_path, config)
    with pytest.raises(ConfigError, match="R3"):
        load_eng_registry([tmp_path], builtin=None)


def test_the_builtin_tasks_load() -> None:
    registry = load_eng_registry()
    assert "core" in registry.splits
    for task in registry:
        assert task.instruction.is_file()


def test_roles_are_read_and_an_unknown_role_is_rejected(tmp_path: Path) -> None:
    config = _config()
    config["checks"][0]["role"] = "fail-to-pass"
    config["checks"][1]["role"] = "pass-to-pass"
    task = load_task(write_task(tmp_path / "good", config))
    assert [check.role for check in task.checks] == ["fail-to-pass", "pass-to-pass"]
    config["checks"][1]["role"] = "still-passes"
    assert "role must be fail-to-pass or pass-to-pass" in _rejected(tmp_path / "bad", config)


def test_a_pass_to_pass_check_without_a_fail_to_pass_one_is_rejected(tmp_path: Path) -> None:
    config = _config()
    config["checks"][1]["role"] = "pass-to-pass"
    assert "needs a fail-to-pass check" in _rejected(tmp_path, config)


@pytest.mark.parametrize(
    ("count", "fix"), [(0, "add the task's known hacks"), (1, "add"), (7, "keep the hacks")]
)
def test_a_task_needs_two_to_six_cheats(tmp_path: Path, count: int, fix: str) -> None:
    folder = write_task(tmp_path)
    for script in (folder / "cheats").glob("*.sh"):
        script.unlink()
    for number in range(count):
        (folder / "cheats" / f"hack-{number}.sh").write_text("true\n")
    with pytest.raises(ConfigError, match=rf"{count} cheats in cheats/ \(2 to 6 expected\): {fix}"):
        load_task(folder)
    for number in range(count, 6):  # up to six: it loads
        (folder / "cheats" / f"hack-{number}.sh").write_text("true\n")
    if count < 7:
        assert len(load_task(folder).cheats()) == 6


def test_the_proof_lint_is_the_loaders_verdict(tmp_path: Path) -> None:
    from tests.eng.prove_task import lint

    folder = write_task(tmp_path)
    (folder / "cheats" / "say-not-ok.sh").unlink()
    assert lint(folder) == [
        f"{folder}: 1 cheats in cheats/ (2 to 6 expected): add the task's known hacks as "
        "cheats/NAME.sh, each a run that must fail a gate (docs/engineering.md)"
    ]
    (folder / "cheats" / "say-not-ok.sh").write_text("true\n")
    assert lint(folder) == ["missing README.md", "evidence.oracle_wall_s is missing"]
