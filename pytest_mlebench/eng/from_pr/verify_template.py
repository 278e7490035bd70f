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
dependencies; the lines of the repository's requirements files are read here (an option, a path
or a URL is refused) and installed as wheels only (``pip --no-index --only-binary=:all:
--target``) into the scratch folder, which goes on the suite's ``sys.path``.

The suite is the agent's code: it runs through the verifier's door (``mlebench_agent_run``) as
the unprivileged user, in a fresh environment, with ``python3 -I -m pytest`` (a ``pytest`` folder
of the repository cannot stand in for it) and without the repository's ``addopts``.

Only the standard library, pytest, the verifier's modules (on its ``PYTHONPATH``) and
``_suite_results`` (copied beside this file) are imported.
"""

from __future__ import annotations

import filecmp
import json
import os
import shutil
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
from mlebench_agent_requirements import RequirementRefused, pip_install, read_requirements
from mlebench_agent_run import agent_scratch, hand_over, run_agent, suite_command

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
        target = _plain_path(tree, relative)
        shutil.copyfile(theirs[relative], target)
    return tuple(changes)


def _plain_path(tree: Path, relative: str) -> Path:
    """``tree/relative`` with no link on the way (a link the agent planted is removed, never
    written through: the verifier is root) and its folders made."""
    target = tree
    for part in Path(relative).parts:
        target = target / part
        if target.is_symlink():
            target.unlink()
    target.parent.mkdir(parents=True, exist_ok=True)
    return target


@pytest.fixture(scope="module")
def suite() -> Suite:
    work, pristine = Path(os.environ["WORK_DIR"]), Path(os.environ["PRISTINE_DIR"])
    tree = agent_scratch("change-") / "repo"
    shutil.copytree(work, tree, symlinks=True, ignore=shutil.ignore_patterns(".git"))
    tampering = restore_tests(tree, pristine)
    hand_over(tree)
    files = sorted({test.split("::", 1)[0] for test in IDS["fail_to_pass"] + IDS["pass_to_pass"]})
    junit = tree.parent / "junit.xml"
    install_log, paths = install_dependencies(tree)
    command = suite_command(tree, *PYTEST_OPTIONS, f"--junitxml={junit}", *files, paths=paths)
    done = run_agent(command, cwd=tree, writable=(tree.parent,), timeout_s=float(IDS["timeout_s"]))
    log = install_log + done.output[-2000:]
    if done.timed_out:
        log = f"the test suite ran past {done.limit_s:.0f} s"
    if not junit.is_file():
        return Suite({}, frozenset(), tampering, log)
    outcomes, broken = read_junit(junit.read_text("utf-8"))
    return Suite(outcomes, frozenset(broken), tampering, log)


def install_dependencies(tree: Path) -> tuple[str, tuple[Path, ...]]:
    """Install the tree's requirements as wheels from ``wheelhouse/`` (if any): a log line when
    they did not install, and the folders to put on the suite's path."""
    wheels = Path(__file__).with_name("wheelhouse")
    files = [name for name in REQUIREMENT_FILES if (tree / name).is_file()]
    if not wheels.is_dir() or not files:
        return "", ()
    site = tree.parent / "site-packages"
    site.mkdir()
    try:
        specs = [spec for name in files for spec in read_requirements(tree / name)]
    except RequirementRefused as refused:
        return f"dependencies did not install: {refused}\n", ()
    done = pip_install(specs, wheels, target=site)
    if not done.ok:
        return f"dependencies did not install: {done.output[-500:]}\n", (site,)
    return "", (site,)


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
