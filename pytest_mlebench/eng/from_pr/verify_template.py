"""The hidden verifier of a task made by ``mlebench eng from-pr`` (its ``verify/test_change.py``).

It runs inside the verifier with the ``mlebench_verify`` plugin. The agent's workspace is copied
into a scratch tree, every test file is put back as the pristine workspace has it (edited ones
restored, deleted ones brought back, added ones removed: an added ``conftest.py`` could rewrite
every outcome), and the repository's own pytest runs once over the files holding the listed ids
(``ids.json`` beside this file). Checks:

- ``F1`` (gate): each fail-to-pass test passes — the change's breakage is fixed;
- ``R1`` (gate): each pass-to-pass test still passes — nothing else broke;
- ``S1`` (gate): no test file differs from the pristine workspace — the instruction forbids it.

When the task was made with a wheelhouse, ``wheelhouse/`` beside this file holds the repository's
dependencies; they are installed offline (``pip --no-index --target``) into the scratch folder and
put on the suite's ``PYTHONPATH`` before it runs.

The suite is the agent's code: it runs in its own process, as the unprivileged user and without
the hidden folders' variables (``mlebench_agent_code``, the verifier's door to the agent's code).

Only the standard library, pytest, ``mlebench_agent_code`` (on the verifier's ``PYTHONPATH``) and
``_suite_results`` (copied beside this file) are imported.
"""

from __future__ import annotations

import filecmp
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytest
from _suite_results import (  # type: ignore[import-not-found]
    PASSED,
    PYTEST_OPTIONS,
    REQUIREMENT_FILES,
    collected_folder,
    is_test_path,
    module_of,
    read_junit,
)
from mlebench_agent_code import agent_env, agent_scratch, as_agent_user

IDS = json.loads(Path(__file__).with_name("ids.json").read_text("utf-8"))
NONE = "(no pass-to-pass test)"


@dataclass(frozen=True)
class Suite:
    outcomes: dict[str, str]
    broken: frozenset[str]
    tampering: tuple[str, ...]
    log: str


def find_test_files(root: Path) -> dict[str, Path]:
    """Relative POSIX path → file, for every test file under ``root`` that pytest could collect
    (``.git``, ``.venv``, ``build/``, ``node_modules/`` … left out)."""
    found = {}
    for folder, subfolders, files in os.walk(root):
        subfolders[:] = [name for name in subfolders if collected_folder(name)]
        for name in files:
            relative = (Path(folder) / name).relative_to(root).as_posix()
            if is_test_path(relative):
                found[relative] = Path(folder) / name
    return found


def restore_tests(tree: Path, pristine: Path) -> tuple[str, ...]:
    """Make ``tree``'s test files the pristine ones; what differed, as ``edited: PATH`` lines."""
    mine, theirs = find_test_files(tree), find_test_files(pristine)
    changes = []
    for relative in sorted(mine.keys() | theirs.keys()):
        if relative not in theirs:
            changes.append(f"added: {relative}")
            mine[relative].unlink()
            continue
        if relative not in mine:
            changes.append(f"deleted: {relative}")
        elif filecmp.cmp(mine[relative], theirs[relative], shallow=False):
            continue
        else:
            changes.append(f"edited: {relative}")
        target = tree / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(theirs[relative], target)
    return tuple(changes)


@pytest.fixture(scope="module")
def suite() -> Suite:
    work, pristine = Path(os.environ["WORK_DIR"]), Path(os.environ["PRISTINE_DIR"])
    tree = agent_scratch("change-") / "repo"
    shutil.copytree(work, tree, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    tampering = restore_tests(tree, pristine)
    files = sorted({test.split("::", 1)[0] for test in IDS["fail_to_pass"] + IDS["pass_to_pass"]})
    junit = tree.parent / "junit.xml"
    env = agent_env()
    install_log = install_dependencies(tree, env)
    command = [sys.executable, "-m", "pytest", *PYTEST_OPTIONS, f"--junitxml={junit}", *files]
    user = as_agent_user(tree.parent)
    try:
        done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True,
                              timeout=float(IDS["timeout_s"]), **user)  # fmt: skip
        log = install_log + (done.stdout + done.stderr)[-2000:]
    except subprocess.TimeoutExpired:
        log = f"the test suite ran past {IDS['timeout_s']} s"
    if not junit.is_file():
        return Suite({}, frozenset(), tampering, log)
    outcomes, broken = read_junit(junit.read_text("utf-8"))
    return Suite(outcomes, frozenset(broken), tampering, log)


def install_dependencies(tree: Path, env: dict[str, str]) -> str:
    """Install the tree's requirements from ``wheelhouse/`` (if any) and extend ``env``'s path."""
    wheels = Path(__file__).with_name("wheelhouse")
    files = [name for name in REQUIREMENT_FILES if (tree / name).is_file()]
    if not wheels.is_dir() or not files:
        return ""
    site = tree.parent / "site-packages"
    command = [sys.executable, "-m", "pip", "install", "-q", "--no-index", "--find-links",
               str(wheels), "--target", str(site)]  # fmt: skip
    for name in files:
        command += ["-r", name]
    done = subprocess.run(command, cwd=tree, capture_output=True, text=True)
    env["PYTHONPATH"] = os.pathsep.join([str(site), env.get("PYTHONPATH", "")])
    return "" if done.returncode == 0 else f"dependencies did not install: {done.stderr[-500:]}\n"


def _outcome(suite: Suite, test: str) -> str:
    outcome = suite.outcomes.get(test)
    if outcome is not None:
        return str(outcome)
    if module_of(test) in suite.broken:
        return "not collected: its module failed to import"
    return "not run: " + (suite.log.strip().splitlines() or ["no output"])[-1]


@pytest.mark.check("F1")
@pytest.mark.parametrize("test_id", IDS["fail_to_pass"])
def test_fail_to_pass(test_id: str, suite: Suite, evidence: Callable[[str], None]) -> None:
    outcome = _outcome(suite, test_id)
    if outcome != PASSED:
        evidence(f"{test_id}: {outcome}")
    assert outcome == PASSED, f"{test_id} still fails: {outcome}"


@pytest.mark.check("R1")
@pytest.mark.parametrize("test_id", IDS["pass_to_pass"] or [NONE])
def test_pass_to_pass(test_id: str, suite: Suite, evidence: Callable[[str], None]) -> None:
    if test_id == NONE:
        evidence("the suite had no test passing at both commits; nothing to keep passing")
        return
    outcome = _outcome(suite, test_id)
    if outcome != PASSED:
        evidence(f"{test_id}: {outcome}")
    assert outcome == PASSED, f"{test_id} passed before the change and fails now: {outcome}"


@pytest.mark.check("S1")
def test_tests_untouched(suite: Suite, evidence: Callable[[str], None]) -> None:
    for change in suite.tampering[:20]:
        evidence(change)
    assert not suite.tampering, f"test files were changed: {', '.join(suite.tampering[:5])}"
