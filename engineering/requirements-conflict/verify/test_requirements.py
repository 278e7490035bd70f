"""Hidden checks of requirements-conflict (check ids of config.yaml)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import PIN, Install, normalize, requirement_lines
from mlebench_agent_run import run_agent


def require_fix(install: Install) -> None:
    """The checks of the fix's form only count once there is a fix: the file installs."""
    if install.returncode != 0:
        pytest.fail("requirements.txt does not install: no fix to judge")


@pytest.mark.check("F1")
def test_installs_from_the_wheelhouse(install: Install, evidence: Callable[[str], None]) -> None:
    last = install.output.strip().splitlines()[-1:] or [""]
    evidence(f"pip install exit {install.returncode}: {last[0][:200]}")
    assert install.returncode == 0, install.output


@pytest.mark.check("F1")
def test_pip_check_is_clean(install: Install, evidence: Callable[[str], None]) -> None:
    assert install.returncode == 0, "nothing installed"
    done = run_agent([*install.pip, "check"], timeout_s=60)
    evidence(f"pip check: {done.stdout.strip()[:200]}")
    assert done.returncode == 0


@pytest.mark.check("F2")
def test_app_smoke(
    install: Install, pristine_dir: Path, expected: dict, evidence: Callable
) -> None:
    assert install.returncode == 0, "nothing installed"
    # the venv's interpreter, as the agent's user: a wheel's .pth runs there, never as root
    done = run_agent([str(install.python), "-E", "-s", str(pristine_dir / "app.py")], timeout_s=60)
    evidence(f"app.py exit {done.returncode}: {(done.stdout or done.stderr).strip()[-200:]}")
    assert done.returncode == 0 and done.stdout.strip() == expected["smoke_stdout"]


@pytest.mark.check("R1")
def test_exact_pins_for_the_same_packages(
    install: Install, work_dir: Path, pristine_dir: Path, evidence: Callable
) -> None:
    require_fix(install)
    lines = requirement_lines(work_dir / "requirements.txt")
    loose = [line for line in lines if not PIN.match(line)]
    evidence(f"not an exact pin: {loose}" if loose else f"{len(lines)} exact pins")
    assert not loose, "every line must be NAME==VERSION (no options, ranges, paths or URLs)"
    names = sorted(normalize(PIN.match(line)[1]) for line in lines)  # type: ignore[index]
    before = sorted(
        normalize(PIN.match(line)[1])
        for line in requirement_lines(pristine_dir / "requirements.txt")
    )  # type: ignore[index]
    assert names == before, f"packages {before} became {names}"


@pytest.mark.check("E1")
def test_only_conflicting_pins_changed(
    install: Install, work_dir: Path, pristine_dir: Path, expected: dict, evidence: Callable
) -> None:
    require_fix(install)
    after = requirement_lines(work_dir / "requirements.txt")
    before = requirement_lines(pristine_dir / "requirements.txt")
    assert len(after) == len(before), "lines were added or removed"
    changed = [(old, new) for old, new in zip(before, after, strict=True) if old != new]
    oracle = sum(
        expected["planted"][name] != expected["fixed"][name] for name in expected["planted"]
    )
    evidence(f"{len(changed)} pin lines changed (the fix needs {oracle})")
    for old, new in changed:
        assert normalize(old.split("==")[0]) == normalize(new.split("==")[0]), (
            "the order of packages changed"
        )
    assert len(changed) <= oracle


@pytest.mark.check("X1")
def test_changed_pins_are_explained(
    install: Install, work_dir: Path, pristine_dir: Path, evidence: Callable
) -> None:
    require_fix(install)
    before = set(requirement_lines(pristine_dir / "requirements.txt"))
    raw = (work_dir / "requirements.txt").read_text("utf-8").splitlines()
    missing = []
    for index, line in enumerate(raw):
        pin = line.split("#", 1)[0].strip()
        if not pin or pin in before:
            continue
        above = raw[index - 1].strip() if index else ""
        if "#" not in line and not above.startswith("#"):
            missing.append(pin)
    evidence(
        f"changed pins without a comment: {missing}"
        if missing
        else "every changed pin has a comment"
    )
    assert not missing
